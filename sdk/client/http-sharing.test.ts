// spec §9 networkOptimization in the sdk's http client: identical GETs on their way at the same time
// share one request (each caller with its own copy of the answer, each free to abort alone); it never
// caches, and with the setting off every call is its own request.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError, http, setHttpFetch } from './http';
import { uiStore } from './stores/ui';

/** A transport whose answers the test releases by hand. */
function heldTransport() {
  const calls: { url: string; init: RequestInit; release: (status?: number, body?: unknown) => void }[] = [];
  setHttpFetch(
    (url, init) =>
      new Promise<Response>((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        calls.push({
          url,
          init,
          release: (status = 200, body: unknown = { items: [1, 2] }) => resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })),
        });
      }),
  );
  return calls;
}

beforeEach(() => uiStore.getState().resetSettings());
afterEach(() => setHttpFetch(null));

describe('sharing identical requests (networkOptimization, on by default)', () => {
  it('two identical GETs at once make one request; each caller gets its own copy', async () => {
    const calls = heldTransport();
    const a = http.get<{ items: number[] }>('/api/user/servers');
    const b = http.get<{ items: number[] }>('/api/user/servers');
    await Promise.resolve();
    expect(calls).toHaveLength(1);
    calls[0]!.release();
    const [first, second] = await Promise.all([a, b]);
    expect(first).toEqual({ items: [1, 2] });
    expect(second).toEqual(first);
    first.items.push(3);
    expect(second.items).toEqual([1, 2]);
  });

  it('shares only what is the same: another address, other headers or a POST go on their own', async () => {
    const calls = heldTransport();
    void http.get('/api/user/servers');
    void http.get('/api/user/servers', { query: { page: 2 } });
    void http.get('/api/user/servers', { headers: { 'X-Test': '1' } });
    void http.post('/api/user/servers', { a: 1 });
    void http.post('/api/user/servers', { a: 1 });
    await Promise.resolve();
    expect(calls).toHaveLength(5);
    for (const c of calls) c.release();
  });

  it('never caches: once answered, the next GET asks the server again', async () => {
    const calls = heldTransport();
    const a = http.get('/api/user/servers');
    await Promise.resolve();
    calls[0]!.release();
    await a;
    const b = http.get('/api/user/servers');
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    calls[1]!.release();
    await b;
  });

  it('an error answer reaches every caller as an ApiError', async () => {
    const calls = heldTransport();
    const a = http.get('/api/user/servers').catch((e: unknown) => e);
    const b = http.get('/api/user/servers').catch((e: unknown) => e);
    await Promise.resolve();
    calls[0]!.release(503, { error: { code: 'SERVER_UNAVAILABLE', message: 'down' } });
    for (const e of await Promise.all([a, b])) expect(e).toMatchObject({ status: 503, code: 'SERVER_UNAVAILABLE' });
    expect(await a).toBeInstanceOf(ApiError);
  });

  it('a caller that aborts leaves alone; the request is aborted only when every caller gave up', async () => {
    const calls = heldTransport();
    const one = new AbortController();
    const two = new AbortController();
    const a = http.get('/api/user/servers', { signal: one.signal }).catch((e: unknown) => e);
    const b = http.get('/api/user/servers', { signal: two.signal });
    await Promise.resolve();
    one.abort();
    expect(((await a) as DOMException).name).toBe('AbortError');
    expect(calls[0]!.init.signal?.aborted).toBe(false);
    calls[0]!.release();
    expect(await b).toEqual({ items: [1, 2] });

    const three = new AbortController();
    const c = http.get('/api/user/servers', { signal: three.signal }).catch((e: unknown) => e);
    await Promise.resolve();
    three.abort();
    expect(((await c) as DOMException).name).toBe('AbortError');
    expect(calls[1]!.init.signal?.aborted).toBe(true);
    // and the next ask starts afresh
    void http.get('/api/user/servers');
    await Promise.resolve();
    expect(calls).toHaveLength(3);
    calls[2]!.release();
  });

  it('with networkOptimization off, every call is its own request', async () => {
    uiStore.getState().updateSettings('performance', { networkOptimization: false });
    const calls = heldTransport();
    void http.get('/api/user/servers');
    void http.get('/api/user/servers');
    await Promise.resolve();
    expect(calls).toHaveLength(2);
    for (const c of calls) c.release();
  });
});
