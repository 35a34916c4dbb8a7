// The store on every dialect: resource packs bought with coins through one wallet debit whose effect
// raises the resource with a conditional update. The "must show": one idempotency key is
// charged once; concurrent purchases never pass max_<item> nor overdraw; bad input changes nothing;
// a switched-off store answers FEATURE_DISABLED.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

type Resource = 'ram' | 'disk' | 'cpu' | 'ports' | 'databases' | 'backups' | 'server_slots';

describe.each(testDialects())('store on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    await panel.services.settings.set('store_enabled', true);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  const settings = () => panel.services.settings;
  const newKey = () => randomBytes(12).toString('base64url');

  /** A signed-in user holding `coins`. */
  const buyer = async (coins: number): Promise<SignedInUser> => {
    const user = await userWithRole(panel, 1);
    if (coins > 0) await panel.services.wallet.credit({ userId: user.id, amount: coins, kind: 'test.credit', idempotencyKey: `seed:${user.id}` });
    return user;
  };
  const account = async (userId: number) => {
    const row = await db()
      .selectFrom('users')
      .select(['coins', 'ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'])
      .where('id', '=', userId)
      .executeTakeFirstOrThrow();
    return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as Record<'coins' | Resource, number>;
  };
  const ledger = (userId: number) => db().selectFrom('wallet_ledger').select(['delta', 'kind']).where('user_id', '=', userId).where('kind', 'like', 'store.%').execute();
  const purchase = (user: SignedInUser, payload: Record<string, unknown>) =>
    panel.app.inject({ method: 'POST', url: '/api/user/store/purchase', headers: { cookie: user.cookie }, payload });
  const items = (user: SignedInUser) => panel.app.inject({ method: 'GET', url: '/api/user/store/items', headers: { cookie: user.cookie } });

  it('lists the packs with price, quantity, what the account owns and its max; blocked packs are left out', async () => {
    await settings().set('block_disk', true);
    await settings().set('store_price_cpu', 250);
    try {
      const user = await buyer(700);
      const res = await items(user);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.balance).toBe(700);
      expect(body.items.map((i: { id: string }) => i.id)).toEqual(['ram', 'cpu', 'ports', 'databases', 'backups', 'server_slots']);
      // reference defaults: 100 coins a pack, ram +1024 MiB, cpu +100 %, ports +2; sign-up resources owned
      expect(body.items[0]).toEqual({ id: 'ram', price: 100, quantity: 1024, owned: 1024, max: 8192 });
      expect(body.items[1]).toEqual({ id: 'cpu', price: 250, quantity: 100, owned: 100, max: 400 });
      expect(body.items[2]).toMatchObject({ id: 'ports', quantity: 2, owned: 2 });
      expect(body.items.find((i: { id: string }) => i.id === 'backups')).toMatchObject({ quantity: 1, owned: 5 });
    } finally {
      await settings().set('block_disk', false);
      await settings().set('store_price_cpu', 100);
    }
  });

  it('a purchase debits the price through the ledger and adds one pack to the resource', async () => {
    const user = await buyer(500);
    const res = await purchase(user, { item: 'ram', idempotency_key: newKey() });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, replayed: false, item: 'ram', balance: 400, owned: 2048 });
    expect(await account(user.id)).toMatchObject({ coins: 400, ram: 2048, disk: 1024 });
    expect((await ledger(user.id)).map((e) => [Number(e.delta), e.kind])).toEqual([[-100, 'store.ram']]);
  });

  it('the same purchase submitted twice with one idempotency key is charged once', async () => {
    const user = await buyer(1000);
    const key = newKey();
    const first = await purchase(user, { item: 'disk', idempotency_key: key });
    const second = await purchase(user, { item: 'disk', idempotency_key: key });
    expect(first.json()).toMatchObject({ replayed: false, balance: 900, owned: 2048 });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toMatchObject({ replayed: true, balance: 900, owned: 2048 });
    // submitted again and again at the same moment: still one charge
    const raceKey = newKey();
    const race = await Promise.all(Array.from({ length: 8 }, () => purchase(user, { item: 'disk', idempotency_key: raceKey })));
    expect(race.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    expect(race.filter((r) => r.json().replayed === false)).toHaveLength(1);
    expect(await account(user.id)).toMatchObject({ coins: 800, disk: 3072 });
    expect(await ledger(user.id)).toHaveLength(2);
    // the key belongs to that purchase: reused for another item it is refused, nothing moves
    const conflict = await purchase(user, { item: 'cpu', idempotency_key: key });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().error.code).toBe('IDEMPOTENCY_CONFLICT');
    expect(await account(user.id)).toMatchObject({ coins: 800, disk: 3072, cpu: 100 });
    // keys are per account: another user's purchase with the same key is their own
    const other = await buyer(100);
    expect((await purchase(other, { item: 'disk', idempotency_key: key })).json()).toMatchObject({ replayed: false, balance: 0 });
  });

  it('concurrent purchases never pass max_<item>: the rest are refused and cost nothing', async () => {
    const user = await buyer(10_000);
    // 2 ports at sign-up, 2 per pack: room for exactly three packs
    await settings().set('max_ports', 8);
    try {
      const results = await Promise.all(Array.from({ length: 12 }, () => purchase(user, { item: 'ports', idempotency_key: newKey() })));
      const ok = results.filter((r) => r.statusCode === 200);
      const refused = results.filter((r) => r.statusCode !== 200);
      expect(ok).toHaveLength(3);
      for (const r of refused) expect([r.statusCode, r.json().error.code]).toEqual([409, 'STORE_MAX_REACHED']);
      expect(await account(user.id)).toMatchObject({ ports: 8, coins: 10_000 - 300 });
      expect(await ledger(user.id)).toHaveLength(3);
    } finally {
      await settings().set('max_ports', 10);
    }
  });

  it('concurrent purchases never overdraw: with coins for two packs, two of ten go through', async () => {
    const user = await buyer(250);
    const mix: Resource[] = ['ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots', 'ram', 'disk', 'ports'];
    const before = await account(user.id);
    const results = await Promise.all(mix.map((item) => purchase(user, { item, idempotency_key: newKey() })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(2);
    for (const r of results.filter((x) => x.statusCode !== 200)) expect([r.statusCode, r.json().error.code]).toEqual([409, 'INSUFFICIENT_COINS']);
    const after = await account(user.id);
    expect(after.coins).toBe(50);
    // exactly the two bought packs were added, nothing for the refused ones
    const added = (Object.keys(before) as (keyof typeof before)[]).filter((k) => k !== 'coins' && after[k] !== before[k]);
    const bought = ok.map((r) => r.json().item as Resource);
    expect(added.sort()).toEqual([...new Set(bought)].sort());
  });

  it('bad input is a 4xx that changes nothing', async () => {
    const user = await buyer(150);
    await settings().set('block_backups', true);
    await settings().set('max_server_slots', 1);
    try {
      const before = await account(user.id);
      const cases: [Record<string, unknown>, number, string][] = [
        [{}, 400, 'VALIDATION_ERROR'],
        [{ item: 'gold', idempotency_key: newKey() }, 400, 'VALIDATION_ERROR'],
        [{ item: 'ram' }, 400, 'VALIDATION_ERROR'],
        [{ item: 'ram', idempotency_key: 'short' }, 400, 'VALIDATION_ERROR'],
        [{ item: 'ram', idempotency_key: 'spaces are not allowed' }, 400, 'VALIDATION_ERROR'],
        [{ item: 'ram', idempotency_key: 'x'.repeat(65) }, 400, 'VALIDATION_ERROR'],
        // a blocked pack is not for sale; one past max_<item>; one dearer than the balance
        [{ item: 'backups', idempotency_key: newKey() }, 409, 'ITEM_UNAVAILABLE'],
        [{ item: 'server_slots', idempotency_key: newKey() }, 409, 'STORE_MAX_REACHED'],
      ];
      for (const [payload, status, code] of cases) {
        const res = await purchase(user, payload);
        expect([res.statusCode, res.json().error.code], JSON.stringify(payload)).toEqual([status, code]);
      }
      await settings().set('store_price_cpu', 151);
      const dear = await purchase(user, { item: 'cpu', idempotency_key: newKey() });
      expect([dear.statusCode, dear.json().error.code]).toEqual([409, 'INSUFFICIENT_COINS']);
      const notJson = await panel.app.inject({
        method: 'POST',
        url: '/api/user/store/purchase',
        headers: { cookie: user.cookie, 'content-type': 'application/json' },
        payload: '{"item":',
      });
      expect(notJson.statusCode).toBe(400);
      expect(await account(user.id)).toEqual(before);
      expect(await ledger(user.id)).toHaveLength(0);
    } finally {
      await settings().set('block_backups', false);
      await settings().set('max_server_slots', 5);
      await settings().set('store_price_cpu', 100);
    }
  });

  it('needs a signed-in user', async () => {
    expect((await panel.app.inject({ method: 'GET', url: '/api/user/store/items' })).statusCode).toBe(401);
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/store/purchase', payload: { item: 'ram', idempotency_key: newKey() } });
    expect(res.statusCode).toBe(401);
  });

  it('answers FEATURE_DISABLED while store_enabled is off, and sells nothing', async () => {
    const user = await buyer(500);
    await settings().set('store_enabled', false);
    try {
      for (const res of [await items(user), await purchase(user, { item: 'ram', idempotency_key: newKey() })]) {
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('FEATURE_DISABLED');
      }
      expect(await account(user.id)).toMatchObject({ coins: 500, ram: 1024 });
    } finally {
      await settings().set('store_enabled', true);
    }
  });
});
