// Two-factor authentication (TOTP):
// - GET  /user/auth/2fa/setup      a new pending secret and its otpauth:// URI (the page draws the QR code)
// - POST /user/auth/2fa/setup      { code } confirms it: 2FA on, 10 single-use recovery codes shown once
// - POST /user/auth/2fa/verify     { code } after a login with 2FA on (TOTP or a recovery code):
//                                  the session stops answering TW0_FA_BLOCKED and gets a new token
// - POST /user/auth/2fa/reverify   { code } a signed-in session proves the factor again (stamps it)
// - GET  /auth/2fa/setup/kill      spec §2/§7 (browser navigation): turns 2FA off only when this
//                                  session proved a code within the last 10 minutes, so a stolen
//                                  cookie alone cannot; otherwise it sends the browser to
//                                  /auth/2fa/verify?next=disband (API callers get 403 JSON).
// A TOTP code is accepted once (the last used step is stored); recovery codes are stored hashed.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { wantsJson, type ServerPluginContext } from '@orepanel/sdk/server';
import type { TwoFactorCheck } from '../contract';
import { successOnly } from './responses';
import type { AuthDb } from './tables';
import { sha256 } from './tokens';
import { matchingStep, newTotpSecret, otpauthUri, TOTP_DIGITS, TOTP_PERIOD_SECONDS } from './totp';

export const RECOVERY_CODE_COUNT = 10;
/** how recent a code must be for turning 2FA off */
export const REVERIFY_WINDOW_MS = 10 * 60 * 1000;
/** a secret shown by GET /setup must be confirmed within this time */
const PENDING_SETUP_MS = 60 * 60 * 1000;
/** recovery code alphabet: no 0/O, 1/I/L confusion */
const RECOVERY_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

const codeBody = {
  type: 'object',
  required: ['code'],
  additionalProperties: false,
  // a 6-digit code or a recovery code (xxxxx-xxxxx); spaces are allowed and ignored
  properties: { code: { type: 'string', minLength: 6, maxLength: 24, pattern: '^[0-9A-Za-z -]+$' } },
} as const;

/** Upper case without separators: how recovery codes are hashed and compared. */
function normaliseCode(code: string): string {
  return code.replace(/[\s-]/g, '').toUpperCase();
}

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

type CheckResult = { ok: true; method: 'totp' | 'recovery' } | { ok: false };

/** Adds the routes; returns the check other plugins get as the auth.two-factor service. */
export function registerTwoFactor(app: FastifyInstance, ctx: ServerPluginContext, db: AuthDb): TwoFactorCheck {
  const invalidCode = () => ctx.httpError(400, 'TWO_FA_INVALID_CODE', 'The code is not valid. Check the time on your device and try again.', 'code');

  /** Accepts a TOTP code once (replay-safe: one conditional UPDATE on the last used step). */
  const acceptTotp = async (userId: number, secret: string, code: string): Promise<boolean> => {
    const step = matchingStep(secret, code);
    if (step === null) return false;
    const result = await db
      .updateTable('auth_two_factor')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };

  const acceptRecoveryCode = async (userId: number, code: string): Promise<boolean> => {
    const result = await db
      .updateTable('auth_recovery_codes')
      .set({ used_at: new Date().toISOString() })
      .where('user_id', '=', userId)
      .where('code_hash', '=', sha256(normaliseCode(code)))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  };

  /** Checks a code against the user's enabled factor: a TOTP code or an unused recovery code. */
  const checkCode = async (userId: number, code: string): Promise<CheckResult> => {
    const factor = await db.selectFrom('auth_two_factor').select('secret').where('user_id', '=', userId).executeTakeFirst();
    const secret = factor?.secret ? ctx.secrets.open(factor.secret) : null;
    if (!secret) return { ok: false };
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) return (await acceptTotp(userId, secret, digits)) ? { ok: true, method: 'totp' } : { ok: false };
    return (await acceptRecoveryCode(userId, code)) ? { ok: true, method: 'recovery' } : { ok: false };
  };

  const isEnabled = async (userId: number): Promise<boolean> => {
    return (await ctx.accounts.signInState(userId))?.twoFactorEnabled === true;
  };

  app.get(
    '/user/auth/2fa/setup',
    {
      config: { auth: true },
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['secret', 'otpauth_url'],
            properties: {
              secret: { type: 'string' },
              otpauth_url: { type: 'string' },
              issuer: { type: 'string' },
              account_name: { type: 'string' },
              algorithm: { type: 'string' },
              digits: { type: 'integer' },
              period: { type: 'integer' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      if (user.twoFaEnabled) throw ctx.httpError(409, 'TWO_FA_ALREADY_ENABLED', 'Two-factor authentication is already on.');
      const secret = newTotpSecret();
      const sealed = ctx.secrets.seal(secret);
      const now = new Date().toISOString();
      const updated = await db.updateTable('auth_two_factor').set({ pending_secret: sealed, pending_created_at: now }).where('user_id', '=', user.id).executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        try {
          await db
            .insertInto('auth_two_factor')
            .values({ user_id: user.id, secret: null, pending_secret: sealed, pending_created_at: now, last_used_step: null, enabled_at: null })
            .execute();
        } catch {
          // a second tab started a setup at the same moment: this secret replaces it
          await db.updateTable('auth_two_factor').set({ pending_secret: sealed, pending_created_at: now }).where('user_id', '=', user.id).execute();
        }
      }
      const issuer = String((await ctx.settings.get('app_name')) ?? 'Orepanel') || 'Orepanel';
      reply.header('cache-control', 'no-store');
      return {
        secret,
        otpauth_url: otpauthUri(issuer, user.username, secret),
        issuer,
        account_name: user.username,
        algorithm: 'SHA1',
        digits: TOTP_DIGITS,
        period: TOTP_PERIOD_SECONDS,
      };
    },
  );

  app.post<{ Body: { code: string } }>(
    '/user/auth/2fa/setup',
    {
      config: { auth: true, rateLimit: 'auth.2fa' },
      schema: {
        body: codeBody,
        response: {
          200: {
            type: 'object',
            required: ['success', 'recovery_codes'],
            properties: { success: { type: 'boolean' }, recovery_codes: { type: 'array', items: { type: 'string' } } },
          },
        },
      },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      if (user.twoFaEnabled) throw ctx.httpError(409, 'TWO_FA_ALREADY_ENABLED', 'Two-factor authentication is already on.');
      const row = await db.selectFrom('auth_two_factor').select(['pending_secret', 'pending_created_at']).where('user_id', '=', user.id).executeTakeFirst();
      if (!row?.pending_secret || !row.pending_created_at || Date.parse(row.pending_created_at) + PENDING_SETUP_MS < Date.now()) {
        throw ctx.httpError(409, 'TWO_FA_SETUP_NOT_STARTED', 'Start the setup again: the secret was not requested or has expired.');
      }
      const code = request.body.code.replace(/\s/g, '');
      const pending = ctx.secrets.open(row.pending_secret);
      const step = pending === null ? null : matchingStep(pending, code);
      if (step === null) {
        await ctx.audit.record(request, { action: 'auth.2fa_setup_failed', targetUserId: user.id });
        throw invalidCode();
      }
      const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
      const now = new Date().toISOString();
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('auth_two_factor')
          .set({ secret: row.pending_secret, pending_secret: null, pending_created_at: null, last_used_step: step, enabled_at: now })
          .where('user_id', '=', user.id)
          .execute();
        await tx.deleteFrom('auth_recovery_codes').where('user_id', '=', user.id).execute();
        await tx
          .insertInto('auth_recovery_codes')
          .values(codes.map((c) => ({ user_id: user.id, code_hash: sha256(normaliseCode(c)), used_at: null, created_at: now })))
          .execute();
        await ctx.accounts.setTwoFactorEnabled(user.id, true, tx);
      });
      // a change of what protects the account: the other sessions never proved the new factor, so
      // they end; this one gets a fresh token, stamped as just verified
      const ended = await ctx.auth.revokeSessions(user.id, user.sessionId);
      await ctx.auth.rotateSession(request, reply, { twoFaVerified: true });
      await ctx.audit.record(request, { action: 'auth.2fa_enable', actorUserId: user.id, targetUserId: user.id, details: { sessions_ended: ended } });
      return { success: true, recovery_codes: codes };
    },
  );

  app.post<{ Body: { code: string } }>(
    '/user/auth/2fa/verify',
    // the one route (with logout) a session waiting for its code may call
    { config: { allowTwoFaPending: true, rateLimit: 'auth.2fa' }, schema: { body: codeBody, response: { 200: successOnly } } },
    async (request, reply) => {
      const session = await ctx.auth.session(request);
      if (!session) throw ctx.httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');
      if (session.banned) throw ctx.httpError(403, 'USER_BANNED', 'This account has been banned.');
      if (!session.twoFaPending) throw ctx.httpError(409, 'TWO_FA_NOT_PENDING', 'This session does not wait for a two-factor code.');
      const result = await checkCode(session.userId, request.body.code);
      if (!result.ok) {
        await ctx.audit.record(request, { action: 'auth.2fa_failed', actorUserId: null, targetUserId: session.userId });
        throw invalidCode();
      }
      await ctx.auth.rotateSession(request, reply, { twoFaVerified: true });
      await ctx.audit.record(request, { action: 'auth.2fa_verify', actorUserId: session.userId, targetUserId: session.userId, details: { method: result.method } });
      return { success: true };
    },
  );

  app.post<{ Body: { code: string } }>(
    '/user/auth/2fa/reverify',
    {
      config: { auth: true, rateLimit: 'auth.2fa' },
      schema: {
        body: codeBody,
        response: { 200: { type: 'object', required: ['success', 'valid_until'], properties: { success: { type: 'boolean' }, valid_until: { type: 'string' } } } },
      },
    },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      if (!(await isEnabled(user.id))) throw ctx.httpError(409, 'TWO_FA_NOT_ENABLED', 'Two-factor authentication is not on.');
      const result = await checkCode(user.id, request.body.code);
      if (!result.ok) {
        await ctx.audit.record(request, { action: 'auth.2fa_failed', targetUserId: user.id, details: { reverify: true } });
        throw invalidCode();
      }
      await ctx.auth.markTwoFaVerified(request);
      await ctx.audit.record(request, { action: 'auth.2fa_reverify', targetUserId: user.id, details: { method: result.method } });
      return { success: true, valid_until: new Date(Date.now() + REVERIFY_WINDOW_MS).toISOString() };
    },
  );

  /** The kill route's answer: JSON for an API caller, a redirect for the browser. */
  const respond = (request: FastifyRequest, reply: FastifyReply, status: number, code: string | null, message: string, location: string) => {
    reply.header('cache-control', 'no-store');
    if (!wantsJson(request)) return reply.redirect(location, 303);
    if (code === null) return reply.code(status).send({ success: true });
    throw ctx.httpError(status, code, message);
  };

  app.get(
    '/auth/2fa/setup/kill',
    // spec §2: the browser is sent here by /auth/2fa/setup/disband; it answers pending sessions itself
    { config: { allowTwoFaPending: true }, schema: { response: { 200: successOnly, 303: { description: 'A browser: to the page that says what happened', type: 'null' } } } },
    async (request, reply) => {
      // a GET that changes state: a link on another site must not trigger it (the cookies are
      // SameSite=Lax, which browsers still send on a top-level cross-site navigation)
      const site = request.headers['sec-fetch-site'];
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        throw ctx.httpError(403, 'CROSS_SITE_REQUEST', 'Cross-site requests are not allowed.');
      }
      const session = await ctx.auth.session(request);
      if (!session) return respond(request, reply, 401, 'INVALID_SESSION', 'Your session has expired or is invalid.', '/auth/login');
      if (session.banned) return respond(request, reply, 403, 'USER_BANNED', 'This account has been banned.', '/auth/login');
      if (session.twoFaPending) return respond(request, reply, 401, 'TW0_FA_BLOCKED', 'Two-factor authentication is required to continue.', '/auth/2fa/verify');
      if (!(await isEnabled(session.userId))) return respond(request, reply, 409, 'TWO_FA_NOT_ENABLED', 'Two-factor authentication is not on.', '/account');
      const verifiedAt = session.twoFaVerifiedAt ? Date.parse(session.twoFaVerifiedAt) : NaN;
      if (!(Date.now() - verifiedAt <= REVERIFY_WINDOW_MS)) {
        await ctx.audit.record(request, { action: 'auth.2fa_disable_refused', actorUserId: session.userId, targetUserId: session.userId });
        return respond(
          request,
          reply,
          403,
          'TWO_FA_REVERIFY_REQUIRED',
          'Enter a code from your authenticator app again before turning two-factor authentication off.',
          '/auth/2fa/verify?next=disband',
        );
      }
      await db.transaction().execute(async (tx) => {
        await tx.deleteFrom('auth_recovery_codes').where('user_id', '=', session.userId).execute();
        await tx.deleteFrom('auth_two_factor').where('user_id', '=', session.userId).execute();
        await ctx.accounts.setTwoFactorEnabled(session.userId, false, tx);
      });
      // a change of what protects the account: this session continues under a fresh token. The other
      // sessions stay: each passed the factor at its login, and ending them would only sign the
      // owner out while whoever turned it off keeps the session they did it from.
      await ctx.auth.rotateSession(request, reply);
      await ctx.audit.record(request, { action: 'auth.2fa_disable', actorUserId: session.userId, targetUserId: session.userId });
      return respond(request, reply, 200, null, '', '/account?two_fa=disabled');
    },
  );

  return { enabled: isEnabled, accept: async (userId, code) => (await checkCode(userId, code)).ok };
}
