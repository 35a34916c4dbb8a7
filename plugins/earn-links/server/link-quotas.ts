// The daily limit and the cooldown of one user with one provider. A day is a UTC calendar day.
// `take` spends one completion with a single conditional update — within the cooldown or past the
// limit it changes nothing — and runs inside the wallet movement that pays the link, so the rules
// hold for tokens redeemed at the same moment, on any instance.
import { sql } from 'kysely';
import { insertUnlessTaken, type DatabaseDialect, type WalletTransaction } from '@orepanel/sdk/server';
import type { LinkRules } from './provider-config';
import type { LinkDb, LinkTables } from './tables';

export interface QuotaState {
  /** completions today (UTC) */
  today: number;
  lastCompletedAt: string | null;
}

export type QuotaRefusal = { reason: 'daily_limit' } | { reason: 'cooldown'; secondsLeft: number };

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Seconds until the cooldown after the last completion ends (0: none running). */
export function cooldownLeftSeconds(state: QuotaState, rules: Pick<LinkRules, 'cooldownSeconds'>, now: number): number {
  if (state.lastCompletedAt === null) return 0;
  const ends = Date.parse(state.lastCompletedAt) + rules.cooldownSeconds * 1000;
  return Math.max(0, Math.ceil((ends - now) / 1000));
}

/** Why another completion is not allowed now, or null when it is. */
export function quotaRefusal(state: QuotaState, rules: Pick<LinkRules, 'dailyLimit' | 'cooldownSeconds'>, now: number): QuotaRefusal | null {
  if (state.today >= rules.dailyLimit) return { reason: 'daily_limit' };
  const secondsLeft = cooldownLeftSeconds(state, rules, now);
  return secondsLeft > 0 ? { reason: 'cooldown', secondsLeft } : null;
}

/** Seconds until the next UTC midnight, when the daily counts start again. */
export function secondsUntilNextDay(now: number): number {
  const midnight = Date.parse(`${utcDay(now)}T00:00:00.000Z`) + 86_400_000;
  return Math.ceil((midnight - now) / 1000);
}

export class LinkQuotas {
  constructor(
    private readonly db: LinkDb,
    private readonly dialect: DatabaseDialect,
  ) {}

  /** The user's counts for `provider`; pass the transaction when inside one (SQLite has one connection). */
  async read(userId: number, provider: string, now: number, db: LinkDb = this.db): Promise<QuotaState> {
    const row = await db
      .selectFrom('l4r_quotas')
      .select(['day', 'day_count', 'last_completed_at'])
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .executeTakeFirst();
    if (!row) return { today: 0, lastCompletedAt: null };
    return { today: row.day === utcDay(now) ? Number(row.day_count) : 0, lastCompletedAt: row.last_completed_at };
  }

  /** Makes the user's row for `provider` (no completions yet) unless it exists. */
  async ensure(userId: number, provider: string, now: number): Promise<void> {
    await insertUnlessTaken(
      this.dialect,
      this.db.insertInto('l4r_quotas').values({ user_id: userId, provider, day: utcDay(now), day_count: 0, last_completed_at: null }),
    ).execute();
  }

  /** Inside the paying transaction: counts one completion now, unless the limit or the cooldown forbids it. */
  async take(trx: WalletTransaction, userId: number, provider: string, rules: Pick<LinkRules, 'dailyLimit' | 'cooldownSeconds'>, now: number): Promise<boolean> {
    const today = utcDay(now);
    const cooldownEdge = new Date(now - rules.cooldownSeconds * 1000).toISOString();
    const taken = await trx
      .withTables<LinkTables>()
      .updateTable('l4r_quotas')
      // day_count first: MySQL evaluates SET left to right with the new values, the others with the
      // old ones — in this order all three read the old `day`
      .set({
        day_count: sql<number>`case when day = ${today} then day_count + 1 else 1 end`,
        day: today,
        last_completed_at: new Date(now).toISOString(),
      })
      .where('user_id', '=', userId)
      .where('provider', '=', provider)
      .where((eb) => eb.or([eb('last_completed_at', 'is', null), eb('last_completed_at', '<=', cooldownEdge)]))
      .where((eb) => eb.or([eb('day', '<>', today), eb('day_count', '<', rules.dailyLimit)]))
      .executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1;
  }
}
