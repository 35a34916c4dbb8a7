// POST /api/user/session/delete-account: the password is required. The account row is deleted (its
// sessions, tokens and 2FA rows go with it by foreign key; the audit log keeps its history) and the
// cookies are cleared. The last active account holding admin.root cannot delete itself, not even
// when two administrators delete themselves at the same moment (ctx.auth.deleteUser): the panel
// would be left without an administrator.
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { successOnly } from './schemas';

export function registerAccountDeletion(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.post<{ Body: { password: string } }>(
    '/user/session/delete-account',
    {
      config: { auth: true, rateLimit: 'auth.password' },
      schema: {
        body: {
          type: 'object',
          required: ['password'],
          additionalProperties: false,
          properties: { password: { type: 'string', minLength: 1, maxLength: ACCOUNT_RULES.password.maxLength } },
        },
        response: { 200: successOnly },
      },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      if (!(await ctx.auth.checkPassword(user.id, request.body.password))) {
        await ctx.audit.record(request, { action: 'account.delete_failed', targetUserId: user.id });
        throw ctx.httpError(400, 'WRONG_PASSWORD', 'The password is not correct.', 'password');
      }
      await ctx.auth.deleteUser(user.id, async () => {
        await ctx.auth.endSession(request, reply);
        await ctx.auth.revokeSessions(user.id);
        await ctx.events.emit('user.deleting', { userId: user.id, uuid: user.uuid });
      });
      await ctx.audit.record(request, {
        action: 'account.delete',
        actorUserId: user.id,
        targetUserId: user.id,
        details: { uuid: user.uuid, username: user.username, email: user.email },
      });
      await ctx.events.emit('user.deleted', { userId: user.id, uuid: user.uuid });
      return { success: true };
    },
  );
}
