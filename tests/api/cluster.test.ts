// Two instances of one panel on one database (and one Redis, when set), as behind a load balancer:
// a change made through one reaches the other within 1 s through Redis and within 5 s through the
// database's cache versions alone (issue 17 — before, a revoked permission lived on for 30 s).
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SigningKey } from '../../plugins/auth/server/sso-signing-key';
import type { AuthDb } from '../../plugins/auth/server/tables';
import { buildApp, servicesOf } from '../../server/app';
import { secretKeyCheckValue, SecretKeyMismatchError, storedSecretCheck } from '../../server/cluster/secret-check';
import { SecretBox } from '../../server/settings/secret-box';
import { REPO_PLUGINS, roleWith, secondInstance, startPanel, TEST_REDIS_URL, testDialects, testStores, userWithRole, type SignedInUser, type TestPanel } from './harness';

/** Asks `probe` every 25 ms until it answers true; the time it took, or fails after `limitMs`. */
async function timeUntil(probe: () => Promise<boolean>, limitMs: number): Promise<number> {
  const started = Date.now();
  while (Date.now() - started <= limitMs) {
    if (await probe()) return Date.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`not seen within ${limitMs} ms`);
}

for (const dialect of testDialects()) {
  for (const store of testStores()) {
    // the promise of issue 17: ≤ 1 s with Redis, ≤ 5 s without
    const limitMs = store === 'redis' ? 1_000 : 5_000;
    describe(`two instances (${dialect}, ${store === 'redis' ? 'Redis' : 'no Redis'})`, () => {
      let a: TestPanel;
      let b: FastifyInstance;
      let root: SignedInUser;

      beforeAll(async () => {
        a = await startPanel(dialect, { env: store === 'redis' ? { REDIS_URL: TEST_REDIS_URL() } : {} });
        b = await secondInstance(a);
        root = await userWithRole(a, 8);
      });
      afterAll(async () => {
        await b?.close();
        await a?.close();
      });

      const usersListOn = (app: FastifyInstance, who: SignedInUser) => app.inject({ method: 'GET', url: '/api/admin/users', headers: { cookie: who.cookie } });

      it(`a permission granted and then removed through A is honoured, then refused, by B within ${limitMs / 1000} s`, async ({ annotate }) => {
        const roleId = await roleWith(a, []);
        const staff = await userWithRole(a, roleId);
        expect((await usersListOn(b, staff)).statusCode).toBe(403);

        const grant = await a.app.inject({
          method: 'PUT',
          url: `/api/admin/roles/${roleId}/permissions`,
          headers: { cookie: root.cookie },
          payload: { permissions: ['admin.users.list'] },
        });
        expect(grant.statusCode).toBe(200);
        const granted = await timeUntil(async () => (await usersListOn(b, staff)).statusCode === 200, limitMs);
        expect(granted).toBeLessThanOrEqual(limitMs);

        const revoke = await a.app.inject({ method: 'PUT', url: `/api/admin/roles/${roleId}/permissions`, headers: { cookie: root.cookie }, payload: { permissions: [] } });
        expect(revoke.statusCode).toBe(200);
        const refused = await timeUntil(async () => (await usersListOn(b, staff)).statusCode === 403, limitMs);
        expect(refused).toBeLessThanOrEqual(limitMs);
        // the figures of issue 17 (before: 30.8 s to grant, 30.4 s to refuse)
        await annotate(`granted on B after ${granted} ms, refused after ${refused} ms`);
        // and it stays refused: B does not fall back to an older copy
        for (let i = 0; i < 5; i++) expect((await usersListOn(b, staff)).statusCode).toBe(403);
      });

      it('a setting changed through A is read by B within the same time', async () => {
        const before = await servicesOf(b).settings.get('app_name');
        const next = `Cluster ${Date.now().toString(36)}`;
        expect(before).not.toBe(next);
        await a.services.settings.set('app_name', next);
        await timeUntil(async () => servicesOf(b).settings.peek('app_name') === next, limitMs);
      });

      it('a plugin disabled through A is off on B, and back on when enabled again', async () => {
        const id = 'leaderboard';
        const onB = servicesOf(b).plugins;
        expect(onB.isActive(id)).toBe(true);
        await a.services.plugins.setEnabled(id, false);
        await timeUntil(async () => !onB.isActive(id), limitMs);
        await a.services.plugins.setEnabled(id, true);
        await timeUntil(async () => onB.isActive(id), limitMs);
      });

      it('a scheduled job runs on one instance per period, not on each', async () => {
        const runs: string[] = [];
        // a period of 1 s (the shortest lease), ticking every 200 ms on both instances
        servicesOf(a.app).scheduler.every('test.cluster-tick', 200, async () => void runs.push('a'));
        servicesOf(b).scheduler.every('test.cluster-tick', 200, async () => void runs.push('b'));
        await new Promise((resolve) => setTimeout(resolve, 2_300));
        // each instance alone would have run it ~11 times; together, once a second
        expect(runs.length).toBeGreaterThanOrEqual(2);
        expect(runs.length).toBeLessThanOrEqual(4);
        const recorded = await a.services.instances.jobRuns();
        expect([a.services.instances.id, servicesOf(b).instances.id]).toContain(recorded.find((r) => r.name === 'test.cluster-tick')?.instanceId);
      });

      // without Redis the instances share no channel: their sockets check the session themselves
      it.runIf(store === 'redis')('a session ended on A closes what B holds for it (the event reaches B)', async () => {
        const heard: number[] = [];
        const stop = servicesOf(b).events.on('core', 'session.ended', ({ sessionId }) => void heard.push(sessionId));
        try {
          await a.services.events.emit('session.ended', { userId: 1, sessionId: 424242 });
          await timeUntil(async () => heard.includes(424242), limitMs);
          // once, not echoed back and forth
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(heard.filter((id) => id === 424242)).toHaveLength(1);
        } finally {
          stop();
        }
      });
    });
  }
}

for (const dialect of testDialects()) {
  describe(`SECRET_KEY across instances (${dialect})`, () => {
    let a: TestPanel;
    beforeAll(async () => {
      a = await startPanel(dialect);
    });
    afterAll(async () => {
      await a?.close();
    });

    it('the database keeps a check value of the key, never the key', async () => {
      const stored = await storedSecretCheck(a.services.database.db as unknown as Kysely<unknown>);
      const key = a.services.config.secretKey;
      expect(stored).toBe(secretKeyCheckValue(key));
      expect(stored).not.toContain(key);
    });

    it('an instance with another SECRET_KEY refuses to start, saying what to do', async () => {
      const config = { ...a.services.config, secretKey: 'another-key-of-at-least-32-characters!!' };
      const started = buildApp({
        config,
        logger: false,
        builtPlugins: false,
        pluginDirs: [REPO_PLUGINS],
        ...(dialect === 'sqlite' ? { database: a.services.database } : {}),
      });
      await expect(started).rejects.toBeInstanceOf(SecretKeyMismatchError);
      await expect(started).rejects.toThrow(/same SECRET_KEY/);
      // and the running instance was not disturbed
      expect((await a.app.inject({ url: '/api/system/plugins' })).statusCode).toBe(200);
    });

    it('the shared sign-on key is never replaced by an instance that cannot open it', async () => {
      const db = a.services.database.db as unknown as AuthDb;
      const mine = new SecretBox(a.services.config.secretKey);
      const theirs = new SecretBox('a-key-another-install-used-32-chars!!');
      await db.deleteFrom('auth_signing_keys').where('purpose', '=', 'cluster-test').execute();
      await db
        .insertInto('auth_signing_keys')
        .values({ purpose: 'cluster-test', sealed_key: theirs.seal(Buffer.alloc(32, 7).toString('base64url')), created_at: new Date().toISOString() })
        .execute();
      const before = await db.selectFrom('auth_signing_keys').select('sealed_key').where('purpose', '=', 'cluster-test').executeTakeFirstOrThrow();
      await expect(new SigningKey(db, mine, 'cluster-test').get()).rejects.toThrow(/another SECRET_KEY/);
      const after = await db.selectFrom('auth_signing_keys').select('sealed_key').where('purpose', '=', 'cluster-test').executeTakeFirstOrThrow();
      expect(after.sealed_key).toBe(before.sealed_key);
      // two instances making it at once agree on one key; a forgotten copy is read again, unchanged
      await db.deleteFrom('auth_signing_keys').where('purpose', '=', 'cluster-test').execute();
      const [one, two] = [new SigningKey(db, mine, 'cluster-test'), new SigningKey(db, mine, 'cluster-test')];
      const [k1, k2] = await Promise.all([one.get(), two.get()]);
      expect(k1.equals(k2)).toBe(true);
      one.forget();
      expect((await one.get()).equals(k1)).toBe(true);
    });
  });
}

describe('REDIS_PREFIX', () => {
  it('puts every key and channel of a panel under its own prefix, so two panels share one Redis without hearing each other', async () => {
    const tag = `op-test-${Date.now().toString(36)}`;
    const [dialect] = testDialects();
    const one = await startPanel(dialect, { env: { REDIS_URL: TEST_REDIS_URL(), REDIS_PREFIX: `${tag}-one:` } });
    const two = await startPanel(dialect, { env: { REDIS_URL: TEST_REDIS_URL(), REDIS_PREFIX: `${tag}-two:` } });
    const redis = new Redis(TEST_REDIS_URL());
    try {
      await one.app.inject({ url: '/api/system/settings' });
      await one.services.leases.acquire('prefix-test', 'me', 10_000, false);
      expect(await redis.keys(`${tag}-one:rl:*`)).not.toHaveLength(0);
      // the lease taken on panel one, and not on two (whose own jobs may hold leases of their own by now)
      expect(await redis.keys(`${tag}-one:lease:prefix-test`)).toHaveLength(1);
      expect(await redis.keys(`${tag}-two:lease:prefix-test`)).toHaveLength(0);
      const channels = (await redis.pubsub('CHANNELS', `${tag}-*`)) as string[];
      expect(channels).toContain(`${tag}-one:broadcast:core:cache.changed`);
      expect(channels).toContain(`${tag}-two:broadcast:core:cache.changed`);
    } finally {
      redis.disconnect();
      await two.close();
      await one.close();
    }
  });
});
