// Rate limits: the in-process and Redis stores, the brute-force defence on login (per IP and per
// account: N bad logins → 429 with Retry-After; the owner logs in once the window has passed),
// the registration limit, the app-wide per-IP limit, and a client IP taken from X-Forwarded-For
// only behind a trusted proxy.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashDevice } from '../../server/security/alt-detection';
import { KnownDevices, MAX_KNOWN_DEVICES, type KnownDevicesTable } from '../../server/security/known-devices';
import { RATE_LIMITED_MESSAGE } from '../../server/security/rate-limit-policies';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimitStore } from '../../server/security/rate-limiter';
import { PASSWORD, TEST_REDIS_URL, newAccount, register, setCookies, startPanel, testDialects, testStores, type TestPanel } from './harness';

class Clock {
  now = 1_700_000_000_000;
  read = () => this.now;
}

describe('MemoryRateLimitStore', () => {
  it('counts hits per key in fixed windows', async () => {
    const clock = new Clock();
    const store = new MemoryRateLimitStore(clock.read);
    expect(await store.hit('a', 1000)).toEqual({ count: 1, resetInMs: 1000 });
    clock.now += 400;
    expect(await store.hit('a', 1000)).toEqual({ count: 2, resetInMs: 600 });
    expect(await store.hit('b', 1000)).toEqual({ count: 1, resetInMs: 1000 });
    clock.now += 600;
    expect(await store.hit('a', 1000)).toEqual({ count: 1, resetInMs: 1000 });
  });

  it('stays bounded under a flood of distinct keys', async () => {
    const clock = new Clock();
    const store = new MemoryRateLimitStore(clock.read, 1000);
    for (let i = 0; i < 5000; i++) await store.hit(`k${i}`, 60_000);
    expect(store.size).toBeLessThanOrEqual(1000);
    // the newest keys are kept
    expect((await store.hit('k4999', 60_000)).count).toBe(2);
  });
});

describe('RateLimiter', () => {
  it('allows up to the limit, then refuses with whole seconds to wait', async () => {
    const clock = new Clock();
    const limiter = new RateLimiter(new MemoryRateLimitStore(clock.read), () => undefined);
    for (let i = 0; i < 3; i++) expect((await limiter.consume('x', 3, 10_000)).allowed).toBe(true);
    clock.now += 2500;
    expect(await limiter.consume('x', 3, 10_000)).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 8 });
  });

  it('lets requests through and reports when the store fails', async () => {
    const errors: unknown[] = [];
    const broken: RateLimitStore = {
      kind: 'redis',
      hit: () => Promise.reject(new Error('connection lost')),
      ping: () => Promise.reject(new Error('connection lost')),
      close: async () => undefined,
    };
    const limiter = new RateLimiter(broken, (e) => errors.push(e));
    expect((await limiter.consume('x', 1, 1000)).allowed).toBe(true);
    expect(errors).toHaveLength(1);
  });
});

describe.each(testStores().filter((s) => s === 'redis'))('RedisRateLimitStore (%s)', () => {
  let store: RedisRateLimitStore;
  const prefix = `orepanel-test:${randomBytes(4).toString('hex')}:`;
  beforeAll(async () => {
    // OREPANEL_TEST_STORES lists redis: an unreachable server fails here, loudly
    store = await RedisRateLimitStore.connect(TEST_REDIS_URL(), prefix);
  });
  afterAll(async () => {
    await store?.close();
  });

  it('counts atomically across concurrent hits and expires the window', async () => {
    const counts = await Promise.all(Array.from({ length: 25 }, () => store.hit('burst', 800)));
    expect(counts.map((c) => c.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    for (const c of counts) expect(c.resetInMs).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 900));
    expect((await store.hit('burst', 800)).count).toBe(1);
  });

  it('refuses a URL where nothing listens, with a clear message', async () => {
    await expect(RedisRateLimitStore.connect('redis://127.0.0.1:1')).rejects.toThrow(/Redis at redis:\/\/127\.0\.0\.1:1 is not reachable/);
  });
});

describe.each(testDialects())('rate limits through the API on %s', (dialect) => {
  let panel: TestPanel;
  const clock = new Clock();

  beforeAll(async () => {
    panel = await startPanel(dialect, { rateLimits: 'defaults', rateLimitStore: new MemoryRateLimitStore(clock.read) });
    // the app-wide limit has its own test below; it would interfere with the counts here
    await panel.services.settings.set('rate_limit_enabled', false);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const login = (login: string, password: string, remoteAddress = '203.0.113.7') =>
    panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login, password }, remoteAddress });

  it('stops a brute force on one account with 429 and Retry-After; the owner logs in after the window', async () => {
    const { body } = await register(panel.app);
    // reference defaults: 10 attempts per account in 15 minutes
    for (let i = 0; i < 10; i++) expect((await login(body.username, `wrong-${i}`, `198.51.100.${i + 1}`)).statusCode).toBe(401);
    const blocked = await login(body.username, 'wrong-again', '198.51.100.200');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('900');
    expect(blocked.json()).toEqual({ error: { code: 'RATE_LIMITED', message: RATE_LIMITED_MESSAGE, retry_after: 900 } });
    // the right password does not get through either while the window lasts (and sets no cookie)
    const owner = await login(body.email.toUpperCase(), PASSWORD, '198.51.100.201');
    expect(owner.statusCode).toBe(429);
    expect(owner.headers['set-cookie']).toBeUndefined();
    clock.now += 10 * 60_000;
    expect((await login(body.username, PASSWORD, '198.51.100.202')).headers['retry-after']).toBe('300');
    clock.now += 5 * 60_000;
    const after = await login(body.username, PASSWORD, '198.51.100.203');
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ success: true });
  });

  it('limits one IP spraying many accounts, and a forged X-Forwarded-For does not help', async () => {
    clock.now += 60 * 60_000;
    const ip = '192.0.2.50';
    for (let i = 0; i < 20; i++) {
      const res = await panel.app.inject({
        method: 'POST',
        url: '/api/user/auth/login',
        payload: { login: `nobody${i}@example.com`, password: 'x' },
        remoteAddress: ip,
        headers: { 'x-forwarded-for': `10.1.1.${i}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/login',
      payload: { login: 'someone@example.com', password: 'x' },
      remoteAddress: ip,
      headers: { 'x-forwarded-for': '10.9.9.9' },
    });
    expect(res.statusCode).toBe(429);
    // another address is not affected
    expect((await login('someone@example.com', 'x', '192.0.2.51')).statusCode).toBe(401);
  });

  it('does not count a request refused as bad input', async () => {
    clock.now += 60 * 60_000;
    for (let i = 0; i < 30; i++) {
      const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: '' }, remoteAddress: '192.0.2.60' });
      expect(res.statusCode).toBe(400);
    }
    expect((await login('someone@example.com', 'x', '192.0.2.60')).statusCode).toBe(401);
  });

  it('limits registrations per IP and creates nothing once refused', async () => {
    clock.now += 60 * 60_000;
    const ip = '192.0.2.70';
    const signUp = () => panel.app.inject({ method: 'POST', url: '/api/user/auth/register', payload: newAccount(), remoteAddress: ip });
    for (let i = 0; i < 10; i++) expect((await signUp()).statusCode).toBe(201);
    const before = await panel.services.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const refused = await signUp();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('RATE_LIMITED');
    const after = await panel.services.database.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('applies the app-wide per-IP limit from the settings, but not to the session poll', async () => {
    clock.now += 60 * 60_000;
    await panel.services.settings.set('rate_limit_per_minute', 5);
    await panel.services.settings.set('rate_limit_enabled', true);
    try {
      const ip = '192.0.2.80';
      for (let i = 0; i < 5; i++) expect((await panel.app.inject({ url: '/api/system/settings', remoteAddress: ip })).statusCode).toBe(200);
      const refused = await panel.app.inject({ url: '/api/legal/privacy-policy', remoteAddress: ip });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      for (let i = 0; i < 10; i++) expect((await panel.app.inject({ url: '/api/user/session', remoteAddress: ip })).statusCode).toBe(401);
      expect((await panel.app.inject({ url: '/api/system/settings', remoteAddress: '192.0.2.81' })).statusCode).toBe(200);
      clock.now += 60_000;
      expect((await panel.app.inject({ url: '/api/system/settings', remoteAddress: ip })).statusCode).toBe(200);
    } finally {
      await panel.services.settings.set('rate_limit_enabled', false);
      await panel.services.settings.set('rate_limit_per_minute', 100);
    }
  });

  it('counts behind a trusted proxy by the forwarded client address', async () => {
    const proxied = await startPanel(dialect, { rateLimits: 'defaults', env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      await proxied.services.settings.set('rate_limit_per_minute', 2);
      const get = (client: string) => proxied.app.inject({ url: '/api/system/settings', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': client } });
      expect((await get('198.51.100.1')).statusCode).toBe(200);
      expect((await get('198.51.100.1')).statusCode).toBe(200);
      expect((await get('198.51.100.1')).statusCode).toBe(429);
      expect((await get('198.51.100.2')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe.each(testStores().filter((s) => s === 'redis'))('login brute force with the %s store (REDIS_URL)', () => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel('sqlite', { rateLimits: 'defaults', env: { REDIS_URL: TEST_REDIS_URL() } });
    await panel.services.settings.set('rate_limit_enabled', false);
    await panel.services.settings.set('rate_limit_auth_window_seconds', 1);
    await panel.services.settings.set('rate_limit_login_per_account', 3);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('shares the counts through Redis and lets the owner in after the window', async () => {
    expect(panel.services.rateLimiter.store.kind).toBe('redis');
    const { body } = await register(panel.app);
    const login = (password: string) =>
      panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: body.username, password }, remoteAddress: '198.51.100.99' });
    for (let i = 0; i < 3; i++) expect((await login('wrong')).statusCode).toBe(401);
    const blocked = await login(PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBe('1');
    await new Promise((r) => setTimeout(r, 1100));
    expect((await login(PASSWORD)).statusCode).toBe(200);
  });

  it('refuses to start when REDIS_URL names a server that is not there', async () => {
    await expect(startPanel('sqlite', { env: { REDIS_URL: 'redis://127.0.0.1:1' } })).rejects.toThrow(/is not reachable/);
  });
});

// Issue 9, defect 5: a stranger's wrong passwords must not lock the owner out. The browser that has
// signed in to the account before (its op_device cookie) keeps a budget of its own; strangers share
// the per-account and per-IP budgets.
describe.each(testDialects().flatMap((dialect) => testStores().map((store) => [dialect, store] as const)))(
  "login lockout spares the owner's browser on %s with the %s store",
  (dialect, storeKind) => {
    let panel: TestPanel;
    beforeAll(async () => {
      // a prefix of its own: the dialects' projects run side by side against one Redis, with the same user ids
      const rateLimitStore =
        storeKind === 'redis' ? await RedisRateLimitStore.connect(TEST_REDIS_URL(), `orepanel-test:${randomBytes(4).toString('hex')}:`) : new MemoryRateLimitStore();
      panel = await startPanel(dialect, { rateLimits: 'defaults', rateLimitStore });
      await panel.services.settings.set('rate_limit_enabled', false);
    });
    afterAll(async () => {
      await panel?.close();
    });

    const login = (login: string, password: string, remoteAddress: string, cookie?: string) =>
      panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login, password }, remoteAddress, headers: cookie ? { cookie } : {} });

    /** The Cookie header of the owner's browser after a successful sign-in from it. */
    async function ownerBrowser(username: string, ip: string): Promise<string> {
      const res = await login(username, PASSWORD, ip);
      expect(res.statusCode, res.body).toBe(200);
      const device = setCookies(res).op_device;
      expect(device?.value, 'a sign-in marks the browser with the op_device cookie').toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(device.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/' });
      return `op_device=${device.value}`;
    }

    it("lets the owner's browser in at once after strangers burnt the account's budget; strangers stay refused", async () => {
      expect(panel.services.rateLimiter.store.kind).toBe(storeKind);
      const { body } = await register(panel.app);
      const owner = await ownerBrowser(body.username, '203.0.113.20');
      // the owner's sign-in used 1 of the account's 10 stranger attempts; an attacker on other addresses uses the rest
      for (let i = 0; i < 9; i++) expect((await login(body.username, `guess-${i}`, `198.51.100.${i + 1}`)).statusCode).toBe(401);
      const burnt = await login(body.email, 'guess-again', '198.51.100.50');
      expect(burnt.statusCode).toBe(429);
      expect(burnt.json().error.code).toBe('RATE_LIMITED');

      const back = await login(body.username, PASSWORD, '203.0.113.21', owner);
      expect(back.statusCode, back.body).toBe(200);
      expect(setCookies(back).op_session.value).toMatch(/^[A-Za-z0-9_-]{43}$/);

      // a stranger with the right password, or with a device cookie of the right shape this account never saw, is still refused
      const stranger = await login(body.username, PASSWORD, '192.0.2.90');
      expect(stranger.statusCode).toBe(429);
      expect(stranger.json()).toEqual({ error: { code: 'RATE_LIMITED', message: RATE_LIMITED_MESSAGE, retry_after: expect.any(Number) } });
      expect(stranger.headers['set-cookie']).toBeUndefined();
      const forged = await login(body.username, PASSWORD, '192.0.2.91', `op_device=${randomBytes(32).toString('base64url')}`);
      expect(forged.statusCode).toBe(429);
    });

    it("lets the owner's browser ask a reset mail after strangers burnt the account's reset budget", async () => {
      const { body } = await register(panel.app);
      const owner = await ownerBrowser(body.username, '203.0.113.40');
      const forgot = (ip: string, cookie?: string) =>
        panel.app.inject({ method: 'POST', url: '/api/user/auth/forgot', payload: { email: body.email }, remoteAddress: ip, headers: cookie ? { cookie } : {} });
      // this panel sends no mail (409 MAIL_DISABLED), which suits the test: the limit counts each ask before the answer
      for (let i = 0; i < 5; i++) expect((await forgot(`198.51.100.${150 + i}`)).json().error.code).toBe('MAIL_DISABLED');
      expect((await forgot('198.51.100.170')).statusCode).toBe(429);
      expect((await forgot('203.0.113.41', owner)).json().error.code).toBe('MAIL_DISABLED');
      expect((await forgot('192.0.2.92', `op_device=${randomBytes(32).toString('base64url')}`)).statusCode).toBe(429);
    });

    it('does not let a browser known to one account skip the limits of another', async () => {
      const mine = await register(panel.app);
      const victim = await register(panel.app);
      const attacker = await ownerBrowser(mine.body.username, '203.0.113.30');
      for (let i = 0; i < 10; i++) expect((await login(victim.body.username, `guess-${i}`, `198.51.100.${100 + i}`, attacker)).statusCode).toBe(401);
      expect((await login(victim.body.username, PASSWORD, '198.51.100.120', attacker)).statusCode).toBe(429);
    });

    it('remembers at most 20 browsers per account, and forgets one unseen for as long as its cookie lives', async () => {
      const { body } = await register(panel.app);
      const { id } = await panel.services.database.db.selectFrom('users').select('id').where('username', '=', body.username).executeTakeFirstOrThrow();
      const clock = new Clock();
      // after the browser the account registered from, which it also remembers
      clock.now = Date.now();
      const devices = new KnownDevices(panel.services.database.db, panel.services.database.dialect, clock.read);
      const hashes = Array.from({ length: MAX_KNOWN_DEVICES + 1 }, (_, i) => hashDevice(`device-${i}`));
      for (const hash of hashes) {
        clock.now += 1000;
        await devices.remember(id, hash);
      }
      // the least recently seen one went; seeing one again keeps it
      expect(await devices.isKnown(id, hashes[0])).toBe(false);
      for (const hash of hashes.slice(1)) expect(await devices.isKnown(id, hash)).toBe(true);
      await devices.remember(id, hashes[1]);
      const rows = await panel.services.database.db
        .withTables<{ known_devices: KnownDevicesTable }>()
        .selectFrom('known_devices')
        .select('device_hash')
        .where('user_id', '=', id)
        .execute();
      expect(rows).toHaveLength(MAX_KNOWN_DEVICES);
      clock.now += 400 * 86_400_000 + 1;
      expect(await devices.isKnown(id, hashes[1])).toBe(false);
    });

    it("limits a known browser that guesses wrong on its own budget, without touching the strangers' one", async () => {
      const { body } = await register(panel.app);
      const owner = await ownerBrowser(body.username, '203.0.113.40');
      // default rate_limit_login_per_device: 10 attempts per window from one known browser
      for (let i = 0; i < 10; i++) expect((await login(body.username, `typo-${i}`, '203.0.113.40', owner)).statusCode).toBe(401);
      const refused = await login(body.username, PASSWORD, '203.0.113.40', owner);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('RATE_LIMITED');
      expect(refused.headers['set-cookie']).toBeUndefined();
      // the owner's typos did not use up the budget of the account's other browsers and addresses
      expect((await login(body.username, PASSWORD, '203.0.113.41')).statusCode).toBe(200);
    });
  },
);
