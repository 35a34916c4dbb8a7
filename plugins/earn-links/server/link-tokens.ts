// Single-use link tokens: 32 random bytes (base64url) that travel only in the callback address the
// shortener leads back to; the database keeps their SHA-256. Starting a link replaces the user's
// earlier pending one for that provider, so at most one link per provider is open at a time.
import { createHash, randomBytes } from 'node:crypto';
import type { LinkProviderId } from '../shared/providers';
import type { LinkRules } from './provider-config';
import type { LinkDb, LinkTokenState } from './tables';

/** spent and expired tokens are kept this long (the user's history), then removed at their next start */
const KEEP_OLD_TOKENS_MS = 30 * 86_400_000;

export interface LinkTokenRow {
  id: number;
  userId: number;
  provider: string;
  notBefore: string;
  expiresAt: string;
  state: LinkTokenState;
}

export interface IssuedToken {
  token: string;
  notBefore: string;
  expiresAt: string;
}

export function hashLinkToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function newLinkToken(): string {
  return randomBytes(32).toString('base64url');
}

export class LinkTokens {
  constructor(private readonly db: LinkDb) {}

  /** Stores `token` as the user's open link for `provider`, replacing an earlier open one. */
  async store(userId: number, provider: LinkProviderId, token: string, rules: Pick<LinkRules, 'minTimeSeconds' | 'expireSeconds'>, now: number): Promise<IssuedToken> {
    const createdAt = new Date(now).toISOString();
    const notBefore = new Date(now + rules.minTimeSeconds * 1000).toISOString();
    const expiresAt = new Date(now + rules.expireSeconds * 1000).toISOString();
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('l4r_tokens').set({ state: 'replaced' }).where('user_id', '=', userId).where('provider', '=', provider).where('state', '=', 'pending').execute();
      await trx
        .deleteFrom('l4r_tokens')
        .where('user_id', '=', userId)
        .where('provider', '=', provider)
        .where('expires_at', '<', new Date(now - KEEP_OLD_TOKENS_MS).toISOString())
        .execute();
      await trx
        .insertInto('l4r_tokens')
        .values({
          user_id: userId,
          provider,
          token_hash: hashLinkToken(token),
          created_at: createdAt,
          not_before: notBefore,
          expires_at: expiresAt,
          state: 'pending',
          redeemed_at: null,
          coins: null,
        })
        .execute();
    });
    return { token, notBefore, expiresAt };
  }

  async find(token: string): Promise<LinkTokenRow | null> {
    const row = await this.db
      .selectFrom('l4r_tokens')
      .select(['id', 'user_id', 'provider', 'not_before', 'expires_at', 'state'])
      .where('token_hash', '=', hashLinkToken(token))
      .executeTakeFirst();
    if (!row) return null;
    return { id: Number(row.id), userId: Number(row.user_id), provider: row.provider, notBefore: row.not_before, expiresAt: row.expires_at, state: row.state };
  }
}
