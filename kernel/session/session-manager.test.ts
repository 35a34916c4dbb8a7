import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionResponse } from '../../sdk/types';
import type { CookieJar, CookieVariant } from './cookies';
import {
  LOGIN_PATH,
  SESSION_MAX_RETRIES,
  SESSION_REFRESH_MS,
  SESSION_RETRY_DELAY_MS,
  SESSION_URL,
  SessionManager,
  TWO_FA_VERIFY_PATH,
  type SessionErrorKind,
  type SessionManagerDeps,
} from './session-manager';

const goodSession: SessionResponse = {
  success: true,
  error_code: null,
  user_info: { uuid: 'u-1', username: 'steve', email: 's@example.com', role: 7, avatar: null, verified: true },
  billing: { coins: 120, ram: 1024 },
  stats: { servers: 2, minutes_afk: 0 },
  permissions: ['admin.root'],
};

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

class FakeCookies implements CookieJar {
  names = new Set<string>(['user_token', 'op_session']);
  expired: { name: string; variant: CookieVariant }[] = [];
  has(name: string) {
    return this.names.has(name);
  }
  expire(name: string, variant: CookieVariant) {
    this.expired.push({ name, variant });
    this.names.delete(name);
  }
}

class MemoryStorage {
  data = new Map<string, string>();
  getItem(key: string) {
    return this.data.has(key) ? (this.data.get(key) as string) : null;
  }
  setItem(key: string, value: string) {
    this.data.set(key, String(value));
  }
  removeItem(key: string) {
    this.data.delete(key);
  }
  clear() {
    this.data.clear();
  }
}

function setup(answers: (() => Promise<Response>)[] | (() => Promise<Response>)) {
  const queue = Array.isArray(answers) ? [...answers] : null;
  const fetch = vi.fn((_url: string, _init: RequestInit) => {
    const next = queue ? queue.shift() : (answers as () => Promise<Response>);
    if (!next) throw new Error('unexpected extra session fetch');
    return next();
  });
  const cookies = new FakeCookies();
  const storage = new MemoryStorage();
  const sink = { beginFetch: vi.fn(), applyResponse: vi.fn(), applyCached: vi.fn(), fail: vi.fn(), clear: vi.fn() };
  const dialogs: SessionErrorKind[] = [];
  const navigations: string[] = [];
  const log = { warn: vi.fn(), error: vi.fn() };
  const onLoaded = vi.fn();
  const deps: SessionManagerDeps = {
    fetch,
    cookies,
    storage,
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    },
    location: () => ({ hostname: 'panel.example.com', pathname: '/dashboard' }),
    sink,
    showError: async (kind) => {
      dialogs.push(kind);
    },
    navigate: (path) => navigations.push(path),
    onLoaded,
    log,
  };
  return { manager: new SessionManager(deps), deps, fetch, cookies, storage, sink, dialogs, navigations, log, onLoaded };
}

describe('SessionManager', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('does nothing without a user_token cookie (spec §4: the cookie makes the session)', async () => {
    const t = setup([]);
    t.cookies.names.clear();
    await t.manager.start();
    expect(t.fetch).not.toHaveBeenCalled();
    expect(t.manager.refreshing).toBe(false);
  });

  it('loads the cached permissions and role before the first fetch answers', async () => {
    let answer!: (r: Response) => void;
    const t = setup([() => new Promise<Response>((resolve) => (answer = resolve))]);
    t.storage.setItem('user_permissions', JSON.stringify(['admin.users.list']));
    t.storage.setItem('role', '4');
    const started = t.manager.start();
    expect(t.sink.applyCached).toHaveBeenCalledWith(['admin.users.list'], 4);
    expect(t.sink.applyResponse).not.toHaveBeenCalled();
    answer(json(200, goodSession));
    await started;
    expect(t.sink.applyResponse).toHaveBeenCalledWith(goodSession);
  });

  it('fetches GET /api/user/session with no-cache headers', async () => {
    const t = setup([async () => json(200, goodSession)]);
    await t.manager.start();
    const [url, init] = t.fetch.mock.calls[0];
    expect(url).toBe(SESSION_URL);
    expect(init.cache).toBe('no-store');
    expect(init.headers).toMatchObject({ 'Cache-Control': 'no-cache', Pragma: 'no-cache' });
  });

  it('stores each non-null entry of user_info, billing and stats under its own key, and the permissions', async () => {
    const t = setup([async () => json(200, goodSession)]);
    t.storage.setItem('avatar', 'old.png');
    await t.manager.start();
    expect(t.storage.getItem('role')).toBe('7');
    expect(t.storage.getItem('username')).toBe('steve');
    expect(t.storage.getItem('verified')).toBe('true');
    expect(t.storage.getItem('coins')).toBe('120');
    expect(t.storage.getItem('servers')).toBe('2');
    expect(t.storage.getItem('minutes_afk')).toBe('0');
    expect(t.storage.getItem('avatar')).toBeNull();
    expect(JSON.parse(t.storage.getItem('user_permissions') ?? 'null')).toEqual(['admin.root']);
  });

  it('refreshes every 60 000 ms', async () => {
    const t = setup(async () => json(200, goodSession));
    await t.manager.start();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS - 1);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(t.fetch).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS);
    expect(t.fetch).toHaveBeenCalledTimes(3);
  });

  it('runs only one fetch at a time', async () => {
    let answer!: (r: Response) => void;
    const t = setup([async () => json(200, goodSession), () => new Promise<Response>((resolve) => (answer = resolve))]);
    await t.manager.start();
    const a = t.manager.refresh();
    const b = t.manager.refresh();
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS); // the timer's tick joins the running fetch too
    expect(t.fetch).toHaveBeenCalledTimes(2);
    answer(json(200, goodSession));
    await Promise.all([a, b]);
    expect(t.fetch).toHaveBeenCalledTimes(2);
  });

  it('retries a failed fetch 3 times, 2 000 ms apart, then fails the start with the Error dialog', async () => {
    const t = setup(async () => json(500, { error: { code: 'SERVER_ERROR', message: 'boom' } }));
    const started = t.manager.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    for (let retry = 1; retry <= SESSION_MAX_RETRIES; retry++) {
      await vi.advanceTimersByTimeAsync(SESSION_RETRY_DELAY_MS - 1);
      expect(t.fetch).toHaveBeenCalledTimes(retry);
      await vi.advanceTimersByTimeAsync(1);
      expect(t.fetch).toHaveBeenCalledTimes(retry + 1);
    }
    await started;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(t.fetch).toHaveBeenCalledTimes(1 + SESSION_MAX_RETRIES);
    expect(t.dialogs).toEqual(['start']);
    expect(t.navigations).toEqual([LOGIN_PATH]);
    expect(t.manager.refreshing).toBe(false);
  });

  it('retries network failures and succeeds when the server comes back', async () => {
    const t = setup([
      async () => {
        throw new TypeError('Failed to fetch');
      },
      async () => json(502, {}),
      async () => json(200, goodSession),
    ]);
    const started = t.manager.start();
    await vi.advanceTimersByTimeAsync(2 * SESSION_RETRY_DELAY_MS);
    await started;
    expect(t.fetch).toHaveBeenCalledTimes(3);
    expect(t.sink.applyResponse).toHaveBeenCalledWith(goodSession);
    expect(t.dialogs).toEqual([]);
    expect(t.manager.refreshing).toBe(true);
  });

  it('never retries a 503: Server Unavailable dialog, then login, storage and cookies cleared', async () => {
    const t = setup([async () => json(503, { error: { code: 'SERVER_UNAVAILABLE', message: 'down' } })]);
    t.storage.setItem('locale', 'fr');
    await t.manager.start();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.dialogs).toEqual(['unavailable']);
    expect(t.navigations).toEqual([LOGIN_PATH]);
    expect(t.storage.data.size).toBe(0);
    expect(t.cookies.names.size).toBe(0);
    expect(t.manager.refreshing).toBe(false);
  });

  it('treats an error_code SERVER_UNAVAILABLE like a 503, without retrying', async () => {
    const t = setup([async () => json(500, { success: false, error_code: 'SERVER_UNAVAILABLE' })]);
    await t.manager.start();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.dialogs).toEqual(['unavailable']);
  });

  it('success false: clears cookies (every variant) and all storage, Session Error dialog, then login', async () => {
    const t = setup([async () => json(401, { success: false, error_code: 'INVALID_SESSION', user_info: null, billing: null, stats: null, permissions: [] })]);
    t.storage.setItem('ui-settings', '{}');
    await t.manager.start();
    expect(t.dialogs).toEqual(['invalid']);
    expect(t.navigations).toEqual([LOGIN_PATH]);
    expect(t.storage.data.size).toBe(0);
    const userToken = t.cookies.expired.filter((c) => c.name === 'user_token').map((c) => c.variant);
    expect(userToken).toContainEqual({ path: '/' });
    expect(userToken).toContainEqual({ path: '/dashboard' });
    expect(userToken).toContainEqual({ path: '/', domain: '.example.com' });
    expect(userToken).toContainEqual({ path: '/', domain: '.panel.example.com' });
    expect(t.cookies.expired.some((c) => c.name === 'op_session')).toBe(true);
    expect(t.sink.fail).toHaveBeenCalledWith('INVALID_SESSION', expect.any(String));
  });

  it('TW0_FA_BLOCKED: clears everything and goes to /auth/2fa/verify with no dialog', async () => {
    const t = setup([async () => json(401, { success: false, error_code: 'TW0_FA_BLOCKED', user_info: null, billing: null, stats: null, permissions: [] })]);
    t.storage.setItem('role', '2');
    await t.manager.start();
    expect(t.dialogs).toEqual([]);
    expect(t.navigations).toEqual([TWO_FA_VERIFY_PATH]);
    expect(t.storage.data.size).toBe(0);
    expect(t.cookies.names.has('user_token')).toBe(false);
  });

  it('prefetch() sends the first fetch at once; start() applies that answer without a second fetch', async () => {
    const t = setup([async () => json(200, goodSession)]);
    t.manager.prefetch();
    t.manager.prefetch();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(0);
    // nothing is applied or stored before the app is on screen
    expect(t.sink.applyResponse).not.toHaveBeenCalled();
    expect(t.storage.data.size).toBe(0);
    await t.manager.start();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.sink.applyResponse).toHaveBeenCalledWith(goodSession);
    expect(t.manager.refreshing).toBe(true);
  });

  it('a prefetched session error clears nothing until start(), then takes the spec path', async () => {
    const t = setup([async () => json(401, { success: false, error_code: 'INVALID_SESSION', user_info: null, billing: null, stats: null, permissions: [] })]);
    t.manager.prefetch();
    await vi.advanceTimersByTimeAsync(0);
    t.storage.setItem('ui-settings', '{}');
    expect(t.dialogs).toEqual([]);
    expect(t.cookies.names.has('user_token')).toBe(true);
    await t.manager.start();
    expect(t.dialogs).toEqual(['invalid']);
    expect(t.storage.data.size).toBe(0);
    expect(t.navigations).toEqual([LOGIN_PATH]);
  });

  it('a prefetch that failed is retried by start() as any first fetch is', async () => {
    const t = setup([async () => Promise.reject(new TypeError('offline')), async () => json(200, goodSession)]);
    t.manager.prefetch();
    const started = t.manager.start();
    await vi.advanceTimersByTimeAsync(SESSION_RETRY_DELAY_MS);
    await started;
    expect(t.fetch).toHaveBeenCalledTimes(2);
    expect(t.sink.applyResponse).toHaveBeenCalledWith(goodSession);
  });

  it('applyEarlyAnswer() puts a valid prefetched session in place before start(), which only announces it and refreshes', async () => {
    const t = setup([async () => json(200, goodSession)]);
    t.manager.prefetch();
    // no answer yet: nothing to apply
    expect(t.manager.applyEarlyAnswer()).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(t.manager.applyEarlyAnswer()).toBe(true);
    expect(t.sink.applyResponse).toHaveBeenCalledTimes(1);
    expect(t.storage.getItem('role')).not.toBeNull();
    expect(t.onLoaded).not.toHaveBeenCalled();
    // applied once only
    expect(t.manager.applyEarlyAnswer()).toBe(false);
    await t.manager.start();
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.sink.applyResponse).toHaveBeenCalledTimes(1);
    expect(t.onLoaded).toHaveBeenCalledWith(goodSession);
    expect(t.manager.refreshing).toBe(true);
  });

  it('earlyAnswer(ms) waits for the prefetched answer, at most ms, and not at all without a prefetch', async () => {
    let answer!: (r: Response) => void;
    const t = setup([() => new Promise<Response>((resolve) => (answer = resolve))]);
    let waited = false;
    await t.manager.earlyAnswer(500);
    t.manager.prefetch();
    const wait = t.manager.earlyAnswer(500).then(() => (waited = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(waited).toBe(false);
    answer(json(200, goodSession));
    await vi.advanceTimersByTimeAsync(0);
    await wait;
    expect(t.manager.applyEarlyAnswer()).toBe(true);

    const slow = setup([() => new Promise<Response>(() => undefined)]);
    slow.manager.prefetch();
    let gaveUp = false;
    const capped = slow.manager.earlyAnswer(500).then(() => (gaveUp = true));
    await vi.advanceTimersByTimeAsync(499);
    expect(gaveUp).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await capped;
    expect(slow.manager.applyEarlyAnswer()).toBe(false);
  });

  it('applyEarlyAnswer() leaves a prefetched session error to start(): nothing is cleared before the app is on screen', async () => {
    const t = setup([async () => json(401, { success: false, error_code: 'INVALID_SESSION', user_info: null, billing: null, stats: null, permissions: [] })]);
    t.manager.prefetch();
    await vi.advanceTimersByTimeAsync(0);
    t.storage.setItem('ui-settings', '{}');
    expect(t.manager.applyEarlyAnswer()).toBe(false);
    expect(t.sink.applyResponse).not.toHaveBeenCalled();
    expect(t.storage.data.size).toBe(1);
    await t.manager.start();
    expect(t.dialogs).toEqual(['invalid']);
    expect(t.storage.data.size).toBe(0);
  });

  it('prefetch() without the cookie sends nothing', async () => {
    const t = setup([]);
    t.cookies.names.clear();
    t.manager.prefetch();
    await t.manager.start();
    expect(t.fetch).not.toHaveBeenCalled();
  });

  it('stops refreshing when the cookie vanishes', async () => {
    const t = setup(async () => json(200, goodSession));
    await t.manager.start();
    t.cookies.names.delete('user_token');
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS);
    expect(t.fetch).toHaveBeenCalledTimes(1);
    expect(t.manager.refreshing).toBe(false);
    expect(t.dialogs).toEqual([]);
  });

  it('stops refreshing on a 503 during a refresh', async () => {
    const t = setup([async () => json(200, goodSession), async () => json(503, {})]);
    await t.manager.start();
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS);
    expect(t.dialogs).toEqual(['unavailable']);
    expect(t.manager.refreshing).toBe(false);
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS * 3);
    expect(t.fetch).toHaveBeenCalledTimes(2);
  });

  it('a server error during a refresh (after the retries) is a session error and stops the refresh', async () => {
    const t = setup([async () => json(200, goodSession), ...Array.from({ length: 4 }, () => async () => json(500, {}))]);
    await t.manager.start();
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS + SESSION_MAX_RETRIES * SESSION_RETRY_DELAY_MS);
    expect(t.fetch).toHaveBeenCalledTimes(1 + 1 + SESSION_MAX_RETRIES);
    expect(t.dialogs).toEqual(['invalid']);
    expect(t.navigations).toEqual([LOGIN_PATH]);
    expect(t.manager.refreshing).toBe(false);
  });

  it('keeps the session when a refresh cannot reach the server, and tries again at the next tick', async () => {
    const offline = async (): Promise<Response> => {
      throw new TypeError('Failed to fetch');
    };
    const t = setup([async () => json(200, goodSession), offline, offline, offline, offline, async () => json(200, goodSession)]);
    await t.manager.start();
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS + SESSION_MAX_RETRIES * SESSION_RETRY_DELAY_MS);
    expect(t.fetch).toHaveBeenCalledTimes(5);
    expect(t.dialogs).toEqual([]);
    expect(t.manager.refreshing).toBe(true);
    await vi.advanceTimersByTimeAsync(SESSION_REFRESH_MS);
    expect(t.fetch).toHaveBeenCalledTimes(6);
    expect(t.sink.applyResponse).toHaveBeenCalledTimes(2);
  });

  it('clear() (logout) removes the session keys but keeps the language and interface settings', async () => {
    const t = setup([async () => json(200, goodSession)]);
    await t.manager.start();
    t.storage.setItem('locale', 'de');
    t.manager.clear();
    expect(t.storage.getItem('locale')).toBe('de');
    expect(t.storage.getItem('role')).toBeNull();
    expect(t.storage.getItem('user_permissions')).toBeNull();
    expect(t.storage.getItem('coins')).toBeNull();
    expect(t.cookies.names.has('user_token')).toBe(false);
    expect(t.manager.refreshing).toBe(false);
  });

  it('clear() removes the stats a plugin declares although this page never fetched a session', () => {
    const t = setup([]);
    const manager = new SessionManager({ ...t.deps, pluginSessionKeys: () => ['servers', 'fx_notes_written'] });
    for (const key of ['servers', 'fx_notes_written', 'minutes_afk', 'coins']) t.storage.setItem(key, '3');
    t.storage.setItem('unrelated', 'kept');
    manager.clear();
    expect(['servers', 'fx_notes_written', 'minutes_afk', 'coins'].map((key) => t.storage.getItem(key))).toEqual([null, null, null, null]);
    expect(t.storage.getItem('unrelated')).toBe('kept');
  });

  it('refresh() before start (completeLogin right after the login) starts the session', async () => {
    const t = setup([async () => json(200, goodSession)]);
    await t.manager.refresh();
    expect(t.sink.applyResponse).toHaveBeenCalledTimes(1);
    expect(t.manager.refreshing).toBe(true);
  });
});
