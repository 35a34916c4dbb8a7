// /api/admin/users/:uuid/coins and /transactions: administrators adjust coins with a reason through
// the wallet (ledger entry, audit entry, idempotent per form submission) and read a user's ledger;
// bad input and refused adjustments change nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLedgerConsistency } from '../../server/wallet/consistency';
import { roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

describe.each(testDialects())('admin coins API on %s', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  let editor: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    root = await userWithRole(panel, 8);
    editor = await userWithRole(panel, await roleWith(panel, ['admin.users.list', 'admin.users.edit']));
  });
  afterAll(async () => {
    await panel?.close();
  });

  const adjust = (who: SignedInUser, target: SignedInUser, payload: Record<string, unknown>) =>
    panel.app.inject({ method: 'POST', url: `/api/admin/users/${target.uuid}/coins`, payload, headers: { cookie: who.cookie } });
  const coins = async (user: SignedInUser) =>
    Number((await panel.services.database.db.selectFrom('users').select('coins').where('id', '=', user.id).executeTakeFirstOrThrow()).coins);

  it('credits and debits with a reason, one ledger entry and one audit entry each', async () => {
    const target = await userWithRole(panel, 1);
    const credit = await adjust(editor, target, { amount: 250, reason: 'Contest prize' });
    expect(credit.statusCode).toBe(200);
    expect(credit.json()).toMatchObject({ balance: 250, replayed: false, entry: { delta: 250, balance_after: 250, kind: 'admin.adjust', reason: 'Contest prize' } });
    const debit = await adjust(editor, target, { amount: -50, reason: 'Chargeback' });
    expect(debit.json()).toMatchObject({ balance: 200, entry: { delta: -50, balance_after: 200 } });

    const ledger = await panel.app.inject({ url: `/api/admin/users/${target.uuid}/transactions?page=1&per_page=1`, headers: { cookie: editor.cookie } });
    expect(ledger.statusCode).toBe(200);
    expect(ledger.json()).toMatchObject({ data: [{ delta: -50, reason: 'Chargeback' }], meta: { total: 2, total_pages: 2 } });
    expect(ledger.json().data[0]).not.toHaveProperty('idempotency_key');

    const audits = await panel.services.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id', 'details'])
      .where('target_user_id', '=', target.id)
      .where('action', '=', 'admin.user.coins')
      .execute();
    expect(audits).toHaveLength(2);
    expect(audits[0].actor_user_id).toBe(editor.id);
    expect(JSON.parse(audits[0].details)).toMatchObject({ amount: 250, reason: 'Contest prize' });
    expect((await checkLedgerConsistency(panel.services.database.db)).mismatches).toEqual([]);
  });

  it('the same submission twice adjusts once', async () => {
    const target = await userWithRole(panel, 1);
    const body = { amount: 40, reason: 'Refund', idempotency_key: 'form-submit-0001' };
    const [a, b] = await Promise.all([adjust(root, target, body), adjust(root, target, body)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.json().replayed, b.json().replayed].sort()).toEqual([false, true]);
    expect(await coins(target)).toBe(40);
  });

  it('bad input and a debit past the balance answer 4xx and change nothing', async () => {
    const target = await userWithRole(panel, 1);
    await adjust(root, target, { amount: 10, reason: 'Start' });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ amount: 0, reason: 'Nothing' }, 400, 'INVALID_AMOUNT'],
      [{ amount: 1.5, reason: 'Half' }, 400, 'VALIDATION_ERROR'],
      [{ amount: 5 }, 400, 'VALIDATION_ERROR'],
      [{ amount: 5, reason: '  ' }, 400, 'VALIDATION_ERROR'],
      [{ amount: 5, reason: 'x'.repeat(256) }, 400, 'VALIDATION_ERROR'],
      [{ amount: 2_000_000_000, reason: 'Too much' }, 400, 'VALIDATION_ERROR'],
      [{ amount: 5, reason: 'Key', idempotency_key: 'bad key!' }, 400, 'VALIDATION_ERROR'],
      [{ amount: -11, reason: 'Overdraw' }, 409, 'INSUFFICIENT_COINS'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await adjust(root, target, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code, JSON.stringify(payload)).toBe(code);
    }
    const ghost = await panel.app.inject({
      method: 'POST',
      url: '/api/admin/users/00000000-0000-4000-8000-000000000000/coins',
      payload: { amount: 1, reason: 'Ghost' },
      headers: { cookie: root.cookie },
    });
    expect(ghost.statusCode).toBe(404);
    expect(await coins(target)).toBe(10);
  });

  it('an editor cannot adjust the coins of an account holding permissions they lack', async () => {
    const admin = await userWithRole(panel, 8);
    const res = await adjust(editor, admin, { amount: 100, reason: 'Sneaky' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('PERMISSION_ESCALATION');
    expect(await coins(admin)).toBe(0);
  });

  it("a user reads their own ledger (paged, newest first), nobody else's; without a session 401", async () => {
    const owner = await userWithRole(panel, 1);
    await adjust(root, owner, { amount: 30, reason: 'Welcome' });
    await adjust(root, owner, { amount: -10, reason: 'Correction' });
    const own = await panel.app.inject({ url: '/api/user/wallet/transactions?page=1&per_page=1', headers: { cookie: owner.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('no-store');
    expect(own.json()).toMatchObject({ data: [{ delta: -10, balance_after: 20, reason: 'Correction' }], meta: { total: 2, total_pages: 2 } });
    const other = await userWithRole(panel, 1);
    expect((await panel.app.inject({ url: '/api/user/wallet/transactions', headers: { cookie: other.cookie } })).json().meta.total).toBe(0);
    expect((await panel.app.inject({ url: '/api/user/wallet/transactions' })).statusCode).toBe(401);
    expect((await panel.app.inject({ url: '/api/user/wallet/transactions?per_page=1000', headers: { cookie: owner.cookie } })).statusCode).toBe(400);
  });
});
