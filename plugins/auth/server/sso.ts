// /auth/sso: a host links the panel from its own site. Its back end asks the admin API for a
// sign-in token for one of the panel's users, and sends the user's browser to /auth/sso?token=…;
// that page exchanges the token for a session exactly as a login does.
// - POST /admin/sso/tokens  { user: uuid | username | email }  (permission admin.sso.create)
// - POST /user/auth/sso     { token }  → a session (2FA still applies: TW0_FA_BLOCKED until a code)
// A token is `<nonce>.<expiry>.<HMAC-SHA256>`: the signature (key: sso-signing-key.ts) lets a forged
// or altered token be refused before the database is asked; the token is stored only as a SHA-256
// hash and used by one conditional UPDATE, so it works once even when two requests race with it;
// it expires SSO_TOKEN_LIFETIME_SECONDS after it was issued. Every refusal has the same answer.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PluginClock, ServerPluginContext } from '@orepanel/sdk/server';
import { signInAs } from './sign-in';
import { SigningKey } from './sso-signing-key';
import type { AuthDb } from './tables';
import { sha256 } from './tokens';

export const SSO_TOKEN_LIFETIME_SECONDS = 60;
export const SSO_ISSUE_PERMISSION = 'admin.sso.create';
/** how long used and expired rows are kept (for the audit trail of a replay) before they are swept */
const SWEEP_AFTER_MS = 24 * 60 * 60 * 1000;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{32})\.(\d{10})\.([A-Za-z0-9_-]{43})$/;
const UUID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const INVALID_MESSAGE = 'This sign-in link is invalid or has expired.';
/** spec §6: its holder passes every check */
const ROOT_PERMISSION = 'admin.root';

export type SsoRefusal = 'malformed' | 'forged' | 'expired' | 'used';
export type SsoCheck = { ok: true; userId: number } | { ok: false; reason: SsoRefusal; userId: number | null };

export interface IssuedSsoToken {
  token: string;
  expiresAt: Date;
}

export class SsoTokens {
  constructor(
    private readonly db: AuthDb,
    private readonly key: SigningKey,
    /** ctx.clock: the lifetime is a rule measured in time (tests move a manual clock) */
    private readonly clock: PluginClock,
  ) {}

  private async sign(payload: string): Promise<string> {
    return createHmac('sha256', await this.key.get())
      .update(`sso.v1.${payload}`)
      .digest('base64url');
  }

  async issue(userId: number, issuedBy: number): Promise<IssuedSsoToken> {
    const now = this.clock.now();
    const expiresAt = new Date(Math.floor(now / 1000) * 1000 + SSO_TOKEN_LIFETIME_SECONDS * 1000);
    const payload = `${randomBytes(24).toString('base64url')}.${Math.floor(expiresAt.getTime() / 1000)}`;
    const token = `${payload}.${await this.sign(payload)}`;
    await this.db
      .deleteFrom('auth_sso_tokens')
      .where('expires_at', '<', new Date(now - SWEEP_AFTER_MS).toISOString())
      .execute();
    await this.db
      .insertInto('auth_sso_tokens')
      .values({ user_id: userId, token_hash: sha256(token), issued_by: issuedBy, expires_at: expiresAt.toISOString(), used_at: null, created_at: new Date(now).toISOString() })
      .execute();
    return { token, expiresAt };
  }

  /** Uses the token up: its user when it is genuine, unexpired and this call was the one that used it. */
  async consume(token: string): Promise<SsoCheck> {
    const match = TOKEN_SHAPE.exec(token);
    if (!match) return { ok: false, reason: 'malformed', userId: null };
    const [, nonce, expiry, signature] = match;
    const expected = Buffer.from(await this.sign(`${nonce}.${expiry}`));
    if (!timingSafeEqual(expected, Buffer.from(signature))) return { ok: false, reason: 'forged', userId: null };
    const hash = sha256(token);
    const now = new Date(this.clock.now()).toISOString();
    if (Number(expiry) * 1000 <= this.clock.now()) return { ok: false, reason: 'expired', userId: await this.ownerOf(hash) };
    const used = await this.db
      .updateTable('auth_sso_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    const owner = await this.ownerOf(hash);
    if (Number(used.numUpdatedRows) !== 1 || owner === null) return { ok: false, reason: 'used', userId: owner };
    return { ok: true, userId: owner };
  }

  private async ownerOf(hash: string): Promise<number | null> {
    const row = await this.db.selectFrom('auth_sso_tokens').select('user_id').where('token_hash', '=', hash).executeTakeFirst();
    return row?.user_id ?? null;
  }
}

const issueBody = {
  type: 'object',
  required: ['user'],
  additionalProperties: false,
  properties: { user: { type: 'string', minLength: 1, maxLength: 254, pattern: '\\S', description: "the user's uuid, username or e-mail address" } },
} as const;

const issuedResponse = {
  type: 'object',
  required: ['token', 'url', 'expires_at', 'expires_in'],
  properties: {
    token: { type: 'string' },
    /** where to send the user's browser: absolute when the panel's public address is set */
    url: { type: 'string' },
    expires_at: { type: 'string' },
    expires_in: { type: 'integer' },
    user: { type: 'object', properties: { uuid: { type: 'string' }, username: { type: 'string' } } },
  },
} as const;

const exchangeBody = {
  type: 'object',
  required: ['token'],
  additionalProperties: false,
  properties: { token: { type: 'string', minLength: 1, maxLength: 256 } },
} as const;

export function registerSso(app: FastifyInstance, ctx: ServerPluginContext, db: AuthDb): void {
  const signingKey = new SigningKey(db, ctx.secrets, 'sso');
  ctx.events.on('panel.restored', () => signingKey.forget());
  const tokens = new SsoTokens(db, signingKey, ctx.clock);

  const findUser = async (reference: string) => {
    const query = ctx.db.selectFrom('user_public').select(['id', 'uuid', 'username', 'role_id', 'banned']);
    if (UUID_SHAPE.test(reference)) return query.where('uuid', '=', reference.toLowerCase()).executeTakeFirst();
    const id = await ctx.auth.lookupUserId(reference);
    return id === null ? undefined : query.where('id', '=', id).executeTakeFirst();
  };

  app.post<{ Body: { user: string } }>(
    '/admin/sso/tokens',
    { config: { permission: SSO_ISSUE_PERMISSION }, schema: { body: issueBody, response: { 201: issuedResponse } } },
    async (request, reply) => {
      const actor = (await ctx.auth.currentUser(request))!;
      const target = await findUser(request.body.user.trim());
      if (!target) throw ctx.httpError(404, 'USER_NOT_FOUND', 'No account matches this uuid, username or e-mail address.', 'user');
      if (target.banned === 1) throw ctx.httpError(409, 'USER_BANNED', 'This account is banned and cannot sign in.', 'user');
      // a sign-in token acts as its user: an administrator may not reach permissions they lack this way
      if (!actor.permissions.includes(ROOT_PERMISSION)) {
        const held = new Set(actor.permissions);
        const targetPermissions = await ctx.auth.userPermissions(target.id);
        if (targetPermissions.some((permission) => permission === ROOT_PERMISSION || !held.has(permission))) {
          throw ctx.httpError(403, 'PERMISSION_ESCALATION', 'You cannot sign in as an account that holds permissions you do not hold.', 'user');
        }
      }
      const issued = await tokens.issue(target.id, actor.id);
      await ctx.audit.record(request, { action: 'admin.sso_token_issue', actorUserId: actor.id, targetUserId: target.id, details: { expires_at: issued.expiresAt.toISOString() } });
      const path = `/auth/sso?token=${encodeURIComponent(issued.token)}`;
      let url = path;
      try {
        url = `${await ctx.mail.publicUrl(request)}${path}`;
      } catch {
        // the public address is not configured: the host prefixes the panel's address itself
      }
      reply.header('cache-control', 'no-store');
      return reply.code(201).send({
        token: issued.token,
        url,
        expires_at: issued.expiresAt.toISOString(),
        expires_in: SSO_TOKEN_LIFETIME_SECONDS,
        user: { uuid: target.uuid, username: target.username },
      });
    },
  );

  app.post<{ Body: { token: string } }>(
    '/user/auth/sso',
    {
      config: { rateLimit: 'auth.login' },
      schema: {
        body: exchangeBody,
        response: { 200: { type: 'object', required: ['success', 'two_fa_required'], properties: { success: { type: 'boolean' }, two_fa_required: { type: 'boolean' } } } },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const check = await tokens.consume(request.body.token.trim());
      if (!check.ok) {
        // the reason is for the audit trail only: the caller learns nothing about which check failed
        await ctx.audit.record(request, { action: 'auth.sso_failed', actorUserId: null, targetUserId: check.userId, details: { reason: check.reason } });
        throw ctx.httpError(401, 'SSO_TOKEN_INVALID', INVALID_MESSAGE);
      }
      const { twoFaPending } = await signInAs(ctx, request, reply, check.userId, 'auth.sso_login');
      return { success: true, two_fa_required: twoFaPending };
    },
  );
}
