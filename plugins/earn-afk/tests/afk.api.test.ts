// AFK rewards (issue 4, reference-behaviour "do better"): the panel pays a UTC minute only when a
// socket holding the user's paying lease was live — visible, heart-beating at most 20 s apart — from
// before the minute began until it ended; once per (user, minute) whatever happens; within the
// daily cap. Real websocket clients against the listening panel; time moves on a manual clock.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS, DAY_MS } from '../shared/protocol';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { AfkTestSocket, refusal } from './afk-test-client';
import {
  cookieHeader,
  MemoryRateLimitStore,
  PASSWORD,
  startPanel,
  TEST_REDIS_URL,
  testDialects,
  testStores,
  userWithRole,
  type SignedInUser,
  type TestPanel,
} from '../../../tests/api/harness';

const cases = testDialects().flatMap((dialect) => testStores().map((store) => [dialect, store] as const));

describe.each(cases)('AFK rewards (%s, leases: %s)', (dialect, store) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let base: string;
  const open: AfkTestSocket[] = [];

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2031, 0, 15, 10, 0, 0));
    // REDIS_URL moves the leases to Redis (under the panel's own prefix); rate-limit counts stay
    // in-process, so the many sign-ups here are never throttled
    panel = await startPanel(dialect, { jobs: false, clock, rateLimitStore: new MemoryRateLimitStore(), env: store === 'redis' ? { REDIS_URL: TEST_REDIS_URL() } : {} });
    await panel.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(panel.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await panel?.close();
  });
  beforeEach(async () => {
    // every test starts with no socket open, 10 s into a fresh minute
    for (const socket of open.splice(0)) await socket.close();
    clock.advanceTo((Math.floor(clock.now() / MINUTE_MS) + 1) * MINUTE_MS + 10_000);
  });

  const connect = async (user: SignedInUser, headers: Record<string, string> = {}) => {
    const socket = await AfkTestSocket.connect(base, user.cookie, headers);
    open.push(socket);
    return socket;
  };
  const minuteNow = () => Math.floor(clock.now() / MINUTE_MS);

  /** Moves the clock to `to`, every socket sending a visible heartbeat every 15 s on the way (the rule allows 20). */
  const walk = async (sockets: AfkTestSocket[], to: number) => {
    while (clock.now() < to) {
      clock.advance(Math.min(15_000, to - clock.now()));
      for (const socket of sockets) await socket.beat(true);
    }
  };

  const afkEntries = async (userId: number) =>
    (
      await panel.services.database.db
        .selectFrom('wallet_ledger')
        .select(['delta', 'idempotency_key', 'reference'])
        .where('user_id', '=', userId)
        .where('kind', '=', 'afk.minute')
        .orderBy('id')
        .execute()
    ).map((row) => ({ delta: Number(row.delta), key: row.idempotency_key, reference: row.reference }));
  const paidMinutes = async (user: SignedInUser) => (await afkEntries(user.id)).map((e) => Number(e.key.split(':')[2])).sort((a, b) => a - b);
  const account = async (user: SignedInUser) => {
    const row = await panel.services.database.db.selectFrom('users').select(['coins', 'minutes_afk']).where('id', '=', user.id).executeTakeFirstOrThrow();
    return { coins: Number(row.coins), minutesAfk: Number(row.minutes_afk) };
  };

  it('pays a minute observed from start to end once, through the wallet, and counts it in minutes_afk', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const socket = await connect(user);
    expect(socket.last).toMatchObject({ status: 'paused', rate: 1, dailyCap: 600, earnedToday: 0, remainingToday: 600, session: { minutes: 0, coins: 0 } });
    const first = await socket.beat();
    // the minute it connected in was not observed from its start: the first payable one is the next
    expect(first).toMatchObject({ status: 'earning', nextPayoutAt: (m0 + 2) * MINUTE_MS });

    await walk([socket], (m0 + 2) * MINUTE_MS + 1_000);
    expect(await afkEntries(user.id)).toEqual([{ delta: 1, key: `afk:${user.id}:${m0 + 1}`, reference: new Date((m0 + 1) * MINUTE_MS).toISOString().slice(0, 16) + 'Z' }]);
    expect(await account(user)).toEqual({ coins: 1, minutesAfk: 1 });
    expect(socket.last).toMatchObject({ status: 'earning', earnedToday: 1, remainingToday: 599, session: { minutes: 1, coins: 1 }, lastPayout: { coins: 1 } });

    await walk([socket], (m0 + 4) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2, m0 + 3]);
    expect(await account(user)).toEqual({ coins: 3, minutesAfk: 3 });

    const status = await panel.app.inject({ url: '/api/user/earn/afk', headers: { cookie: user.cookie } });
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({
      rate: 1,
      daily_cap: 600,
      earned_today: 3,
      remaining_today: 597,
      minutes_afk: 3,
      heartbeat_interval_ms: 10_000,
      heartbeat_gap_ms: 20_000,
    });
  });

  it('pays nothing for a minute with a heartbeat gap over 20 s, and stops paying when heartbeats stop', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const socket = await connect(user);
    await socket.beat();
    await walk([socket], (m0 + 1) * MINUTE_MS + 5_000);
    // 25 s of silence inside minute m0+1, then heartbeats again
    clock.advance(25_000);
    await socket.beat();
    await walk([socket], (m0 + 3) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 2]);

    // heartbeats stop for good: the first tick more than 20 s after the last one stops the earning
    clock.advance(45_000);
    await socket.waitFor(() => socket.last.status === 'paused', 'the paused state');
    clock.advance(3 * MINUTE_MS);
    await socket.beat(); // answered only after the minutes that ended were settled
    expect(await paidMinutes(user)).toEqual([m0 + 2]);
  });

  it('pauses while the page is hidden: the minute it was hidden in is not paid', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const socket = await connect(user);
    await socket.beat();
    await walk([socket], (m0 + 2) * MINUTE_MS + 30_000);
    expect(await socket.beat(false)).toMatchObject({ status: 'paused', nextPayoutAt: null });
    clock.advance(30_000); // hidden pages send nothing
    expect(await socket.beat(true)).toMatchObject({ status: 'earning', nextPayoutAt: (m0 + 4) * MINUTE_MS });
    await walk([socket], (m0 + 4) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 3]);
  });

  it('pays one socket per user: the second tab waits on standby, may take over, and takes over from a hidden holder', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const first = await connect(user);
    const second = await connect(user);
    expect(await first.beat()).toMatchObject({ status: 'earning' });
    expect(await second.beat()).toMatchObject({ status: 'standby', nextPayoutAt: null });
    await walk([first, second], (m0 + 3) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2]);
    expect(first.last.session).toEqual({ minutes: 2, coins: 2 });
    expect(second.last).toMatchObject({ status: 'standby', session: { minutes: 0, coins: 0 } });

    // "earn here instead": the minute of the takeover is paid to neither of them
    expect(await second.takeover()).toMatchObject({ status: 'earning' });
    await first.waitFor(() => first.last.status === 'standby', 'the holder to hear of the takeover');
    await walk([first, second], (m0 + 5) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2, m0 + 4]);
    expect(second.last.session).toEqual({ minutes: 1, coins: 1 });

    // the holder's page is hidden: the visible tab takes the lease without waiting for a tick
    await second.beat(false);
    await first.waitFor(() => first.last.status === 'earning', 'the standby tab to take over');
    await walk([first], (m0 + 7) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2, m0 + 4, m0 + 6]);
    // two users never share a lease
    const other = await userWithRole(panel, 1);
    expect(await (await connect(other)).beat()).toMatchObject({ status: 'earning' });
  });

  it('never pays a minute twice: on a reconnect, at a minute boundary, or when the minute was already paid', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const before = await connect(user);
    await before.beat();
    await walk([before], (m0 + 2) * MINUTE_MS + 30_000);
    // the connection drops in the middle of minute m0+2 and the page reconnects at once
    await before.close();
    const after = await connect(user);
    expect(await after.beat()).toMatchObject({ status: 'earning' });
    // walk exactly onto a minute boundary, then drop and reconnect before anything else happens:
    // the old socket observed m0+3 to its end, the new one observes m0+4 from its start
    await walk([after], (m0 + 4) * MINUTE_MS);
    await after.close();
    const again = await connect(user);
    expect(await again.beat()).toMatchObject({ status: 'earning', nextPayoutAt: (m0 + 5) * MINUTE_MS });
    // minute m0+5 was paid already (say, by an instance that died before telling anyone)
    await panel.services.wallet.credit({ userId: user.id, amount: 1, kind: 'afk.minute', idempotencyKey: `afk:${user.id}:${m0 + 5}` });
    await walk([again], (m0 + 7) * MINUTE_MS + 1_000);
    const keys = (await afkEntries(user.id)).map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 3, m0 + 4, m0 + 5, m0 + 6]);
    // the minute paid before was not paid again (its effect neither: minutes_afk counts the four paid here)
    expect(await account(user)).toEqual({ coins: 5, minutesAfk: 4 });
  });

  it('stops paying at the daily cap (a last partial payment up to it) and starts again the next UTC day', async () => {
    const { settings } = panel.services;
    await settings.set('afk_coins_per_minute', 2);
    await settings.set('afk_daily_cap', 3);
    try {
      const user = await userWithRole(panel, 1);
      const m0 = minuteNow();
      const socket = await connect(user);
      expect(await socket.beat()).toMatchObject({ status: 'earning', rate: 2, dailyCap: 3 });
      await walk([socket], (m0 + 4) * MINUTE_MS + 1_000);
      expect((await afkEntries(user.id)).map((e) => e.delta)).toEqual([2, 1]);
      expect(socket.last).toMatchObject({ status: 'capped', earnedToday: 3, remainingToday: 0, nextPayoutAt: null });
      expect(await account(user)).toEqual({ coins: 3, minutesAfk: 2 });
      await socket.close();
      open.splice(open.indexOf(socket), 1);

      clock.advanceTo((Math.floor(clock.now() / DAY_MS) + 1) * DAY_MS + 10_000);
      const tomorrow = await connect(user);
      expect(await tomorrow.beat()).toMatchObject({ status: 'earning', earnedToday: 0, remainingToday: 3 });
      await walk([tomorrow], (minuteNow() + 2) * MINUTE_MS + 1_000);
      expect((await afkEntries(user.id)).map((e) => e.delta)).toEqual([2, 1, 2]);
    } finally {
      await settings.set('afk_coins_per_minute', 1);
      await settings.set('afk_daily_cap', 600);
    }
  });

  it('refuses a socket without a session, from another site, or while afk_enabled is off', async () => {
    const user = await userWithRole(panel, 1);
    const anonymous = await refusal(AfkTestSocket.connect(base, null));
    expect(anonymous.status).toBe(401);
    expect(JSON.parse(anonymous.body).error.code).toBe('INVALID_SESSION');
    const crossSite = await refusal(AfkTestSocket.connect(base, user.cookie, { origin: 'https://evil.example' }));
    expect(crossSite.status).toBe(403);
    expect(JSON.parse(crossSite.body).error.code).toBe('CROSS_SITE_REQUEST');
    // the page's own origin is welcome
    expect((await connect(user, { origin: base })).last.status).toBe('paused');

    await panel.services.settings.set('afk_enabled', false);
    try {
      const off = await refusal(AfkTestSocket.connect(base, user.cookie));
      expect(off.status).toBe(403);
      expect(JSON.parse(off.body).error.code).toBe('FEATURE_DISABLED');
      expect((await panel.app.inject({ url: '/api/user/earn/afk', headers: { cookie: user.cookie } })).json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('afk_enabled', true);
    }
    expect((await panel.app.inject({ url: '/api/user/earn/afk' })).statusCode).toBe(401);
  });

  it('closes an open socket when the flag goes off, the session ends, or the client breaks the protocol', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const socket = await connect(user);
    await socket.beat();
    await panel.services.settings.set('afk_enabled', false);
    try {
      await walk([socket], (m0 + 1) * MINUTE_MS).catch(() => undefined);
      expect((await socket.closed).code).toBe(4403);
    } finally {
      await panel.services.settings.set('afk_enabled', true);
    }

    // logging out ends the session: its AFK socket closes and is paid nothing more
    const login = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: user.username, password: PASSWORD } });
    const cookie = cookieHeader(login);
    const signedIn = await AfkTestSocket.connect(base, cookie);
    open.push(signedIn);
    await signedIn.beat();
    await panel.app.inject({ method: 'POST', url: '/api/user/auth/logout', headers: { cookie } });
    expect((await signedIn.closed).code).toBe(4401);

    const rude = await connect(user);
    rude.socket.send(JSON.stringify({ type: 'heartbeat', visible: 'yes' }));
    expect((await rude.closed).code).toBe(4400);
    expect(await paidMinutes(user)).toEqual([]);
  });
});
