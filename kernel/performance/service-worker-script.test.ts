// public/sw.js, run in a worker scope made by hand: its static routes, what a "keep" message stores,
// and the files it lets go of. (tests/e2e/first-load.test.ts runs it in chromium.)
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'https://panel.example';
const SOURCE = readFileSync(new URL('../../public/sw.js', import.meta.url), 'utf8');
const DAY = 24 * 60 * 60 * 1000;

type Listener = (event: Record<string, unknown>) => void;

/** A Request as a worker makes it: relative URLs are the worker's origin's. */
class WorkerRequest extends Request {
  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(typeof input === 'string' ? new URL(input, ORIGIN) : input, init);
  }
}

const pathOf = (key: RequestInfo | URL) => new URL(typeof key === 'string' ? key : key instanceof URL ? key.href : key.url, ORIGIN).pathname;

/** The worker, its cache, the clock and what it fetched. */
function startWorker() {
  const listeners = new Map<string, Listener>();
  const stored = new Map<string, Response>();
  const fetched: string[] = [];
  const clock = { now: 0 };
  const cache = {
    match: async (key: RequestInfo | URL) => stored.get(pathOf(key))?.clone(),
    put: async (key: RequestInfo | URL, response: Response) => void stored.set(pathOf(key), response),
    keys: async () => [...stored.keys()].map((path) => new WorkerRequest(path)),
    delete: async (key: RequestInfo | URL) => stored.delete(pathOf(key)),
  };
  const scope = {
    location: new URL('/sw.js', ORIGIN),
    addEventListener: (type: string, fn: Listener) => listeners.set(type, fn),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  const caches = { open: async () => cache, keys: async () => ['orepanel-hashed-v1'], delete: async () => true };
  const fetchFile = async (request: Request) => {
    fetched.push(pathOf(request));
    const response = new Response(`/* ${pathOf(request)} */`, { status: 200, headers: { 'content-type': 'text/javascript' } });
    Object.defineProperty(response, 'type', { value: 'basic' });
    return response;
  };
  const FakeDate = { now: () => clock.now };
  new Function('self', 'caches', 'fetch', 'Request', 'Response', 'Date', 'console', SOURCE)(scope, caches, fetchFile, WorkerRequest, Response, FakeDate, console);

  /** Dispatches an event and waits for what it asked to wait for. */
  const dispatch = async (type: string, fields: Record<string, unknown>) => {
    const pending: Promise<unknown>[] = [];
    listeners.get(type)?.({ ...fields, waitUntil: (p: Promise<unknown>) => pending.push(p) });
    await Promise.all(pending);
  };
  return {
    stored,
    fetched,
    clock,
    dispatch,
    keep: (urls: unknown) => dispatch('message', { data: { type: 'keep', urls } }),
    files: () => [...stored.keys()].filter((path) => path !== '/sw-named-index.json').sort(),
  };
}

describe('public/sw.js', () => {
  it('installs static routes: hashed files from its cache, everything else to the network', async () => {
    const worker = startWorker();
    let routes: unknown = null;
    await worker.dispatch('install', { addRoutes: async (r: unknown) => void (routes = r) });
    const hashed = { or: [{ urlPattern: { pathname: '/assets/*' } }, { urlPattern: { pathname: '/plugins/*' } }] };
    expect(routes).toEqual([
      { condition: hashed, source: { cacheName: 'orepanel-hashed-v1' } },
      { condition: { not: hashed }, source: 'network' },
    ]);
  });

  it('still installs when the browser refuses the routes (the fetch handler serves then)', async () => {
    const worker = startWorker();
    const warn = console.warn;
    console.warn = () => {};
    try {
      await expect(worker.dispatch('install', { addRoutes: async () => Promise.reject(new TypeError('bad rule')) })).resolves.toBeUndefined();
    } finally {
      console.warn = warn;
    }
  });

  it('stores the hashed files a page names, once, and nothing else it is sent', async () => {
    const worker = startWorker();
    await worker.keep([
      '/assets/kernel-abcdef12.js',
      `${ORIGIN}/plugins/auth/LoginPage-meB5lfLH.js`,
      '/api/user/session',
      '/assets/main.css?v=abcdef12',
      'https://evil.example/assets/x-abcdef12.js',
      42,
    ]);
    expect(worker.files()).toEqual(['/assets/kernel-abcdef12.js', '/plugins/auth/LoginPage-meB5lfLH.js']);
    await worker.keep(['/assets/kernel-abcdef12.js']);
    expect(worker.fetched).toEqual(['/assets/kernel-abcdef12.js', '/plugins/auth/LoginPage-meB5lfLH.js']);
  });

  it('refuses a message naming more files than a page of the panel loads', async () => {
    const worker = startWorker();
    await worker.keep(Array.from({ length: 501 }, (_, i) => `/plugins/p/chunk${i}-abcdef12.js`));
    expect(worker.files()).toEqual([]);
  });

  it('lets go of a file no page has named for 30 days, and keeps the ones still named', async () => {
    const worker = startWorker();
    await worker.keep(['/assets/kernel-old11111.js', '/plugins/auth/auth-same2222.js']);
    worker.clock.now = 20 * DAY;
    // a new release: a new kernel, the auth plugin unchanged
    await worker.keep(['/assets/kernel-new33333.js', '/plugins/auth/auth-same2222.js']);
    worker.clock.now = 31 * DAY;
    await worker.keep(['/plugins/auth/auth-same2222.js']);
    expect(worker.files()).toEqual(['/assets/kernel-new33333.js', '/plugins/auth/auth-same2222.js']);
    worker.clock.now = 51 * DAY;
    await worker.keep(['/plugins/auth/auth-same2222.js']);
    expect(worker.files()).toEqual(['/plugins/auth/auth-same2222.js']);
  });
});
