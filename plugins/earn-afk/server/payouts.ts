// Paying one observed AFK minute. The wallet's idempotency key is (user, UTC minute): whichever
// socket, tab or instance asks, and however often, a minute is paid at most once. The daily cap and
// the account's AFK minutes (ctx.accounts) move in the same transaction as the coins (the wallet's `effect`), and the cap is
// a conditional update, so a day's total can never pass it even when two instances pay at once.
import { sql } from 'kysely';
import { isHttpError, type ServerPluginContext, type WalletTransaction } from '@orepanel/sdk/server';
import { DAY_MS, MINUTE_MS } from '../shared/protocol';
import type { AfkDb, AfkTables } from './tables';

export const AFK_LEDGER_KIND = 'afk.minute';

/** The payout settings, read fresh for each minute (an administrator may change them any time). */
export interface AfkRates {
  /** coins per full minute (≥ 1) */
  rate: number;
  /** coins per user per UTC day (≥ 1) */
  dailyCap: number;
}

export interface MinuteOutcome {
  /** coins paid now (0: nothing, because capped or already paid) */
  paid: number;
  /** the minute had been paid before (another socket, instance or a retry) */
  alreadyPaid: boolean;
  /** what AFK paid this user on the minute's UTC day, after this payout */
  earnedToday: number;
  capped: boolean;
}

export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);
export const minuteOf = (ms: number): number => Math.floor(ms / MINUTE_MS);

/** Thrown inside the transaction when another payout reached the cap first: rolls the coins back. */
class CapReachedMeanwhile extends Error {}

const positiveWhole = (value: unknown, fallback: number, max: number): number => {
  const n = typeof value === 'number' && Number.isFinite(value) ? Math.floor(value) : fallback;
  return Math.min(Math.max(n, 1), max);
};

export class AfkPayouts {
  private readonly db: AfkDb;

  constructor(private readonly ctx: ServerPluginContext) {
    this.db = ctx.db.withTables<AfkTables>();
  }

  async rates(): Promise<AfkRates> {
    const values = await this.ctx.settings.getMany(['afk_coins_per_minute', 'afk_daily_cap']);
    return { rate: positiveWhole(values.afk_coins_per_minute, 1, 1000), dailyCap: positiveWhole(values.afk_daily_cap, 600, 1_000_000) };
  }

  /** What AFK paid `userId` on `day`. */
  async earnedOn(userId: number, day: number): Promise<number> {
    const row = await this.db.selectFrom('afk_days').select('coins').where('user_id', '=', userId).where('day', '=', day).executeTakeFirst();
    return row ? Number(row.coins) : 0;
  }

  /**
   * Pays `minute` (whole minutes since the epoch) to `userId`, at most once ever, within the day's cap.
   * `earnedSoFar`: what the caller knows was paid on the minute's day (saves a read; a stale value
   * only costs a retry, the cap itself is checked in the transaction).
   */
  async payMinute(userId: number, minute: number, rates: AfkRates, earnedSoFar?: { day: number; earned: number }): Promise<MinuteOutcome> {
    const day = dayOf(minute * MINUTE_MS);
    // a lost race for the last coins under the cap is retried with the new total
    for (let attempt = 0; attempt < 3; attempt++) {
      const earned = attempt === 0 && earnedSoFar?.day === day ? earnedSoFar.earned : await this.earnedOn(userId, day);
      const amount = Math.min(rates.rate, rates.dailyCap - earned);
      if (amount <= 0) return { paid: 0, alreadyPaid: false, earnedToday: earned, capped: true };
      try {
        const result = await this.ctx.wallet.credit({
          userId,
          amount,
          kind: AFK_LEDGER_KIND,
          reference: new Date(minute * MINUTE_MS).toISOString().slice(0, 16) + 'Z',
          idempotencyKey: `afk:${userId}:${minute}`,
          effect: (trx) => this.record(trx, userId, day, amount, rates.dailyCap),
        });
        if (result.replayed) return { paid: 0, alreadyPaid: true, earnedToday: earned, capped: earned >= rates.dailyCap };
        return { paid: amount, alreadyPaid: false, earnedToday: earned + amount, capped: earned + amount >= rates.dailyCap };
      } catch (error) {
        if (error instanceof CapReachedMeanwhile) continue;
        // the key was used with another amount (the rate changed between two instances' tries): paid
        if (isHttpError(error) && error.code === 'IDEMPOTENCY_CONFLICT') {
          const now = await this.earnedOn(userId, day);
          return { paid: 0, alreadyPaid: true, earnedToday: now, capped: now >= rates.dailyCap };
        }
        throw error;
      }
    }
    const earned = await this.earnedOn(userId, day);
    return { paid: 0, alreadyPaid: false, earnedToday: earned, capped: earned >= rates.dailyCap };
  }

  /** The minute's own writes, in the wallet's transaction: the day's total (capped) and the account's AFK minutes. */
  private async record(trx: WalletTransaction, userId: number, day: number, amount: number, cap: number): Promise<void> {
    const db = trx.withTables<AfkTables>();
    const first = db.insertInto('afk_days').values({ user_id: userId, day, coins: 0, minutes: 0 });
    // never a unique violation inside the transaction (PostgreSQL would abort it): insert-or-nothing
    if (this.ctx.dialect === 'mysql') await first.ignore().execute();
    else await first.onConflict((oc) => oc.columns(['user_id', 'day']).doNothing()).execute();
    const raised = await db
      .updateTable('afk_days')
      .set({ coins: sql<number>`coins + ${amount}`, minutes: sql<number>`minutes + 1` })
      .where('user_id', '=', userId)
      .where('day', '=', day)
      .where(sql<boolean>`coins + ${amount} <= ${cap}`)
      .executeTakeFirst();
    if (Number(raised.numUpdatedRows) !== 1) throw new CapReachedMeanwhile();
    await this.ctx.accounts.addAfkMinutes(userId, 1, trx);
  }
}
