// POST /api/user/session/password/change: the current password is required (a stolen cookie alone
// cannot change it); the other sessions end and this one gets a new token.
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { successOnly } from './schemas';

const { password } = ACCOUNT_RULES;

export function registerPasswordChange(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.post<{ Body: { current_password: string; new_password: string } }>(
    '/user/session/password/change',
    {
      config: { auth: true, rateLimit: 'auth.password' },
      schema: {
        body: {
          type: 'object',
          required: ['current_password', 'new_password'],
          additionalProperties: false,
          properties: {
            current_password: { type: 'string', minLength: 1, maxLength: password.maxLength },
            new_password: { type: 'string', minLength: password.minLength, maxLength: password.maxLength },
          },
        },
        response: { 200: successOnly },
      },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      if (!(await ctx.auth.checkPassword(user.id, request.body.current_password))) {
        await ctx.audit.record(request, { action: 'account.password_change_failed', targetUserId: user.id });
        throw ctx.httpError(400, 'WRONG_PASSWORD', 'The current password is not correct.', 'current_password');
      }
      await ctx.auth.setPassword(user.id, request.body.new_password);
      const ended = await ctx.auth.revokeSessions(user.id, user.sessionId);
      await ctx.auth.rotateSession(request, reply);
      await ctx.audit.record(request, { action: 'account.password_change', targetUserId: user.id, details: { sessions_ended: ended } });
      return { success: true };
    },
  );
}
