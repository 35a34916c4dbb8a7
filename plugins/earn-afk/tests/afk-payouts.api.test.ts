// The AFK payout under concurrency, below the socket: however many payouts race (two instances, a
// retry, a reconnect), a (user, minute) is paid once and a user's UTC day never passes the cap —
// and the ledger, the balance, afk_days and minutes_afk always agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { AfkPayouts, dayOf } from '../server/payouts';
import { DAY_MS, MINUTE_MS } from '../shared/protocol';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

describe.each(testDialects())('AFK payouts under concurrency (%s)', (dialect) => {
  let panel: TestPanel;
  let payouts: AfkPayouts;
  const day = 22_000;
  const minuteOfDay = (n: number) => (day * DAY_MS) / MINUTE_MS + n;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    const { database, wallet, accountChanges } = panel.services;
    // the real database, wallet and accounts; the payout uses nothing else of its plugin context
    payouts = new AfkPayouts({ db: database.db, dialect: database.dialect, wallet, accounts: accountChanges } as unknown as ServerPluginContext);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const totals = async (user: SignedInUser) => {
    const db = panel.services.database.db;
    const ledger = await db.selectFrom('wallet_ledger').select(['delta', 'idempotency_key']).where('user_id', '=', user.id).where('kind', '=', 'afk.minute').execute();
    const account = await db.selectFrom('users').select(['coins', 'minutes_afk']).where('id', '=', user.id).executeTakeFirstOrThrow();
    return {
      entries: ledger.length,
      ledgerSum: ledger.reduce((sum, row) => sum + Number(row.delta), 0),
      coins: Number(account.coins),
      minutesAfk: Number(account.minutes_afk),
      afkDay: await payouts.earnedOn(user.id, day),
    };
  };

  it('pays one minute once when ten payouts of it race', async () => {
    const user = await userWithRole(panel, 1);
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => payouts.payMinute(user.id, minuteOfDay(5), { rate: 3, dailyCap: 100 })));
    expect(outcomes.filter((o) => o.paid === 3)).toHaveLength(1);
    expect(outcomes.filter((o) => o.paid === 0 && o.alreadyPaid)).toHaveLength(9);
    expect(await totals(user)).toEqual({ entries: 1, ledgerSum: 3, coins: 3, minutesAfk: 1, afkDay: 3 });
  });

  it('never passes the daily cap when thirty different minutes are paid at once', async () => {
    const user = await userWithRole(panel, 1);
    const outcomes = await Promise.all(Array.from({ length: 30 }, (_, i) => payouts.payMinute(user.id, minuteOfDay(100 + i), { rate: 2, dailyCap: 7 })));
    const paid = outcomes.reduce((sum, o) => sum + o.paid, 0);
    expect(paid).toBe(7);
    const after = await totals(user);
    expect(after).toMatchObject({ ledgerSum: 7, coins: 7, afkDay: 7, minutesAfk: after.entries });
    // three full payments and one of the remaining coin
    expect(
      outcomes
        .map((o) => o.paid)
        .filter((p) => p > 0)
        .sort(),
    ).toEqual([1, 2, 2, 2]);
    // the next day starts from zero
    expect(dayOf(minuteOfDay(24 * 60) * MINUTE_MS)).toBe(day + 1);
    expect((await payouts.payMinute(user.id, minuteOfDay(24 * 60), { rate: 2, dailyCap: 7 })).paid).toBe(2);
  });
});
