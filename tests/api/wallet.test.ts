// The wallet ledger on every dialect: integer coins moved only through atomic conditional updates
// with an append-only ledger, idempotent by key, and a consistency check that catches coins moved
// behind its back. The concurrency cases are the "must show".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { LEDGER_JOB } from '../../server/app';
import { checkLedgerConsistency } from '../../server/wallet/consistency';
import { asCoreTransaction } from '../../server/db/plugin-view';
import { startPanel, testDialects, userWithRole, type TestPanel } from './harness';

describe.each(testDialects())('wallet ledger on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const wallet = () => panel.services.wallet;
  const db = () => panel.services.database.db;
  let serial = 0;
  const key = (label: string) => `${label}:${dialect}:${process.pid}:${++serial}:${Math.random().toString(36).slice(2)}`;
  const newUser = async () => (await userWithRole(panel, 1)).id;
  const coins = async (userId: number) => Number((await db().selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirstOrThrow()).coins);
  const ledgerOf = (userId: number) => db().selectFrom('wallet_ledger').selectAll().where('user_id', '=', userId).orderBy('id').execute();
  const expectError = async (promise: Promise<unknown>, status: number, code: string) => {
    await expect(promise).rejects.toMatchObject({ statusCode: status, code });
  };

  it('credits and debits with a ledger entry each, balance_after running', async () => {
    const user = await newUser();
    const first = await wallet().credit({ userId: user, amount: 100, kind: 'test.credit', idempotencyKey: key('c'), reference: 'r-1' });
    expect(first).toMatchObject({ replayed: false, entry: { userId: user, delta: 100, balanceAfter: 100, kind: 'test.credit', reference: 'r-1' } });
    const second = await wallet().debit({ userId: user, amount: 30, kind: 'test.debit', idempotencyKey: key('d') });
    expect(second.entry).toMatchObject({ delta: -30, balanceAfter: 70 });
    expect(await coins(user)).toBe(70);
    expect(await wallet().balance(user)).toBe(70);
    const rows = await ledgerOf(user);
    expect(rows.map((r) => [Number(r.delta), Number(r.balance_after)])).toEqual([
      [100, 100],
      [-30, 70],
    ]);
    const page = await wallet().entries(user, { perPage: 1 });
    expect(page.total).toBe(2);
    expect(page.data.map((e) => e.delta)).toEqual([-30]);
  });

  it('refuses a debit past the balance, and bad amounts, changing nothing', async () => {
    const user = await newUser();
    await wallet().credit({ userId: user, amount: 10, kind: 'test.credit', idempotencyKey: key('c') });
    await expectError(wallet().debit({ userId: user, amount: 11, kind: 'test.debit', idempotencyKey: key('d') }), 409, 'INSUFFICIENT_COINS');
    for (const amount of [0, -5, 1.5, Number.NaN, 2_000_000_000]) {
      await expectError(wallet().credit({ userId: user, amount, kind: 'test.credit', idempotencyKey: key('bad') }), 400, 'INVALID_AMOUNT');
    }
    await expectError(wallet().credit({ userId: 987654321, amount: 1, kind: 'test.credit', idempotencyKey: key('ghost') }), 404, 'USER_NOT_FOUND');
    expect(await coins(user)).toBe(10);
    expect(await ledgerOf(user)).toHaveLength(1);
  });

  it('the same idempotency key moves coins once; reused for another movement it is refused', async () => {
    const user = await newUser();
    const k = key('once');
    const a = await wallet().credit({ userId: user, amount: 25, kind: 'test.credit', idempotencyKey: k });
    const b = await wallet().credit({ userId: user, amount: 25, kind: 'test.credit', idempotencyKey: k });
    expect(b).toEqual({ entry: a.entry, replayed: true });
    expect(await coins(user)).toBe(25);
    await expectError(wallet().credit({ userId: user, amount: 26, kind: 'test.credit', idempotencyKey: k }), 409, 'IDEMPOTENCY_CONFLICT');
    // concurrent duplicates: still one movement
    const k2 = key('race');
    const results = await Promise.all(Array.from({ length: 10 }, () => wallet().debit({ userId: user, amount: 5, kind: 'test.debit', idempotencyKey: k2 })));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(await coins(user)).toBe(20);
    expect(await ledgerOf(user)).toHaveLength(2);
  });

  it('an effect that throws undoes the movement; one that succeeds commits with it', async () => {
    const user = await newUser();
    await wallet().credit({ userId: user, amount: 50, kind: 'test.credit', idempotencyKey: key('c') });
    await expect(
      wallet().debit({
        userId: user,
        amount: 20,
        kind: 'store.purchase',
        idempotencyKey: key('fail'),
        effect: async (trx) => {
          await asCoreTransaction(trx).updateTable('users').set({ ram: sql<number>`ram + 1024` }).where('id', '=', user).execute();
          throw new Error('out of stock');
        },
      }),
    ).rejects.toThrow('out of stock');
    const before = await db().selectFrom('users').select(['coins', 'ram']).where('id', '=', user).executeTakeFirstOrThrow();
    expect(Number(before.coins)).toBe(50);
    await wallet().debit({
      userId: user,
      amount: 20,
      kind: 'store.purchase',
      idempotencyKey: key('ok'),
      effect: async (trx) => {
        await asCoreTransaction(trx).updateTable('users').set({ ram: sql<number>`ram + 1024` }).where('id', '=', user).execute();
      },
    });
    const after = await db().selectFrom('users').select(['coins', 'ram']).where('id', '=', user).executeTakeFirstOrThrow();
    expect(Number(after.coins)).toBe(30);
    expect(Number(after.ram)).toBe(Number(before.ram) + 1024);
  });

  it('transfers with the fee paid by the sender on top, never to oneself', async () => {
    const [from, to] = [await newUser(), await newUser()];
    await wallet().credit({ userId: from, amount: 100, kind: 'test.credit', idempotencyKey: key('c') });
    const result = await wallet().transfer({ fromUserId: from, toUserId: to, amount: 50, fee: 5, kind: 'gift', idempotencyKey: key('gift') });
    expect(result.sent).toMatchObject({ userId: from, delta: -50, balanceAfter: 50, kind: 'gift.sent' });
    expect(result.fee).toMatchObject({ userId: from, delta: -5, balanceAfter: 45, kind: 'gift.fee' });
    expect(result.received).toMatchObject({ userId: to, delta: 50, balanceAfter: 50, kind: 'gift.received' });
    expect([await coins(from), await coins(to)]).toEqual([45, 50]);
    // 45 left: 45 + fee 5 is 50 > 45
    await expectError(wallet().transfer({ fromUserId: from, toUserId: to, amount: 45, fee: 5, kind: 'gift', idempotencyKey: key('gift') }), 409, 'INSUFFICIENT_COINS');
    await expectError(wallet().transfer({ fromUserId: from, toUserId: from, amount: 1, fee: 0, kind: 'gift', idempotencyKey: key('self') }), 400, 'SELF_TRANSFER');
    expect([await coins(from), await coins(to)]).toEqual([45, 50]);
  });

  it('200 concurrent gifts among 20 users: coins conserved (fees accounted), none negative, ledger = balances', async () => {
    const users: number[] = [];
    for (let i = 0; i < 20; i++) users.push(await newUser());
    for (const user of users) await wallet().credit({ userId: user, amount: 100, kind: 'test.credit', idempotencyKey: key('seed') });
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const gifts = Array.from({ length: 200 }, () => {
      const from = users[Math.floor(random() * users.length)];
      let to = users[Math.floor(random() * users.length)];
      if (to === from) to = users[(users.indexOf(from) + 1) % users.length];
      const amount = 1 + Math.floor(random() * 40);
      return { from, to, amount, fee: Math.ceil(amount / 10) };
    });
    const outcomes = await Promise.allSettled(
      gifts.map((g) => wallet().transfer({ fromUserId: g.from, toUserId: g.to, amount: g.amount, fee: g.fee, kind: 'gift', idempotencyKey: key('g') })),
    );
    const failures = outcomes.filter((o) => o.status === 'rejected').map((o) => (o as PromiseRejectedResult).reason as { code?: string });
    // the only acceptable failure is running out of coins
    expect(failures.every((f) => f.code === 'INSUFFICIENT_COINS')).toBe(true);
    const feesPaid = gifts.filter((_, i) => outcomes[i].status === 'fulfilled').reduce((sum, g) => sum + g.fee, 0);
    const balances = await Promise.all(users.map(coins));
    expect(balances.every((b) => b >= 0)).toBe(true);
    expect(balances.reduce((a, b) => a + b, 0) + feesPaid).toBe(20 * 100);
    const report = await checkLedgerConsistency(db());
    expect(report.mismatches).toEqual([]);
    for (const user of users) {
      const rows = await ledgerOf(user);
      expect(rows.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(await coins(user));
      expect(rows.every((r) => Number(r.balance_after) >= 0)).toBe(true);
    }
  }, 120_000);

  it('50 concurrent debits racing for 10 coins: exactly 10 succeed', async () => {
    const user = await newUser();
    await wallet().credit({ userId: user, amount: 10, kind: 'test.credit', idempotencyKey: key('c') });
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => wallet().debit({ userId: user, amount: 1, kind: 'test.debit', idempotencyKey: key('d') })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(10);
    expect(await coins(user)).toBe(0);
  }, 60_000);

  it('the consistency job passes on a clean ledger and fails, naming the account, when coins moved outside it', async () => {
    const user = await newUser();
    await wallet().credit({ userId: user, amount: 5, kind: 'test.credit', idempotencyKey: key('c') });
    await panel.services.scheduler.runNow(LEDGER_JOB);
    const ok = panel.services.scheduler.statuses().find((s) => s.name === LEDGER_JOB);
    expect(ok).toMatchObject({ lastOk: true });
    expect(ok?.lastMessage).toMatch(/balances match \d+ ledger entries/);

    await db().updateTable('users').set({ coins: 500 }).where('id', '=', user).execute();
    await panel.services.scheduler.runNow(LEDGER_JOB);
    const bad = panel.services.scheduler.statuses().find((s) => s.name === LEDGER_JOB);
    expect(bad?.lastOk).toBe(false);
    expect(bad?.lastMessage).toContain(`user ${user}: balance 500, ledger 5`);
    // repair for the other tests of this file
    await db().updateTable('users').set({ coins: 5 }).where('id', '=', user).execute();
  });

  it('counters: concurrent increments all count, inside a wallet effect they commit with the coins, top ranks by value', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const counters = panel.services.counters;
    const name = `test.c${serial++}`;
    await Promise.all(Array.from({ length: 40 }, () => counters.add(a, name, 1)));
    await counters.add(b, name, 50);
    expect(await counters.get(a, name)).toBe(40);
    await expect(
      wallet().credit({
        userId: a,
        amount: 1,
        kind: 'test.credit',
        idempotencyKey: key('cnt'),
        effect: async (trx) => {
          await counters.add(a, name, 100, trx);
          throw new Error('undo');
        },
      }),
    ).rejects.toThrow('undo');
    expect(await counters.get(a, name)).toBe(40);
    expect(await counters.top(name, 10)).toEqual([
      { userId: b, value: 50 },
      { userId: a, value: 40 },
    ]);
    await expect(counters.add(a, 'Bad Name', 1)).rejects.toThrow(/not a valid counter name/);
  });
});
