// Renewals on a ManualClock, one pass a day: one reminder at 7 days left, suspension on the day of
// expiry (not a day early), deletion exactly when the grace period has passed — panel first, a mail
// each; renewing costs server_renew_cost once per idempotency key, extends from max(now, expiry),
// and lifts an expiry suspension on the panel (or, if the panel fails then, on the next pass).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects, type SignedInUser } from '../../../tests/api/harness';
import { builtServer, call, customer, DAY, runRenewals, startServersWorld, type ServersWorld } from '../../../tests/api/servers-world';

describe.each(testDialects())('renewals (%s)', (dialect) => {
  let world: ServersWorld;
  beforeAll(async () => {
    world = await startServersWorld(dialect);
    const settings = world.panel.services.settings;
    await settings.set('server_renew_enabled', true);
    await settings.set('server_renew_cost', 100);
    await settings.set('server_renew_days', 30);
    await settings.set('server_reminder_days', 7);
    await settings.set('server_delete_grace_days', 7);
    // mail on: the mails land in the queue (the mail job is not run here)
    await settings.set('smtp_host', 'smtp.invalid');
    await settings.set('app_url', 'https://panel.example');
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  const db = () => world.panel.services.database.db;
  const mailsTo = async (user: SignedInUser) =>
    await db()
      .selectFrom('mail_queue')
      .select(['template', 'subject', 'text'])
      .where('to_address', '=', user.email)
      .where('template', 'in', ['server_renewal_reminder', 'server_suspended', 'server_deleted'])
      .orderBy('id')
      .execute();
  const serverRow = async (id: number) =>
    (await db()
      .selectFrom('servers' as never)
      .selectAll()
      .where('id' as never, '=', id as never)
      .executeTakeFirst()) as unknown as { status: string; expires_at: string; panel_id: number } | undefined;
  const panelServer = (panelId: number) => world.ptero.servers().find((s) => s.id === panelId);
  const give = (user: SignedInUser, coins: number) =>
    world.panel.services.wallet.credit({ userId: user.id, amount: coins, kind: 'admin.adjust', idempotencyKey: `test-gift-${user.id}-${coins}-${Math.random()}`, reason: 'test' });
  const renew = (user: SignedInUser, id: number, key: string) => call(world, user, 'POST', `/api/user/server/${id}/renew`, { idempotency_key: key });
  const iso = (ms: number) => new Date(ms).toISOString();

  it('reminds once at 7 days left, suspends on the day of expiry, deletes when the grace period is over', async () => {
    const start = world.clock.now();
    const user = await customer(world);
    const id = await builtServer(world, user);
    const created = await serverRow(id);
    expect(created!.expires_at).toBe(iso(start + 30 * DAY));
    const panelId = created!.panel_id;

    const seen: Record<number, string> = {};
    for (let day = 1; day <= 38; day++) {
      world.clock.advanceTo(start + day * DAY);
      await runRenewals(world);
      const row = await serverRow(id);
      seen[day] = `${row?.status ?? 'deleted'}:${(await mailsTo(user)).map((m) => m.template).join(',')}`;
    }
    expect(seen[22]).toBe('active:');
    expect(seen[23]).toBe('active:server_renewal_reminder');
    expect(seen[29]).toBe('active:server_renewal_reminder');
    expect(seen[30]).toBe('suspended:server_renewal_reminder,server_suspended');
    expect(seen[36]).toBe('suspended:server_renewal_reminder,server_suspended');
    expect(seen[37]).toBe('deleted:server_renewal_reminder,server_suspended,server_deleted');
    expect(seen[38]).toBe(seen[37]);
    const mails = await mailsTo(user);
    expect(mails[0].subject).toBe('Your server My server expires in 7 days');
    expect(mails[0].text).toContain(`https://panel.example/server/${id}/renew`);
    expect(panelServer(panelId)).toBeUndefined();
    const counter = await db().selectFrom('user_counters').select('value').where('user_id', '=', user.id).where('name', '=', 'servers').executeTakeFirst();
    expect(Number(counter?.value)).toBe(0);
  });

  it('suspends on the panel at expiry', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    const row = await serverRow(id);
    world.clock.advanceTo(Date.parse(row!.expires_at) - 1);
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('active');
    expect(panelServer(row!.panel_id)!.suspended).toBe(false);
    world.clock.advance(1);
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('suspended');
    expect(panelServer(row!.panel_id)!.suspended).toBe(true);
  });

  it('charges a renewal once per key, extends from the expiry, and refuses what it cannot pay', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    const expires = Date.parse((await serverRow(id))!.expires_at);
    let res = await renew(user, id, 'renew-key-0001');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('INSUFFICIENT_COINS');
    expect((await serverRow(id))!.expires_at).toBe(iso(expires));

    await give(user, 150);
    res = await renew(user, id, 'renew-key-0001');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'active', expires_at: iso(expires + 30 * DAY), renewal: { enabled: true, cost: 100, days: 30 } });
    // the same request again (a retry): no second charge, no second extension
    res = await renew(user, id, 'renew-key-0001');
    expect(res.statusCode).toBe(200);
    expect(res.json().expires_at).toBe(iso(expires + 30 * DAY));
    expect(await world.panel.services.wallet.balance(user.id)).toBe(50);
    // two different renewals at once: one is paid, the other finds 50 coins
    const both = await Promise.all([renew(user, id, 'renew-key-0002'), renew(user, id, 'renew-key-0003')]);
    expect(both.every((r) => r.statusCode === 409)).toBe(true);
    expect(await world.panel.services.wallet.balance(user.id)).toBe(50);
    expect((await serverRow(id))!.expires_at).toBe(iso(expires + 30 * DAY));
  });

  it('refuses bad input, other people’s servers, and renewing while renewals are off', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    await give(user, 1000);
    for (const payload of [{}, { idempotency_key: 'short' }, { idempotency_key: 'has spaces in it' }, { idempotency_key: 'x'.repeat(65) }]) {
      const res = await call(world, user, 'POST', `/api/user/server/${id}/renew`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
    expect((await renew(await customer(world), id, 'someone-else-key')).statusCode).toBe(404);
    expect((await call(world, user, 'POST', '/api/user/server/0/renew', { idempotency_key: 'renew-key-zero' })).statusCode).toBe(400);
    await world.panel.services.settings.set('server_renew_enabled', false);
    try {
      const res = await renew(user, id, 'renew-key-off1');
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await world.panel.services.settings.set('server_renew_enabled', true);
    }
    expect(await world.panel.services.wallet.balance(user.id)).toBe(1000);
  });

  it('unsuspends an expired server when it is renewed: from now, on the panel', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    const row = await serverRow(id);
    world.clock.advanceTo(Date.parse(row!.expires_at) + 2 * DAY);
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('suspended');
    await give(user, 100);
    const res = await renew(user, id, 'renew-after-expiry');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'active', suspended_at: null, expires_at: iso(world.clock.now() + 30 * DAY) });
    expect(panelServer(row!.panel_id)!.suspended).toBe(false);
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('active');
  });

  it('keeps a paid renewal when the panel fails to unsuspend, charging once; the next pass unsuspends', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    const row = await serverRow(id);
    world.clock.advanceTo(Date.parse(row!.expires_at));
    await runRenewals(world);
    expect(panelServer(row!.panel_id)!.suspended).toBe(true);
    await give(user, 100);
    world.ptero.fault({ method: 'POST', path: `/servers/${row!.panel_id}/unsuspend`, kind: 'timeout', times: Infinity });
    let res = await renew(user, id, 'renew-while-down');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().status).toBe('suspended');
    res = await renew(user, id, 'renew-while-down');
    expect(res.statusCode).toBe(200);
    expect(await world.panel.services.wallet.balance(user.id)).toBe(0);
    const ledger = await db().selectFrom('wallet_ledger').select('delta').where('user_id', '=', user.id).where('kind', '=', 'servers.renew').execute();
    expect(ledger.map((l) => Number(l.delta))).toEqual([-100]);
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('suspended');
    world.ptero.clearFaults();
    await runRenewals(world);
    expect((await serverRow(id))!.status).toBe('active');
    expect(panelServer(row!.panel_id)!.suspended).toBe(false);
    expect((await serverRow(id))!.expires_at).toBe(iso(world.clock.now() + 30 * DAY));
  });

  it('reminds again in the next period after a renewal, and never twice in one', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    const expires = Date.parse((await serverRow(id))!.expires_at);
    world.clock.advanceTo(expires - 5 * DAY);
    await runRenewals(world);
    await runRenewals(world);
    expect((await mailsTo(user)).map((m) => m.template)).toEqual(['server_renewal_reminder']);
    await give(user, 100);
    expect((await renew(user, id, 'renew-next-period')).statusCode).toBe(200);
    world.clock.advanceTo(expires + 30 * DAY - 7 * DAY);
    await runRenewals(world);
    expect((await mailsTo(user)).map((m) => m.template)).toEqual(['server_renewal_reminder', 'server_renewal_reminder']);
  });

  it('leaves servers alone while renewals are off', async () => {
    const user = await customer(world);
    const id = await builtServer(world, user);
    await world.panel.services.settings.set('server_renew_enabled', false);
    try {
      world.clock.advanceTo(Date.parse((await serverRow(id))!.expires_at) + 40 * DAY);
      await runRenewals(world);
      expect((await serverRow(id))!.status).toBe('active');
    } finally {
      await world.panel.services.settings.set('server_renew_enabled', true);
    }
  });
});
