// Completing a link: the callback `/api/user/earn/l4r/{provider}/earn/{token}` pays the provider's
// coins once. The checks run first for a clear answer (unknown token, someone else's, used, replaced,
// too fast, expired, daily limit, cooldown), and then again as conditional updates inside the wallet
// movement that pays (idempotency key `l4r:<token id>`): the token goes pending → redeemed only
// while it is pending, past its minimum time and before its expiry, and the user's quota moves only
// within the limit and outside the cooldown. Whatever races the first checks lose, the second ones
// decide, in the same transaction as the coins — so a token pays once, however often and wherever it
// is redeemed at the same moment.
import type { HttpError, PluginClock, PluginCounters, PluginWallet, WalletTransaction } from '@orepanel/sdk/server';
import type { LinkProviderId } from '../shared/providers';
import { linkRefusals } from './link-errors';
import { quotaRefusal, type LinkQuotas, type QuotaState } from './link-quotas';
import type { LinkTokenRow, LinkTokens } from './link-tokens';
import type { ProviderConfig } from './provider-config';
import type { LinkDb, LinkTables } from './tables';

/** the counter the leaderboard ranks completed links by */
export const LINKS_COUNTER = 'links';

export interface CompletedLink {
  provider: LinkProviderId;
  coins: number;
  /** the user's balance right after */
  balance: number;
}

interface Services {
  wallet: PluginWallet;
  counters: PluginCounters;
  clock: PluginClock;
}

export class LinkRedemption {
  constructor(
    private readonly services: Services,
    private readonly tokens: LinkTokens,
    private readonly quotas: LinkQuotas,
  ) {}

  /** Why `token` cannot pay now (by its own state and times), or null when it can. */
  private tokenRefusal(token: LinkTokenRow, now: number): HttpError | null {
    if (token.state === 'redeemed') return linkRefusals.tokenUsed();
    if (token.state === 'replaced') return linkRefusals.tokenReplaced();
    if (now >= Date.parse(token.expiresAt)) return linkRefusals.tokenExpired();
    if (now < Date.parse(token.notBefore)) return linkRefusals.tooFast();
    return null;
  }

  private quotaError(quota: QuotaState, provider: ProviderConfig, now: number): HttpError | null {
    const refusal = quotaRefusal(quota, provider, now);
    if (!refusal) return null;
    return refusal.reason === 'daily_limit' ? linkRefusals.dailyLimit(provider) : linkRefusals.cooldown(provider, refusal.secondsLeft);
  }

  /** Pays `provider`'s coins to `userId` for `token`, or throws why not. */
  async redeem(userId: number, provider: ProviderConfig, tokenText: string): Promise<CompletedLink> {
    const now = this.services.clock.now();
    // the quota before the token: a redemption of this very token that committed in between shows in
    // both, and then the answer is "used" rather than "cooldown"
    const quota = await this.quotas.read(userId, provider.id, now);
    const token = await this.tokens.find(tokenText);
    // someone else's token, or one of another provider, is as good as none
    if (!token || token.userId !== userId || token.provider !== provider.id) throw linkRefusals.tokenInvalid();
    const early = this.tokenRefusal(token, now) ?? this.quotaError(quota, provider, now);
    if (early) throw early;

    await this.quotas.ensure(userId, provider.id, now);
    const result = await this.services.wallet.credit({
      userId,
      amount: provider.coins,
      kind: `l4r.${provider.id}`,
      reference: provider.name,
      idempotencyKey: `l4r:${token.id}`,
      effect: (trx) => this.claim(trx, token, provider, userId, now),
    });
    // the same token redeemed at the same moment elsewhere: that one paid
    if (result.replayed) throw linkRefusals.tokenUsed();
    return { provider: provider.id, coins: provider.coins, balance: result.entry.balanceAfter };
  }

  /** Inside the movement's transaction: spends the token and one completion of the quota, or throws. */
  private async claim(trx: WalletTransaction, token: LinkTokenRow, provider: ProviderConfig, userId: number, now: number): Promise<void> {
    const db = trx.withTables<LinkTables>();
    const at = new Date(now).toISOString();
    const spent = await db
      .updateTable('l4r_tokens')
      .set({ state: 'redeemed', redeemed_at: at, coins: provider.coins })
      .where('id', '=', token.id)
      .where('state', '=', 'pending')
      .where('not_before', '<=', at)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) {
      const current = await db.selectFrom('l4r_tokens').select('state').where('id', '=', token.id).executeTakeFirst();
      throw (current && this.tokenRefusal({ ...token, state: current.state }, now)) ?? linkRefusals.tokenUsed();
    }
    if (!(await this.quotas.take(trx, userId, provider.id, provider, now))) {
      throw this.quotaError(await this.quotas.read(userId, provider.id, now, db), provider, now) ?? linkRefusals.cooldown(provider, provider.cooldownSeconds);
    }
    await this.services.counters.add(userId, LINKS_COUNTER, 1, trx);
  }
}
