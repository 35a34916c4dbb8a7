// POST /api/user/session/password/change: the current password (or, with 2FA on, a fresh code) is
// required — a stolen cookie alone cannot change it; the other sessions end, this one gets a new
// token, and the links mailed before (reset, verification) stop working.
import type { FastifyInstance } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { proofProperties, requireProof, type Proof } from './identity';
import { successOnly } from './schemas';

const { password } = ACCOUNT_RULES;

export function registerPasswordChange(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.post<{ Body: Proof & { new_password: string } }>(
    '/user/session/password/change',
    {
      config: { auth: true, rateLimit: 'auth.password' },
      schema: {
        body: {
          type: 'object',
          required: ['new_password'],
          additionalProperties: false,
          properties: {
            ...proofProperties,
            new_password: { type: 'string', minLength: password.minLength, maxLength: password.maxLength },
          },
        },
        response: { 200: successOnly },
      },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      await requireProof(ctx, request, user.id, request.body, 'account.password_change_failed');
      await ctx.auth.setPassword(user.id, request.body.new_password);
      const ended = await ctx.auth.revokeSessions(user.id, user.sessionId);
      await ctx.auth.rotateSession(request, reply);
      await ctx.audit.record(request, { action: 'account.password_change', targetUserId: user.id, details: { sessions_ended: ended } });
      return { success: true };
    },
  );
}
