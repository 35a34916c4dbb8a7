// Which provider account is linked to which panel user (auth_oauth_accounts). The table's unique
// keys hold the rules — one panel user per provider account, one account per provider per user —
// so two racing links cannot both win; the checks before the insert only pick the clear answer.
import type { HttpError } from '@orepanel/sdk/server';
import type { ProviderProfile } from './oauth-providers';
import type { AuthDb, OAuthProviderId } from './tables';

export interface LinkedAccount {
  provider: OAuthProviderId;
  provider_user_id: string;
  provider_username: string;
  linked_at: string;
}

export type LinkRefusal = 'taken' | 'already_linked';

export class OAuthLinks {
  constructor(
    private readonly db: AuthDb,
    private readonly httpError: (status: number, code: string, message: string) => HttpError,
  ) {}

  /** The panel user a provider account is linked to, or null. */
  async userFor(provider: OAuthProviderId, providerUserId: string): Promise<number | null> {
    const row = await this.db
      .selectFrom('auth_oauth_accounts')
      .select('user_id')
      .where('provider', '=', provider)
      .where('provider_user_id', '=', providerUserId)
      .executeTakeFirst();
    return row?.user_id ?? null;
  }

  async listFor(userId: number): Promise<LinkedAccount[]> {
    const rows = await this.db
      .selectFrom('auth_oauth_accounts')
      .select(['provider', 'provider_user_id', 'provider_username', 'created_at'])
      .where('user_id', '=', userId)
      .orderBy('provider')
      .execute();
    return rows.map((r) => ({ provider: r.provider, provider_user_id: r.provider_user_id, provider_username: r.provider_username, linked_at: r.created_at }));
  }

  /**
   * Why `userId` cannot link this provider account, 'same' when exactly this link exists (also when
   * another flow of the same user made it a moment ago), or null when it can.
   */
  private async refusal(userId: number, provider: OAuthProviderId, providerUserId: string): Promise<LinkRefusal | 'same' | null> {
    const owner = await this.userFor(provider, providerUserId);
    if (owner !== null) return owner === userId ? 'same' : 'taken';
    const existing = await this.db.selectFrom('auth_oauth_accounts').select('provider_user_id').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    if (existing) return existing.provider_user_id === providerUserId ? 'same' : 'already_linked';
    return null;
  }

  /**
   * Links the provider account to the user; resolves 'linked', or 'unchanged' when exactly this
   * link already exists. Throws 409 OAUTH_ACCOUNT_TAKEN / OAUTH_ALREADY_LINKED.
   */
  async link(userId: number, provider: OAuthProviderId, profile: ProviderProfile, providerName: string): Promise<'linked' | 'unchanged'> {
    let refusal = await this.refusal(userId, provider, profile.id);
    if (!refusal) {
      try {
        await this.db
          .insertInto('auth_oauth_accounts')
          .values({ user_id: userId, provider, provider_user_id: profile.id, provider_username: profile.username, created_at: new Date().toISOString() })
          .execute();
        return 'linked';
      } catch (error) {
        // a concurrent link won the unique key: answer as if it had come first
        refusal = await this.refusal(userId, provider, profile.id);
        if (!refusal) throw error;
      }
    }
    if (refusal === 'same') {
      await this.rememberName(provider, profile);
      return 'unchanged';
    }
    throw refusal === 'taken'
      ? this.httpError(409, 'OAUTH_ACCOUNT_TAKEN', `This ${providerName} account is already linked to another account.`)
      : this.httpError(409, 'OAUTH_ALREADY_LINKED', `Your account is already linked to a ${providerName} account. Unlink it first.`);
  }

  /** Keeps the shown name current (people rename themselves on Discord and GitHub). */
  async rememberName(provider: OAuthProviderId, profile: ProviderProfile): Promise<void> {
    await this.db
      .updateTable('auth_oauth_accounts')
      .set({ provider_username: profile.username })
      .where('provider', '=', provider)
      .where('provider_user_id', '=', profile.id)
      .execute();
  }

  /** Removes the user's link to the provider: the link removed, or null when there was none. */
  async unlink(userId: number, provider: OAuthProviderId): Promise<LinkedAccount | null> {
    const [existing] = (await this.listFor(userId)).filter((l) => l.provider === provider);
    if (!existing) return null;
    const result = await this.db.deleteFrom('auth_oauth_accounts').where('user_id', '=', userId).where('provider', '=', provider).executeTakeFirst();
    return Number(result.numDeletedRows) === 1 ? existing : null;
  }
}
