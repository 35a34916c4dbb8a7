// GET/PUT /api/user/mail-preferences — the kinds of mail the active plugins declare (plugin.json
// "mailPreferences") and the signed-in account's choices; the account page's "Mail" section.
import type { FastifyInstance } from 'fastify';
import { httpError, type PluginAuth } from '../../sdk/server';
import { errorResponseSchema } from '../http/errors';
import type { MailPreferences } from '../mail/mail-preferences';

export const MAIL_PREFERENCES_URL = '/api/user/mail-preferences';

const PLUGIN_ID = { type: 'string', minLength: 1, maxLength: 64 } as const;
const KEY = { type: 'string', minLength: 1, maxLength: 64 } as const;

const listSchema = {
  type: 'object',
  required: ['preferences'],
  properties: {
    preferences: {
      type: 'array',
      items: {
        type: 'object',
        required: ['plugin', 'key', 'label', 'accepts'],
        properties: {
          plugin: { type: 'string' },
          key: { type: 'string' },
          label: { type: 'object', additionalProperties: { type: 'string' } },
          accepts: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export function mailPreferenceRoutes(app: FastifyInstance, auth: PluginAuth, preferences: MailPreferences): void {
  app.get(MAIL_PREFERENCES_URL, { config: { auth: true }, schema: { response: { 200: listSchema, 401: errorResponseSchema } } }, async (request, reply) => {
    const user = await auth.currentUser(request);
    reply.header('cache-control', 'no-store');
    return { preferences: user ? await preferences.list(user.id) : [] };
  });

  app.put<{ Body: { preferences: { plugin: string; key: string; accepts: boolean }[] } }>(
    MAIL_PREFERENCES_URL,
    {
      config: { auth: true },
      schema: {
        body: {
          type: 'object',
          required: ['preferences'],
          additionalProperties: false,
          properties: {
            preferences: {
              type: 'array',
              minItems: 1,
              maxItems: 100,
              items: {
                type: 'object',
                required: ['plugin', 'key', 'accepts'],
                additionalProperties: false,
                properties: { plugin: PLUGIN_ID, key: KEY, accepts: { type: 'boolean' } },
              },
            },
          },
        },
        response: { 200: listSchema, 400: errorResponseSchema, 401: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const user = await auth.currentUser(request);
      if (!user) throw httpError(401, 'UNAUTHORIZED', 'Sign in first.');
      const unknown = await preferences.set(user.id, request.body.preferences);
      if (unknown !== null) throw httpError(400, 'UNKNOWN_MAIL_PREFERENCE', `No enabled plugin declares the mail preference "${unknown}".`, 'preferences');
      reply.header('cache-control', 'no-store');
      return { preferences: await preferences.list(user.id) };
    },
  );
}
