// AFK across instances: two panels on one database (and one Redis when REDIS_URL is set) pay a user
// from one socket only — the one holding the shared lease — and a lease left behind by an instance
// that died keeps the user's new sockets waiting only until it expires.
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../shared/protocol';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { AfkTestSocket } from './afk-test-client';
import {
  MemoryRateLimitStore,
  secondInstance,
  startPanel,
  TEST_REDIS_URL,
  testDialects,
  testStores,
  userWithRole,
  type SignedInUser,
  type TestPanel,
} from '../../../tests/api/harness';

const cases = testDialects().flatMap((dialect) => testStores().map((store) => [dialect, store] as const));

const listen = async (app: FastifyInstance) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

describe.each(cases)('AFK on two instances (%s, leases: %s)', (dialect, store) => {
  let panel: TestPanel;
  let second: FastifyInstance;
  let clock: ManualClock;
  let one: string;
  let two: string;
  const open: AfkTestSocket[] = [];

  beforeAll(async () => {
    clock = new ManualClock(Date.UTC(2031, 5, 1, 8, 0, 0));
    // REDIS_URL moves the leases to Redis (under the panel's own prefix); rate-limit counts stay
    // in-process, so the many sign-ups here are never throttled
    panel = await startPanel(dialect, { jobs: false, clock, rateLimitStore: new MemoryRateLimitStore(), env: store === 'redis' ? { REDIS_URL: TEST_REDIS_URL() } : {} });
    // the second instance: same configuration, so the same database (and Redis)
    second = await secondInstance(panel, { jobs: false, clock, rateLimitStore: new MemoryRateLimitStore() });
    one = await listen(panel.app);
    two = await listen(second);
  });
  afterAll(async () => {
    await second?.close();
    await panel?.close();
  });
  beforeEach(async () => {
    for (const socket of open.splice(0)) await socket.close();
    clock.advanceTo((Math.floor(clock.now() / MINUTE_MS) + 1) * MINUTE_MS + 10_000);
  });

  const connect = async (base: string, user: SignedInUser) => {
    const socket = await AfkTestSocket.connect(base, user.cookie);
    open.push(socket);
    return socket;
  };
  const minuteNow = () => Math.floor(clock.now() / MINUTE_MS);
  const walk = async (sockets: AfkTestSocket[], to: number) => {
    while (clock.now() < to) {
      clock.advance(Math.min(15_000, to - clock.now()));
      for (const socket of sockets) if (socket.socket.readyState === socket.socket.OPEN) await socket.beat(true);
    }
  };
  /** Waits (real time) until no socket holds the user's lease: the other instance handled a close. */
  const leaseReleased = async (user: SignedInUser) => {
    const name = `earn-afk:user:${user.uuid}`;
    const redis = store === 'redis' ? new Redis(TEST_REDIS_URL()) : null;
    try {
      const held = async () =>
        redis
          ? (await redis.exists(`${panel.services.config.redisPrefix}lease:${name}`)) === 1
          : (await panel.services.database.db.withTables<{ leases: { name: string } }>().selectFrom('leases').select('name').where('name', '=', name).executeTakeFirst()) !==
            undefined;
      const deadline = Date.now() + 5_000;
      while (await held()) {
        if (Date.now() > deadline) throw new Error('the closed socket’s instance never released the lease');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await redis?.quit();
    }
  };
  const paidMinutes = async (user: SignedInUser) =>
    (await panel.services.database.db.selectFrom('wallet_ledger').select('idempotency_key').where('user_id', '=', user.id).where('kind', '=', 'afk.minute').execute())
      .map((row) => Number(row.idempotency_key.split(':')[2]))
      .sort((a, b) => a - b);

  it('pays one socket of a user across instances; a takeover on one instance stops the holder on the other', async () => {
    expect(panel.services.leases.backend).toBe(store === 'redis' ? 'redis' : 'database');
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const here = await connect(one, user);
    const there = await connect(two, user);
    expect(await here.beat()).toMatchObject({ status: 'earning' });
    expect(await there.beat()).toMatchObject({ status: 'standby' });
    await walk([here, there], (m0 + 3) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2]);

    expect(await there.takeover()).toMatchObject({ status: 'earning' });
    // the holder on the other instance finds out at its next renewal, before it could pay again
    await walk([here, there], (m0 + 5) * MINUTE_MS + 1_000);
    expect(here.last).toMatchObject({ status: 'standby', session: { minutes: 2, coins: 2 } });
    expect(there.last).toMatchObject({ status: 'earning', session: { minutes: 1, coins: 1 } });
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2, m0 + 4]);

    // the holder goes away: the standby socket on the other instance takes over at its next tick
    await there.close();
    // the close reaches the other instance in real time; the standby socket looks at its next beat
    await leaseReleased(user);
    clock.advance(15_000);
    await here.beat();
    await here.waitFor(() => here.last.status === 'earning', 'the standby socket to take the lease');
    await walk([here], (m0 + 8) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2, m0 + 4, m0 + 6, m0 + 7]);
  });

  it('gives the lease to exactly one of many sockets of one user racing on both instances', async () => {
    const user = await userWithRole(panel, 1);
    const m0 = minuteNow();
    const sockets = await Promise.all([one, two, one, two, one, two].map((base) => connect(base, user)));
    const answers = await Promise.all(sockets.map((socket) => socket.beat()));
    expect(answers.filter((a) => a.status === 'earning')).toHaveLength(1);
    expect(answers.filter((a) => a.status === 'standby')).toHaveLength(5);
    await walk(sockets, (m0 + 3) * MINUTE_MS + 1_000);
    expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2]);
    expect(sockets.reduce((sum, socket) => sum + socket.last.session.coins, 0)).toBe(2);
  });

  it('keeps new sockets on standby while a dead instance’s lease lasts, and pays once it expired', async () => {
    const user = await userWithRole(panel, 1);
    const name = `earn-afk:user:${user.uuid}`;
    let redis: Redis | null = null;
    if (store === 'redis') {
      // Redis expires leases on its own clock: a short real ttl stands for the dead instance's lease
      redis = new Redis(TEST_REDIS_URL());
      await redis.set(`${panel.services.config.redisPrefix}lease:${name}`, 'dead-instance', 'PX', 400);
    } else {
      await panel.services.database.db
        .withTables<{ leases: { name: string; holder: string; expires_at: number } }>()
        .insertInto('leases')
        .values({ name, holder: 'dead-instance', expires_at: clock.now() + 45_000 })
        .execute();
    }
    try {
      const m0 = minuteNow();
      const socket = await connect(two, user);
      expect(await socket.beat()).toMatchObject({ status: 'standby' });
      if (redis) await new Promise((resolve) => setTimeout(resolve, 500));
      await walk([socket], (m0 + 3) * MINUTE_MS + 1_000);
      expect(socket.states.map((s) => s.status)).toContain('earning');
      // the lease came free during minute m0 (the database one at +55 s, the Redis one after 400 ms
      // of real time): the socket took it with its next heartbeat and observed m0+1 from its start
      expect(await paidMinutes(user)).toEqual([m0 + 1, m0 + 2]);
    } finally {
      await redis?.quit();
    }
  });
});
