// The auth plugin's API (reference paths): register, login by username or email, logout, forgot /
// reset password, e-mail verification and two-factor authentication; /auth/sso tokens and Discord /
// GitHub sign-in and account linking (sso.ts, oauth.ts).
import { ACCOUNT_RULES, defineServerPlugin } from '@orepanel/sdk/server';
import { OAUTH_GRANTS, TWO_FACTOR } from '../contract';
import { captchaTokenProperty, TurnstileCaptcha } from './captcha';
import { EmailVerification } from './email-verification';
import { noticeNewLogin } from './login-notice';
import { registerOAuth } from './oauth';
import { registerPasswordReset } from './password-reset';
import { AUTH_RATE_LIMIT_POLICIES } from './rate-limits';
import { successOnly } from './responses';
import { registerSso } from './sso';
import { AUTH_MIGRATIONS, type AuthCoreReads, type AuthTables } from './tables';
import { SingleUseTokens } from './tokens';
import { registerTwoFactor } from './two-factor';

const { username, email, password, name } = ACCOUNT_RULES;

const registerBody = {
  type: 'object',
  required: ['first_name', 'last_name', 'email', 'username', 'password'],
  additionalProperties: false,
  properties: {
    first_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    last_name: { type: 'string', minLength: name.minLength, maxLength: name.maxLength, pattern: name.pattern },
    email: { type: 'string', maxLength: email.maxLength, pattern: email.pattern },
    username: { type: 'string', minLength: username.minLength, maxLength: username.maxLength, pattern: username.pattern },
    password: { type: 'string', minLength: password.minLength, maxLength: password.maxLength },
    // the referral code of ?ref= (issue 4 credits it); an empty value means none
    ref: { type: 'string', maxLength: 64 },
    ...captchaTokenProperty,
  },
} as const;

const loginBody = {
  type: 'object',
  required: ['login', 'password'],
  additionalProperties: false,
  properties: {
    login: { type: 'string', minLength: 1, maxLength: email.maxLength },
    password: { type: 'string', minLength: 1, maxLength: password.maxLength },
    ...captchaTokenProperty,
  },
} as const;

interface RegisterBody {
  first_name: string;
  last_name: string;
  email: string;
  username: string;
  password: string;
  ref?: string;
}

interface LoginBody {
  login: string;
  password: string;
}

export default defineServerPlugin({
  id: 'auth',
  migrations: AUTH_MIGRATIONS,
  rateLimitPolicies: AUTH_RATE_LIMIT_POLICIES,
  register(app, ctx) {
    const db = ctx.db.withTables<AuthTables & AuthCoreReads>();
    const tokens = new SingleUseTokens(db);
    const captcha = new TurnstileCaptcha(ctx);
    const verification = new EmailVerification(ctx, tokens);
    verification.register(app);
    registerPasswordReset(app, ctx, tokens, captcha);
    ctx.services.provide(TWO_FACTOR, registerTwoFactor(app, ctx, db));
    registerSso(app, ctx, db);
    ctx.services.provide(OAUTH_GRANTS, registerOAuth(app, ctx, db));

    app.post<{ Body: RegisterBody }>(
      '/user/auth/register',
      {
        config: { rateLimit: 'auth.register' },
        schema: {
          body: registerBody,
          response: {
            201: {
              type: 'object',
              required: ['success', 'user'],
              properties: { success: { type: 'boolean' }, user: { type: 'object', properties: { uuid: { type: 'string' }, username: { type: 'string' } } } },
            },
          },
        },
        // checked before the body is validated: with sign-ups off, nothing about the input matters
        preValidation: async () => {
          if ((await ctx.settings.get('registration_enabled')) !== true) {
            throw ctx.httpError(403, 'REGISTRATION_DISABLED', 'Registration is currently disabled.');
          }
        },
        preHandler: captcha.guard('register'),
      },
      async (request, reply) => {
        const body = request.body;
        const user = await ctx.auth.createUser({
          username: body.username,
          email: body.email,
          firstName: body.first_name,
          lastName: body.last_name,
          password: body.password,
        });
        const ref = body.ref?.trim() ? body.ref.trim() : null;
        await ctx.events.emit('user.registered', { userId: user.id, uuid: user.uuid, username: user.username, ref });
        await ctx.auth.startSession(request, reply, user.id);
        await ctx.audit.record(request, { action: 'auth.register', actorUserId: user.id, targetUserId: user.id });
        if (await ctx.mail.enabled()) {
          const linkBase = await ctx.mail.publicUrl(request);
          await ctx.mail.send({
            to: body.email,
            template: 'welcome',
            placeholders: { first_name: body.first_name, last_name: body.last_name, username: body.username, email: body.email, link: `${linkBase}/dashboard` },
          });
          await verification.send(user.id, linkBase);
        }
        return reply.code(201).send({ success: true, user: { uuid: user.uuid, username: user.username } });
      },
    );

    app.post<{ Body: LoginBody }>(
      '/user/auth/login',
      { config: { rateLimit: 'auth.login' }, schema: { body: loginBody, response: { 200: successOnly } }, preHandler: captcha.guard('login') },
      async (request, reply) => {
        const user = await ctx.auth.checkCredentials(request.body.login, request.body.password);
        if (!user) {
          // the account's owner sees failed attempts in their activity; a name that matches no
          // account is not stored (people type passwords into the login field)
          await ctx.audit.record(request, { action: 'auth.login_failed', actorUserId: null, targetUserId: await ctx.auth.lookupUserId(request.body.login) });
          // the same answer whether or not the account exists
          throw ctx.httpError(401, 'INVALID_CREDENTIALS', 'Invalid username/email or password.');
        }
        if (user.banned) {
          await ctx.audit.record(request, { action: 'auth.login_banned', actorUserId: null, targetUserId: user.id });
          throw ctx.httpError(403, 'USER_BANNED', user.banReason ? `This account has been banned: ${user.banReason}` : 'This account has been banned.');
        }
        // with 2FA on, the session stays blocked (TW0_FA_BLOCKED) until the TOTP check passes
        await ctx.auth.startSession(request, reply, user.id, { twoFaPending: user.twoFaEnabled });
        await ctx.audit.record(request, { action: 'auth.login', actorUserId: user.id, targetUserId: user.id, details: { two_fa_pending: user.twoFaEnabled } });
        await noticeNewLogin(ctx, request, user.id);
        return { success: true };
      },
    );

    // POST only, so that the host's cross-site check (unsafe methods) applies: as a GET, any page
    // could end a user's session with an <img> or a link
    app.post(
      '/user/auth/logout',
      // a session waiting for its 2FA code may always end itself
      { config: { allowTwoFaPending: true }, schema: { response: { 200: successOnly } } },
      async (request, reply) => {
        const session = await ctx.auth.session(request);
        await ctx.auth.endSession(request, reply);
        if (session) await ctx.audit.record(request, { action: 'auth.logout', actorUserId: session.userId, targetUserId: session.userId });
        reply.header('cache-control', 'no-store');
        return { success: true };
      },
    );
    // a GET says how to do it instead of a bare 404 (and never ends the session)
    app.get(
      '/user/auth/logout',
      { config: { allowTwoFaPending: true }, schema: { response: { 405: { description: 'Always: METHOD_NOT_ALLOWED, sign out with a POST (Allow: POST)' } } } },
      async (_request, reply) => {
        reply.header('allow', 'POST');
        throw ctx.httpError(405, 'METHOD_NOT_ALLOWED', 'Sign out with a POST request.');
      },
    );
  },
});
