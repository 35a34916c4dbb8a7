// The OAuth `state` parameter (RFC 6749 §10.12): a random value sent to the provider and checked
// when the browser comes back, bound to the browser that started the flow by an HttpOnly cookie
// (a random nonce; the database holds only hashes of both) and usable once. So a callback URL made
// in another browser — an attacker's code and state, to sign the victim into the attacker's
// account or link the attacker's provider account to the victim's — is refused, and so is a replay.
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PluginClock } from '@orepanel/sdk/server';
import type { AuthDb, OAuthProviderId, OAuthStatePurpose } from './tables';
import { sha256 } from './tokens';

export const OAUTH_BROWSER_COOKIE = 'op_oauth';
/** the cookie is sent only to the callback routes */
const COOKIE_PATH = '/api/user/auth/callback';
export const OAUTH_STATE_LIFETIME_MS = 10 * 60 * 1000;
/** used and expired states are swept after this long */
const SWEEP_AFTER_MS = 24 * 60 * 60 * 1000;
/** the shape of a nonce and of a state: 32 random bytes, base64url */
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The browser's binding nonce from the Cookie header, when it has a well-formed one. */
function browserNonce(request: FastifyRequest): string | null {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === OAUTH_BROWSER_COOKIE) {
      const value = part.slice(eq + 1).trim();
      return SECRET_SHAPE.test(value) ? value : null;
    }
  }
  return null;
}

export interface StateStart {
  provider: OAuthProviderId;
  purpose: OAuthStatePurpose;
  /** for a link (or a plugin's grant): the signed-in user starting it */
  userId: number | null;
}

export class OAuthStates {
  constructor(
    private readonly db: AuthDb,
    private readonly clock: PluginClock,
  ) {}

  /** A new state for a flow this browser starts (sets or refreshes the binding cookie on `reply`). */
  async begin(request: FastifyRequest, reply: FastifyReply, start: StateStart): Promise<string> {
    // one nonce per browser, kept across flows, so two tabs signing in at once do not break each other
    const nonce = browserNonce(request) ?? newSecret();
    const secure = request.protocol === 'https' ? '; Secure' : '';
    reply.header('set-cookie', `${OAUTH_BROWSER_COOKIE}=${nonce}; Path=${COOKIE_PATH}; Max-Age=${OAUTH_STATE_LIFETIME_MS / 1000}; HttpOnly; SameSite=Lax${secure}`);
    const state = newSecret();
    const now = this.clock.now();
    await this.db
      .deleteFrom('auth_oauth_states')
      .where('expires_at', '<', new Date(now - SWEEP_AFTER_MS).toISOString())
      .execute();
    await this.db
      .insertInto('auth_oauth_states')
      .values({
        state_hash: sha256(state),
        browser_hash: sha256(nonce),
        provider: start.provider,
        purpose: start.purpose,
        user_id: start.userId,
        expires_at: new Date(now + OAUTH_STATE_LIFETIME_MS).toISOString(),
        used_at: null,
        created_at: new Date(now).toISOString(),
      })
      .execute();
    return state;
  }

  /**
   * Uses the state up when this browser started it for this provider and purpose, unused and in
   * time: what it was started with (the linking user), or null — one conditional UPDATE, so a state
   * works once even when two callbacks race with it.
   */
  async finish(request: FastifyRequest, state: string, provider: OAuthProviderId, purpose: OAuthStatePurpose): Promise<{ userId: number | null } | null> {
    const nonce = browserNonce(request);
    if (!nonce || !SECRET_SHAPE.test(state)) return null;
    const hash = sha256(state);
    const now = new Date(this.clock.now()).toISOString();
    const used = await this.db
      .updateTable('auth_oauth_states')
      .set({ used_at: now })
      .where('state_hash', '=', hash)
      .where('browser_hash', '=', sha256(nonce))
      .where('provider', '=', provider)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) return null;
    const row = await this.db.selectFrom('auth_oauth_states').select('user_id').where('state_hash', '=', hash).executeTakeFirstOrThrow();
    return { userId: row.user_id };
  }
}
