// Forgot / reset password (reference paths): POST /user/auth/forgot mails a single-use link valid
// for one hour; GET /user/auth/reset?token= checks it; POST /user/auth/reset sets the new password,
// uses the token up and ends every session of the account. Every link dies when the account's
// e-mail address or password changes.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_RULES, type ServerPluginContext } from '@orepanel/sdk/server';
import { captchaTokenProperty, type TurnstileCaptcha } from './captcha';
import { successOnly, successWithMessage } from './responses';
import type { SingleUseTokens } from './tokens';

const { email, password } = ACCOUNT_RULES;

/** The same answer whether or not an account has the address. */
export const FORGOT_MESSAGE = 'If an account uses this address, a link to reset its password is on its way.';
const INVALID_TOKEN_MESSAGE = 'This password reset link is invalid or has expired.';

const tokenField = { type: 'string', minLength: 1, maxLength: 128 } as const;

export function registerPasswordReset(app: FastifyInstance, ctx: ServerPluginContext, tokens: SingleUseTokens, captcha: TurnstileCaptcha): void {
  /** reset mails being queued after their answer was sent; a shutdown waits for them */
  const inFlight = new Set<Promise<void>>();
  app.addHook('preClose', async () => {
    await Promise.allSettled([...inFlight]);
  });

  // a link mailed before the address or the password changed (by the owner, an administrator or a
  // reset) must not outlive the change: a reset link would hand the account to whoever reads the
  // old mailbox, a verification link would prove an address the account no longer has
  ctx.events.on('user.credentials_changed', ({ userId }) => tokens.revokeAll(userId));

  const mailDisabled = () => ctx.httpError(409, 'MAIL_DISABLED', 'This panel cannot send mail, so passwords cannot be reset by e-mail. Contact an administrator.');

  /** Issues the token and queues the mail; runs after the answer is sent, so timing reveals nothing. */
  const mailResetLink = async (request: FastifyRequest, address: string, linkBase: string) => {
    const userId = await ctx.accounts.findByEmail(address);
    if (userId === null || (await ctx.accounts.signInState(userId))?.banned !== false) return;
    const user = await ctx.accounts.contact(userId);
    if (!user) return;
    const token = await tokens.issue('reset_password', userId, user.email);
    await ctx.mail.send({
      to: user.email,
      template: 'reset_password',
      placeholders: { first_name: user.firstName, last_name: user.lastName, username: user.username, email: user.email, link: `${linkBase}/auth/reset-password?token=${token}` },
    });
    await ctx.audit.record(request, { action: 'auth.password_reset_requested', actorUserId: null, targetUserId: userId });
  };

  app.post<{ Body: { email: string } }>(
    '/user/auth/forgot',
    {
      config: { rateLimit: 'auth.forgot' },
      schema: {
        body: {
          type: 'object',
          required: ['email'],
          additionalProperties: false,
          properties: { email: { type: 'string', minLength: 3, maxLength: email.maxLength, pattern: email.pattern }, ...captchaTokenProperty },
        },
        response: { 200: successWithMessage },
      },
      preHandler: captcha.guard('forgot'),
    },
    async (request) => {
      if (!(await ctx.mail.enabled())) throw mailDisabled();
      const linkBase = await ctx.mail.publicUrl(request);
      const work: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(() => mailResetLink(request, request.body.email, linkBase))
        .catch((error: unknown) => ctx.log.error({ err: error }, 'queuing a password reset mail failed'))
        .finally(() => inFlight.delete(work));
      inFlight.add(work);
      return { success: true, message: FORGOT_MESSAGE };
    },
  );

  app.get<{ Querystring: { token: string } }>(
    '/user/auth/reset',
    { schema: { querystring: { type: 'object', required: ['token'], additionalProperties: false, properties: { token: tokenField } }, response: { 200: successOnly } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!(await tokens.peek('reset_password', request.query.token))) throw ctx.httpError(400, 'RESET_TOKEN_INVALID', INVALID_TOKEN_MESSAGE, 'token');
      return { success: true };
    },
  );

  app.post<{ Body: { token: string; password: string } }>(
    '/user/auth/reset',
    {
      schema: {
        body: {
          type: 'object',
          required: ['token', 'password'],
          additionalProperties: false,
          properties: { token: tokenField, password: { type: 'string', minLength: password.minLength, maxLength: password.maxLength } },
        },
        response: { 200: successOnly },
      },
    },
    async (request) => {
      // the password was checked by the schema first: a refused password leaves the token usable
      const owner = await tokens.consume('reset_password', request.body.token);
      if (!owner) throw ctx.httpError(400, 'RESET_TOKEN_INVALID', INVALID_TOKEN_MESSAGE, 'token');
      // the other links of the account die with the change (user.credentials_changed)
      await ctx.auth.setPassword(owner.userId, request.body.password);
      // whoever held a session (perhaps the one who took the account over) is signed out
      const ended = await ctx.auth.revokeSessions(owner.userId);
      // the link arrived at the account's address: that proves the address
      if ((await ctx.accounts.confirmEmail(owner.userId, owner.email)) === 'verified') await ctx.events.emit('user.verified', { userId: owner.userId });
      await ctx.audit.record(request, { action: 'auth.password_reset', actorUserId: null, targetUserId: owner.userId, details: { sessions_ended: ended } });
      return { success: true };
    },
  );
}
