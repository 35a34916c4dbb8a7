// The gift-coins plugin on every dialect: POST /api/user/gift moves amount + fee from the sender
// (fee on top, rounded up, out of circulation) and amount to the recipient in one wallet transfer;
// min/max/fee settings; never to yourself, an unknown or a banned account; one movement per form
// submission (idempotency key, scoped to the sender); allow_coins_sharing off → FEATURE_DISABLED;
// every refusal changes nothing; 200 concurrent gifts among 20 users through HTTP conserve coins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giftFee } from '../shared/gift-rules';
import { checkLedgerConsistency, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const GIFT = '/api/user/gift';

describe('giftFee', () => {
  it('takes the percentage rounded up to whole coins, without floating-point drift', () => {
    expect(giftFee(50, 10)).toBe(5);
    expect(giftFee(30, 10)).toBe(3); // 30 * 0.1 is 3.0000000000000004 in floating point
    expect(giftFee(1, 10)).toBe(1);
    expect(giftFee(11, 10)).toBe(2);
    expect(giftFee(100, 10)).toBe(10);
    expect(giftFee(40, 2.5)).toBe(1);
    expect(giftFee(41, 2.5)).toBe(2);
    expect(giftFee(70, 0)).toBe(0);
    expect(giftFee(7, 100)).toBe(7);
    expect(giftFee(0, 10)).toBe(0);
  });
});

describe.each(testDialects())('gift coins on %s', (dialect) => {
  let panel: TestPanel;
  let serial = 0;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  const key = () => `k${dialect}${process.pid}x${++serial}x${Math.random().toString(36).slice(2, 10)}`.padEnd(16, '0');
  const coins = async (user: SignedInUser) => Number((await db().selectFrom('users').select('coins').where('id', '=', user.id).executeTakeFirstOrThrow()).coins);
  const ledgerOf = (user: SignedInUser) => db().selectFrom('wallet_ledger').selectAll().where('user_id', '=', user.id).orderBy('id').execute();
  const fund = (user: SignedInUser, amount: number) => panel.services.wallet.credit({ userId: user.id, amount, kind: 'test.seed', idempotencyKey: `seed:${user.id}:${++serial}` });
  const gift = (from: SignedInUser, payload: Record<string, unknown>) => panel.app.inject({ method: 'POST', url: GIFT, payload, headers: { cookie: from.cookie } });
  const options = (from: SignedInUser, uuid: string) => panel.app.inject({ url: `${GIFT}/recipient/${uuid}`, headers: { cookie: from.cookie } });

  async function pair(senderCoins = 100): Promise<[SignedInUser, SignedInUser]> {
    const [from, to] = [await userWithRole(panel, 1), await userWithRole(panel, 1)];
    if (senderCoins > 0) await fund(from, senderCoins);
    return [from, to];
  }

  it('moves the gift and the fee (paid by the sender on top) in one transfer, with an audit entry on each side', async () => {
    const [from, to] = await pair(100);
    const res = await gift(from, { recipient: to.uuid, amount: 50, idempotency_key: key() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, replayed: false, recipient: { uuid: to.uuid, username: to.username, avatar: null }, amount: 50, fee: 5, total: 55, balance: 45 });
    expect([await coins(from), await coins(to)]).toEqual([45, 50]);
    const sent = await ledgerOf(from);
    expect(sent.slice(1).map((e) => [e.kind, Number(e.delta), Number(e.balance_after)])).toEqual([
      ['gift.sent', -50, 50],
      ['gift.fee', -5, 45],
    ]);
    expect((await ledgerOf(to)).map((e) => [e.kind, Number(e.delta), e.reference])).toEqual([['gift.received', 50, `${from.username} → ${to.username}`]]);

    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'target_user_id', 'ip', 'details'])
      .where('action', 'like', 'gift.%')
      .where('target_user_id', 'in', [from.id, to.id])
      .orderBy('id')
      .execute();
    expect(audit.map((a) => [a.action, a.actor_user_id, a.target_user_id])).toEqual([
      ['gift.sent', from.id, from.id],
      ['gift.received', null, to.id],
    ]);
    expect(JSON.parse(audit[0].details)).toEqual({ to_uuid: to.uuid, to_username: to.username, amount: 50, fee: 5 });
    expect(JSON.parse(audit[1].details)).toEqual({ from_uuid: from.uuid, from_username: from.username, amount: 50 });
    // the sender's address is not shown to the recipient
    expect(audit[1].ip).toBeNull();
    const theirs = await panel.app.inject({ url: '/api/user/session/activities', headers: { cookie: to.cookie } });
    expect(theirs.json().data.map((a: { action: string }) => a.action)).toContain('gift.received');
    expect(theirs.json().data.map((a: { action: string }) => a.action)).not.toContain('gift.sent');
    expect((await checkLedgerConsistency(db())).mismatches).toEqual([]);
  });

  it('tells the page who the gift goes to, the rules and the balance; refuses unknown, self and banned recipients', async () => {
    const [from, to] = await pair(30);
    const res = await options(from, to.uuid.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ recipient: { uuid: to.uuid, username: to.username, avatar: null }, rules: { min: 1, max: 100, fee_percent: 10 }, balance: 30 });
    expect((await options(from, '00000000-0000-4000-8000-00000000dead')).json().error).toMatchObject({ code: 'USER_NOT_FOUND', field: 'recipient' });
    expect((await options(from, from.uuid)).json().error).toMatchObject({ code: 'SELF_TRANSFER', field: 'recipient' });
    expect((await options(from, 'not-a-uuid')).statusCode).toBe(400);
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', to.id).execute();
    const banned = await options(from, to.uuid);
    expect(banned.statusCode).toBe(409);
    expect(banned.json().error.code).toBe('RECIPIENT_BANNED');
  });

  it('answers every bad gift with a 4xx and moves nothing', async () => {
    const [from, to] = await pair(100);
    const bannedUser = await userWithRole(panel, 1);
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', bannedUser.id).execute();
    const cases: [Record<string, unknown>, number, string, string?][] = [
      [{ recipient: from.uuid, amount: 10, idempotency_key: key() }, 400, 'SELF_TRANSFER', 'recipient'],
      [{ recipient: '00000000-0000-4000-8000-00000000beef', amount: 10, idempotency_key: key() }, 404, 'USER_NOT_FOUND', 'recipient'],
      [{ recipient: bannedUser.uuid, amount: 10, idempotency_key: key() }, 409, 'RECIPIENT_BANNED', 'recipient'],
      [{ recipient: to.uuid, amount: 0, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: to.uuid, amount: -5, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: to.uuid, amount: 1.5, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: to.uuid, amount: 'lots', idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: to.uuid, amount: 101, idempotency_key: key() }, 400, 'AMOUNT_TOO_LARGE', 'amount'],
      [{ recipient: to.uuid, amount: 95, idempotency_key: key() }, 409, 'INSUFFICIENT_COINS'], // 95 + fee 10 > 100
      [{ recipient: to.uuid, amount: 10 }, 400, 'VALIDATION_ERROR', 'idempotency_key'],
      [{ recipient: to.uuid, amount: 10, idempotency_key: 'short' }, 400, 'VALIDATION_ERROR', 'idempotency_key'],
      [{ recipient: to.uuid, amount: 10, idempotency_key: 'has spaces in it, see' }, 400, 'VALIDATION_ERROR', 'idempotency_key'],
      [{ recipient: 'bob', amount: 10, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'recipient'],
      [{ amount: 10, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'recipient'],
      // issue 9: a JSON body is taken as sent — "5" and [5] are not 5, and an unknown field is refused
      [{ recipient: to.uuid, amount: '5', idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: to.uuid, amount: [5], idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'amount'],
      [{ recipient: [to.uuid], amount: 5, idempotency_key: key() }, 400, 'VALIDATION_ERROR', 'recipient'],
      [{ recipient: to.uuid, amount: 5, idempotency_key: key(), fee: 0 }, 400, 'VALIDATION_ERROR', 'fee'],
    ];
    for (const [payload, status, code, field] of cases) {
      const res = await gift(from, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error, JSON.stringify(payload)).toMatchObject(field ? { code, field } : { code });
    }
    const anonymous = await panel.app.inject({ method: 'POST', url: GIFT, payload: { recipient: to.uuid, amount: 10, idempotency_key: key() } });
    expect(anonymous.statusCode).toBe(401);
    expect([await coins(from), await coins(to), await coins(bannedUser)]).toEqual([100, 0, 0]);
    expect(await ledgerOf(from)).toHaveLength(1);
    expect(await ledgerOf(to)).toEqual([]);
    const audits = await db().selectFrom('audit_log').select('id').where('action', 'like', 'gift.%').where('target_user_id', 'in', [from.id, to.id, bannedUser.id]).execute();
    expect(audits).toEqual([]);
  });

  it('follows the min, max and fee settings', async () => {
    const [from, to] = await pair(1000);
    await panel.services.settings.set('gift_min_amount', 5);
    await panel.services.settings.set('gift_max_amount', 300);
    await panel.services.settings.set('gift_fee_percent', 2.5);
    try {
      expect((await options(from, to.uuid)).json().rules).toEqual({ min: 5, max: 300, fee_percent: 2.5 });
      const small = await gift(from, { recipient: to.uuid, amount: 4, idempotency_key: key() });
      expect(small.json().error).toMatchObject({ code: 'AMOUNT_TOO_SMALL', field: 'amount' });
      expect((await gift(from, { recipient: to.uuid, amount: 301, idempotency_key: key() })).json().error.code).toBe('AMOUNT_TOO_LARGE');
      const big = await gift(from, { recipient: to.uuid, amount: 200, idempotency_key: key() });
      expect(big.json()).toMatchObject({ amount: 200, fee: 5, total: 205, balance: 795 });
      await panel.services.settings.set('gift_fee_percent', 0);
      const free = await gift(from, { recipient: to.uuid, amount: 5, idempotency_key: key() });
      expect(free.json()).toMatchObject({ amount: 5, fee: 0, total: 5, balance: 790 });
      // no fee: no fee entry
      expect((await ledgerOf(from)).filter((e) => e.kind === 'gift.fee')).toHaveLength(1);
    } finally {
      await panel.services.settings.set('gift_min_amount', 1);
      await panel.services.settings.set('gift_max_amount', 100);
      await panel.services.settings.set('gift_fee_percent', 10);
    }
    expect([await coins(from), await coins(to)]).toEqual([790, 205]);
  });

  it('moves coins once per form submission; its key reused for another gift is refused; keys are per sender', async () => {
    const [from, to] = await pair(100);
    const submission = key();
    const body = { recipient: to.uuid, amount: 20, idempotency_key: submission };
    const answers = await Promise.all(Array.from({ length: 8 }, () => gift(from, body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(answers.filter((a) => a.json().replayed === false)).toHaveLength(1);
    for (const a of answers) expect(a.json()).toMatchObject({ amount: 20, fee: 2, total: 22, balance: 78 });
    expect([await coins(from), await coins(to)]).toEqual([78, 20]);
    expect(await db().selectFrom('audit_log').select('id').where('action', '=', 'gift.sent').where('target_user_id', '=', from.id).execute()).toHaveLength(1);

    const conflict = await gift(from, { ...body, amount: 21 });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
    // another sender may happen to use the same key: it is theirs, not the first sender's
    const [other] = await pair(50);
    const theirs = await gift(other, body);
    expect(theirs.json()).toMatchObject({ replayed: false, balance: 28 });
    expect([await coins(from), await coins(to), await coins(other)]).toEqual([78, 40, 28]);
  });

  it('answers FEATURE_DISABLED while allow_coins_sharing is off, moving nothing', async () => {
    const [from, to] = await pair(100);
    await panel.services.settings.set('allow_coins_sharing', false);
    try {
      for (const res of [await gift(from, { recipient: to.uuid, amount: 10, idempotency_key: key() }), await options(from, to.uuid)]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FEATURE_DISABLED');
      }
    } finally {
      await panel.services.settings.set('allow_coins_sharing', true);
    }
    expect([await coins(from), await coins(to)]).toEqual([100, 0]);
  });

  it('200 concurrent gifts among 20 users through the API: coins conserved (fees accounted), none negative, ledger = balances', async () => {
    const users: SignedInUser[] = [];
    for (let i = 0; i < 20; i += 5) users.push(...(await Promise.all(Array.from({ length: 5 }, () => userWithRole(panel, 1)))));
    for (const user of users) await fund(user, 100);
    let seed = 11;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const gifts = Array.from({ length: 200 }, () => {
      const from = users[Math.floor(random() * users.length)];
      let to = users[Math.floor(random() * users.length)];
      if (to === from) to = users[(users.indexOf(from) + 1) % users.length];
      return { from, to, amount: 1 + Math.floor(random() * 40) };
    });
    const answers = await Promise.all(gifts.map((g) => gift(g.from, { recipient: g.to.uuid, amount: g.amount, idempotency_key: key() })));
    const refused = answers.filter((a) => a.statusCode !== 200);
    // running out of coins is the only acceptable refusal
    expect(
      refused.every((a) => a.statusCode === 409 && a.json().error.code === 'INSUFFICIENT_COINS'),
      refused.map((a) => a.body).join('\n'),
    ).toBe(true);
    const done = answers.filter((a) => a.statusCode === 200).map((a) => a.json() as { amount: number; fee: number });
    expect(done.length).toBeGreaterThan(100);
    const fees = done.reduce((sum, g) => sum + g.fee, 0);
    expect(done.every((g) => g.fee === giftFee(g.amount, 10))).toBe(true);

    const balances = await Promise.all(users.map(coins));
    expect(balances.every((b) => b >= 0)).toBe(true);
    expect(balances.reduce((a, b) => a + b, 0) + fees).toBe(20 * 100);
    const feeEntries = await db()
      .selectFrom('wallet_ledger')
      .select('delta')
      .where('kind', '=', 'gift.fee')
      .where(
        'user_id',
        'in',
        users.map((u) => u.id),
      )
      .execute();
    expect(feeEntries.reduce((sum, e) => sum - Number(e.delta), 0)).toBe(fees);
    expect((await checkLedgerConsistency(db())).mismatches).toEqual([]);
    for (const user of users) {
      const rows = await ledgerOf(user);
      expect(rows.reduce((sum, r) => sum + Number(r.delta), 0)).toBe(await coins(user));
      expect(rows.every((r) => Number(r.balance_after) >= 0)).toBe(true);
    }
  }, 180_000);
});
