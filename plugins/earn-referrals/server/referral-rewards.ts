// Recording a referral and paying both sides (reference: 35 coins to the referrer, 15 to the new
// account). Each side is one wallet movement with its own idempotency key,
// `referral:<new user id>:redeemer|referrer`, whose `effect` marks that side paid on the referral row
// with a conditional update (`… is null`) — and, for the referrer, counts the referral (counter
// `referrals`) — in the same transaction. So a side is paid at most once however often the events
// arrive, and the row, the ledger and the counter never disagree.
//
// With referrals_pay_after_verification on, the referrer is paid only once the new account has
// proved its e-mail address (event user.verified), so throw-away accounts earn their maker nothing.
// A referrer's unpaid referrals that have become due are also settled when they open their page:
// verification by other means (an administrator, a password reset before this plugin listened) or a
// crash between the verification and the payment still ends in a payment.
import { insertUnlessTaken, type ServerPluginContext, type WalletTransaction } from '@orepanel/sdk/server';
import { normalizeReferralCode } from '../shared/referral-code';
import type { ReferralCodes } from './referral-codes';
import type { ReferralTables } from './tables';

/** the counter the leaderboard ranks referrals by */
export const REFERRALS_COUNTER = 'referrals';

/** how many due referrals one page view settles (the rest follow on the next views) */
const SETTLE_BATCH = 25;

type Side = 'redeemer' | 'referrer';

interface ReferralRow {
  id: number;
  referrer_id: number;
  referred_id: number;
  code: string;
  redeemer_coins: number | null;
  referrer_coins: number | null;
}

/** Thrown inside a movement's transaction when another one paid that side first: undoes this one. */
class AlreadyPaid extends Error {}

export class ReferralRewards {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly codes: ReferralCodes,
  ) {}

  private get db() {
    return this.ctx.db.withTables<ReferralTables>();
  }

  private async enabled(): Promise<boolean> {
    return (await this.ctx.settings.get('referrals_enabled')) === true;
  }

  private async coins(key: 'referrals_coins_per_referral' | 'referrals_coins_per_referral_redeemer'): Promise<number> {
    const value = await this.ctx.settings.get(key);
    return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
  }

  private async referralOf(referredId: number): Promise<ReferralRow | null> {
    const row = await this.db
      .selectFrom('referrals')
      .select(['id', 'referrer_id', 'referred_id', 'code', 'redeemer_coins', 'referrer_coins'])
      .where('referred_id', '=', referredId)
      .executeTakeFirst();
    return row ? toRow(row) : null;
  }

  /**
   * A new account registered with someone else's code (and referrals are on): the referral is
   * recorded and paid. An unknown code or the account's own is ignored — the registration stands,
   * without a referral.
   */
  async registered(userId: number, ref: string | null): Promise<void> {
    if (ref === null || !(await this.enabled())) return;
    const code = normalizeReferralCode(ref);
    const referrerId = code === null ? null : await this.codes.ownerOf(code);
    if (code === null || referrerId === null || referrerId === userId) return;
    // one referrer per account: a second referral of the same account is skipped by its unique key
    await insertUnlessTaken(
      this.ctx.dialect,
      this.db.insertInto('referrals').values({ referrer_id: referrerId, referred_id: userId, code, created_at: new Date(this.ctx.clock.now()).toISOString() }),
    ).execute();
    const referral = await this.referralOf(userId);
    if (!referral) return;
    await this.payRedeemer(referral);
    await this.payReferrerWhenDue(referral);
  }

  /** The account proved its e-mail address: its referrer may be due now. */
  async verified(userId: number): Promise<void> {
    if (!(await this.enabled())) return;
    const referral = await this.referralOf(userId);
    if (referral) await this.payReferrerWhenDue(referral);
  }

  /** Pays what is due to `userId` and has not been paid: as a referrer, and as a referred account. */
  async settle(userId: number): Promise<void> {
    const own = await this.referralOf(userId);
    if (own) await this.payRedeemer(own);
    const unpaid = await this.db
      .selectFrom('referrals')
      .select(['id', 'referrer_id', 'referred_id', 'code', 'redeemer_coins', 'referrer_coins'])
      .where('referrer_id', '=', userId)
      .where('referrer_coins', 'is', null)
      .orderBy('id', 'asc')
      .limit(SETTLE_BATCH)
      .execute();
    for (const row of unpaid) await this.payReferrerWhenDue(toRow(row));
  }

  private async payRedeemer(referral: ReferralRow): Promise<void> {
    if (referral.redeemer_coins !== null) return;
    await this.pay(referral, 'redeemer', await this.coins('referrals_coins_per_referral_redeemer'));
  }

  private async payReferrerWhenDue(referral: ReferralRow): Promise<void> {
    if (referral.referrer_coins !== null) return;
    if ((await this.ctx.settings.get('referrals_pay_after_verification')) === true) {
      const account = await this.ctx.db.selectFrom('user_public').select('verified').where('id', '=', referral.referred_id).executeTakeFirst();
      if (!account || Number(account.verified) !== 1) return;
    }
    await this.pay(referral, 'referrer', await this.coins('referrals_coins_per_referral'));
  }

  private async pay(referral: ReferralRow, side: Side, coins: number): Promise<void> {
    const mark = (trx: WalletTransaction) => this.markPaid(trx, referral, side, coins);
    try {
      if (coins === 0) {
        // nothing to move (an administrator set the reward to 0): the side is still settled
        await this.ctx.db.transaction().execute(mark);
        return;
      }
      await this.ctx.wallet.credit({
        userId: side === 'referrer' ? referral.referrer_id : referral.referred_id,
        amount: coins,
        kind: `referral.${side}`,
        reference: side === 'referrer' ? await this.usernameOf(referral.referred_id) : referral.code,
        idempotencyKey: `referral:${referral.referred_id}:${side}`,
        effect: mark,
      });
    } catch (error) {
      if (error instanceof AlreadyPaid) return;
      throw error;
    }
  }

  /** Inside the movement's transaction: this side of the referral becomes paid (once), and counted. */
  private async markPaid(trx: WalletTransaction, referral: ReferralRow, side: Side, coins: number): Promise<void> {
    const db = trx.withTables<ReferralTables>();
    const at = new Date(this.ctx.clock.now()).toISOString();
    const update =
      side === 'referrer'
        ? db.updateTable('referrals').set({ referrer_coins: coins, referrer_paid_at: at }).where('referrer_coins', 'is', null)
        : db.updateTable('referrals').set({ redeemer_coins: coins, redeemer_paid_at: at }).where('redeemer_coins', 'is', null);
    const marked = await update.where('id', '=', referral.id).executeTakeFirst();
    if (Number(marked.numUpdatedRows) !== 1) throw new AlreadyPaid();
    if (side === 'referrer') await this.ctx.counters.add(referral.referrer_id, REFERRALS_COUNTER, 1, trx);
  }

  private async usernameOf(userId: number): Promise<string | null> {
    const row = await this.ctx.db.selectFrom('user_public').select('username').where('id', '=', userId).executeTakeFirst();
    return row?.username ?? null;
  }
}

function toRow(row: {
  id: number;
  referrer_id: number;
  referred_id: number;
  code: string;
  redeemer_coins: number | string | null;
  referrer_coins: number | string | null;
}): ReferralRow {
  return {
    id: Number(row.id),
    referrer_id: Number(row.referrer_id),
    referred_id: Number(row.referred_id),
    code: row.code,
    redeemer_coins: row.redeemer_coins === null ? null : Number(row.redeemer_coins),
    referrer_coins: row.referrer_coins === null ? null : Number(row.referrer_coins),
  };
}
