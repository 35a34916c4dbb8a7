// GET /api/user/session/sessions: the user's live sessions (newest first) with the current one
// marked; DELETE /api/user/session/sessions/:id ends one of them (by its public id — never another
// user's: that answers 404 like a missing one).
import type { FastifyInstance } from 'fastify';
import { dataListSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import { successOnly } from './schemas';

const sessionItem = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    created_at: { type: 'string' },
    last_seen_at: { type: 'string' },
    ip: { type: ['string', 'null'] },
    user_agent: { type: ['string', 'null'] },
    current: { type: 'boolean' },
  },
} as const;

const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } } } as const;

export function registerSessionList(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.get('/user/session/sessions', { config: { auth: true }, schema: { response: { 200: dataListSchema(sessionItem) } } }, async (request, reply) => {
    const user = (await ctx.auth.currentUser(request))!;
    const sessions = await ctx.auth.listSessions(user.id);
    reply.header('cache-control', 'no-store');
    return {
      data: sessions.map((s) => ({
        id: s.publicId,
        created_at: s.createdAt,
        last_seen_at: s.lastSeenAt,
        ip: s.ip,
        user_agent: s.userAgent,
        current: s.sessionId === user.sessionId,
      })),
    };
  });

  app.delete<{ Params: { id: string } }>(
    '/user/session/sessions/:id',
    { config: { auth: true }, schema: { params: idParams, response: { 200: successOnly } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const session = await ctx.auth.findSession(user.id, request.params.id);
      if (!session) throw ctx.httpError(404, 'SESSION_NOT_FOUND', 'There is no such session.');
      const current = session.sessionId === user.sessionId;
      // ending the session in use is a logout: the cookies go too
      if (current) await ctx.auth.endSession(request, reply);
      else await ctx.auth.revokeSession(user.id, session.sessionId);
      await ctx.audit.record(request, {
        action: 'account.session_revoke',
        actorUserId: user.id,
        targetUserId: user.id,
        details: { session: request.params.id, current },
      });
      return { success: true };
    },
  );
}
