// GET /api/user/session/sessions: the user's live sessions (newest first) with the current one
// marked; DELETE /api/user/session/sessions/:id ends one of them (by its public id — never another
// user's: that answers 404 like a missing one).
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
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
  app.get(
    '/user/session/sessions',
    { config: { auth: true }, schema: { response: { 200: { type: 'object', required: ['data'], properties: { data: { type: 'array', items: sessionItem } } } } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const rows = await ctx.db
        .selectFrom('sessions')
        .select(['id', 'public_id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', new Date().toISOString())
        .orderBy('id', 'desc')
        .execute();
      reply.header('cache-control', 'no-store');
      return {
        data: rows.map((r) => ({ id: r.public_id, created_at: r.created_at, last_seen_at: r.last_seen_at, ip: r.ip, user_agent: r.user_agent, current: r.id === user.sessionId })),
      };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/user/session/sessions/:id',
    { config: { auth: true }, schema: { params: idParams, response: { 200: successOnly } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const row = await ctx.db
        .selectFrom('sessions')
        .select('id')
        .where('public_id', '=', request.params.id)
        .where('user_id', '=', user.id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!row) throw ctx.httpError(404, 'SESSION_NOT_FOUND', 'There is no such session.');
      if (row.id === user.sessionId) {
        // ending the session in use is a logout: the cookies go too
        await ctx.auth.endSession(request, reply);
      } else {
        await ctx.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('id', '=', row.id).where('revoked_at', 'is', null).execute();
      }
      await ctx.audit.record(request, {
        action: 'account.session_revoke',
        actorUserId: user.id,
        targetUserId: user.id,
        details: { session: request.params.id, current: row.id === user.sessionId },
      });
      return { success: true };
    },
  );
}
