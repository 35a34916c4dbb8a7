// Single-use tokens mailed to a user (password reset: 1 hour; e-mail verification: 24 hours).
// 32 random bytes, stored only as a SHA-256 hash; using one is one conditional UPDATE, so a token
// works once even when two requests race with it. A token is good only while the account still has
// the address it was mailed to, and every token dies when the e-mail or the password changes.
import { createHash, randomBytes } from 'node:crypto';
import type { ExpressionBuilder } from 'kysely';
import type { AuthCoreReads, AuthDb, AuthTables, TokenPurpose } from './tables';
import type { PluginReadableDatabase } from '@orepanel/sdk/server';

export const TOKEN_LIFETIME_MS: Readonly<Record<TokenPurpose, number>> = {
  reset_password: 60 * 60 * 1000,
  verify_email: 24 * 60 * 60 * 1000,
};

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export interface TokenOwner {
  userId: number;
  email: string;
}

/** The token row's account still has the address the token was mailed to. */
const mailedToCurrentAddress = (eb: ExpressionBuilder<PluginReadableDatabase & AuthTables & AuthCoreReads, 'auth_tokens'>) =>
  eb('auth_tokens.email', '=', eb.selectFrom('users').select('users.email_lower').whereRef('users.id', '=', 'auth_tokens.user_id'));

export class SingleUseTokens {
  constructor(private readonly db: AuthDb) {}

  /** A new token for the user; earlier unused ones of the same purpose stop working. */
  async issue(purpose: TokenPurpose, userId: number, email: string): Promise<string> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    await this.db.transaction().execute(async (tx) => {
      await tx.updateTable('auth_tokens').set({ used_at: now.toISOString() }).where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
      await tx
        .insertInto('auth_tokens')
        .values({
          user_id: userId,
          purpose,
          token_hash: sha256(token),
          email: email.toLowerCase(),
          expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS[purpose]).toISOString(),
          used_at: null,
          created_at: now.toISOString(),
        })
        .execute();
    });
    return token;
  }

  /** Whose the token is, when it is unused and unexpired (without using it). */
  async peek(purpose: TokenPurpose, token: string): Promise<TokenOwner | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const row = await this.db
      .selectFrom('auth_tokens')
      .select(['user_id', 'email'])
      .where('token_hash', '=', sha256(token))
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', new Date().toISOString())
      .where(mailedToCurrentAddress)
      .executeTakeFirst();
    return row ? { userId: row.user_id, email: row.email } : null;
  }

  /** Uses the token up; its owner when this call was the one that used it, else null. */
  async consume(purpose: TokenPurpose, token: string): Promise<TokenOwner | null> {
    if (!TOKEN_SHAPE.test(token)) return null;
    const hash = sha256(token);
    const now = new Date().toISOString();
    const result = await this.db
      .updateTable('auth_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where(mailedToCurrentAddress)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return null;
    const row = await this.db.selectFrom('auth_tokens').select(['user_id', 'email']).where('token_hash', '=', hash).executeTakeFirstOrThrow();
    return { userId: row.user_id, email: row.email };
  }

  /** Ends every unused token of the user, of both purposes (its e-mail or its password changed). */
  async revokeAll(userId: number): Promise<void> {
    await this.db.updateTable('auth_tokens').set({ used_at: new Date().toISOString() }).where('user_id', '=', userId).where('used_at', 'is', null).execute();
  }
}
