// GET /api/user/nav-badges — the counts on the sidebar items the signed-in user can see (server/nav).
// The kernel asks after each session load (every 60 s, spec §4) and when the user moves around.
import type { FastifyInstance } from 'fastify';
import type { PluginAuth } from '../../sdk/server';
import { errorResponseSchema } from '../http/errors';
import type { NavBadges, NavBadgeSources } from '../nav/nav-badges';

export const NAV_BADGES_URL = '/api/user/nav-badges';

export function navBadgeRoutes(app: FastifyInstance, auth: PluginAuth, badges: NavBadges, sources: NavBadgeSources): void {
  app.get(
    NAV_BADGES_URL,
    {
      config: { auth: true },
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['badges'],
            properties: {
              // `<plugin id>.<badge name>` → count; a badge that could not be counted is missing
              badges: { type: 'object', additionalProperties: { type: 'integer', minimum: 0 } },
            },
          },
          401: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const user = await auth.currentUser(request);
      reply.header('cache-control', 'no-store');
      // the route guard let only a signed-in session through; a user gone since has nothing to count
      return { badges: user ? await badges.countsFor(user, sources) : {} };
    },
  );
}
