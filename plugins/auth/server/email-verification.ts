// E-mail verification when mail is on: a link valid for 24 hours is mailed at registration and
// after an e-mail change (event user.email_changed); GET /user/auth/verify?code= marks the address
// verified, once; POST /user/auth/verify/resend mails a new link.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { wantsJson, type ServerPluginContext } from '@orepanel/sdk/server';
import { successOnly } from './responses';
import type { SingleUseTokens } from './tokens';

const INVALID_CODE_MESSAGE = 'This verification link is invalid or has expired.';

export class EmailVerification {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly tokens: SingleUseTokens,
  ) {}

  /** Mails a verification link to the user's current address; false when mail is off. */
  async send(userId: number, linkBase: string): Promise<boolean> {
    if (!(await this.ctx.mail.enabled())) return false;
    const user = await this.ctx.accounts.contact(userId);
    if (!user) return false;
    const code = await this.tokens.issue('verify_email', userId, user.email);
    return this.ctx.mail.send({
      to: user.email,
      template: 'verify',
      placeholders: { first_name: user.firstName, last_name: user.lastName, username: user.username, email: user.email, link: `${linkBase}/api/user/auth/verify?code=${code}` },
    });
  }

  register(app: FastifyInstance): void {
    const { ctx, tokens } = this;

    ctx.events.on('user.email_changed', async ({ userId, linkBase }) => {
      await this.send(userId, linkBase);
    });

    app.get<{ Querystring: { code: string } }>(
      '/user/auth/verify',
      {
        schema: {
          querystring: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: { type: 'string', minLength: 1, maxLength: 128 } } },
          response: { 200: successOnly, 303: { description: 'A browser: to /account?email_verified=1 (or 0)', type: 'null' } },
        },
      },
      async (request: FastifyRequest<{ Querystring: { code: string } }>, reply) => {
        reply.header('cache-control', 'no-store');
        const owner = await tokens.consume('verify_email', request.query.code);
        // a link mailed to an earlier address does not verify the current one
        // a link followed twice (or after a password reset proved the address) still says verified
        const verified = owner ? (await ctx.accounts.confirmEmail(owner.userId, owner.email)) !== null : false;
        if (verified) {
          await ctx.audit.record(request, { action: 'auth.email_verified', actorUserId: owner!.userId, targetUserId: owner!.userId, details: { email: owner!.email } });
          // e.g. earn-referrals pays the referrer only once the new account's address is proved
          await ctx.events.emit('user.verified', { userId: owner!.userId });
        }
        if (!wantsJson(request)) return reply.redirect(verified ? '/account?email_verified=1' : '/account?email_verified=0', 303);
        if (!verified) throw ctx.httpError(400, 'VERIFY_CODE_INVALID', INVALID_CODE_MESSAGE, 'code');
        return { success: true };
      },
    );

    app.post('/user/auth/verify/resend', { config: { auth: true, rateLimit: 'auth.verify' }, schema: { response: { 200: successOnly } } }, async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const row = await ctx.db.selectFrom('user_public').select('verified').where('id', '=', user.id).executeTakeFirstOrThrow();
      if (row.verified === 1) throw ctx.httpError(409, 'EMAIL_ALREADY_VERIFIED', 'Your e-mail address is already verified.');
      if (!(await ctx.mail.enabled())) throw ctx.httpError(409, 'MAIL_DISABLED', 'This panel cannot send mail at the moment.');
      await this.send(user.id, await ctx.mail.publicUrl(request));
      return { success: true };
    });
  }
}
