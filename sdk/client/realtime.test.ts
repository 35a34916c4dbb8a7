// @vitest-environment jsdom
// The realtime socket every plugin uses, against a WebSocket the test drives: the retry policy, the
// banner's store, a close the server means, the browser coming back online, and what happens when
// the attempts run out — /ws only when the panel does not answer either.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { provideKernelServices } from './kernel-services';
import {
  lostConnectionPath,
  openRealtimeSocket,
  PANEL_PROBE_PATH,
  REALTIME_RETRY,
  realtimeRetryDelay,
  realtimeStore,
  safeReturnPath,
  type RealtimeConnection,
  type RealtimeSocketOptions,
} from './realtime';

class FakeSocket {
  static readonly OPEN = 1;
  static all: FakeSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  closedWith: number | null = null;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(text);
  }
  close(code = 1000) {
    this.closedWith = code;
    this.readyState = 3;
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
  }
  drop(code = 1006) {
    this.readyState = 3;
    this.onclose?.({ code });
  }
  static get last(): FakeSocket {
    return FakeSocket.all[FakeSocket.all.length - 1];
  }
}

let connection: RealtimeConnection | null = null;
let navigations: string[] = [];
let stopServices: () => void = () => undefined;

function open(options: Partial<RealtimeSocketOptions> = {}): RealtimeConnection {
  connection = openRealtimeSocket({ path: '/api/user/thing/socket', random: () => 0, ...options });
  return connection;
}

function probeAnswers(status: number | 'network') {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      expect(url).toBe(PANEL_PROBE_PATH);
      if (status === 'network') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(status < 400 ? {} : { error: { code: 'DOWN', message: 'down' } }), { status, headers: { 'content-type': 'application/json' } });
    }),
  );
}

/** Drops every attempt until the connection gives up. */
async function exhaust(): Promise<void> {
  FakeSocket.last.drop();
  for (let attempt = 1; attempt <= REALTIME_RETRY.maxAttempts; attempt++) {
    await vi.advanceTimersByTimeAsync(realtimeRetryDelay(attempt, () => 0));
    FakeSocket.last.drop();
  }
  await vi.advanceTimersByTimeAsync(0);
}

beforeEach(() => {
  FakeSocket.all = [];
  navigations = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  stopServices = provideKernelServices({
    refreshSession: async () => undefined,
    clearSession: () => undefined,
    navigate: (to) => void navigations.push(to),
    loadLanguage: async () => undefined,
  });
});

afterEach(() => {
  connection?.close();
  connection = null;
  stopServices();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the retry policy', () => {
  it('backs off 1 s, 2 s, 4 s … up to 15 s, with up to 20 % jitter', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => realtimeRetryDelay(n, () => 0))).toEqual([1000, 2000, 4000, 8000, 15000, 15000, 15000]);
    expect(realtimeRetryDelay(1, () => 1)).toBe(1200);
    expect(REALTIME_RETRY.maxAttempts).toBe(5);
  });

  it('returns only to a path of this panel', () => {
    expect(safeReturnPath('/earn/afk')).toBe('/earn/afk');
    expect(safeReturnPath('//evil.example/x')).toBe('/dashboard');
    expect(safeReturnPath('/\\evil.example')).toBe('/dashboard');
    expect(safeReturnPath('https://evil.example')).toBe('/dashboard');
    expect(safeReturnPath(null)).toBe('/dashboard');
    expect(lostConnectionPath('/ticket/5?x=1')).toBe('/ws?from=%2Fticket%2F5%3Fx%3D1');
    expect(lostConnectionPath('//evil.example')).toBe('/ws?from=%2Fdashboard');
  });
});

describe('a realtime socket', () => {
  it('opens on this host, goes live, sends JSON only while open, and hands messages on', () => {
    const messages: string[] = [];
    const c = open({ onMessage: (data) => messages.push(data) });
    expect(FakeSocket.last.url).toBe(`ws://${window.location.host}/api/user/thing/socket`);
    expect(c.state.phase).toBe('connecting');
    expect(c.send({ a: 1 })).toBe(false);
    FakeSocket.last.open();
    expect(c.state).toEqual({ phase: 'live', attempt: 0, retryAt: null, endReason: null });
    expect(c.send({ a: 1 })).toBe(true);
    expect(FakeSocket.last.sent).toEqual(['{"a":1}']);
    FakeSocket.last.onmessage?.({ data: 'hello' });
    expect(messages).toEqual(['hello']);
  });

  it('reconnects with a growing delay and shows in the banner’s store while it waits; an open resets the count', async () => {
    const c = open();
    FakeSocket.last.open();
    FakeSocket.last.drop();
    expect(c.state.phase).toBe('reconnecting');
    expect(c.state.attempt).toBe(1);
    expect(c.state.retryAt).toBe(Date.now() + 1000);
    const entries = Object.values(realtimeStore.getState().connections);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ phase: 'reconnecting', attempt: 1 });
    await vi.advanceTimersByTimeAsync(999);
    expect(FakeSocket.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.last.drop();
    expect(c.state.attempt).toBe(2);
    await vi.advanceTimersByTimeAsync(2000);
    FakeSocket.last.open();
    expect(c.state.attempt).toBe(0);
    c.close();
    expect(realtimeStore.getState().connections).toEqual({});
  });

  it('“Reconnect now” from the banner tries at once, dropping an attempt still under way', async () => {
    const c = open();
    FakeSocket.last.drop();
    const entry = Object.values(realtimeStore.getState().connections)[0];
    entry.reconnectNow();
    expect(FakeSocket.all).toHaveLength(2);
    expect(c.state).toMatchObject({ phase: 'connecting', attempt: 0 });
    // the retry timer is gone: no third socket when it would have fired
    await vi.advanceTimersByTimeAsync(5_000);
    expect(FakeSocket.all).toHaveLength(2);
    c.reconnectNow();
    expect(FakeSocket.all[1].closedWith).toBe(1000);
    expect(FakeSocket.all).toHaveLength(3);
    // a late close of the dropped attempt changes nothing
    FakeSocket.all[1].onclose?.({ code: 1006 });
    expect(c.state.phase).toBe('connecting');
  });

  it('tries at once when the browser comes back online', async () => {
    open();
    FakeSocket.last.drop();
    window.dispatchEvent(new Event('online'));
    expect(FakeSocket.all).toHaveLength(2);
  });

  it('ends without trying again after a close the server means, with its reason', async () => {
    const c = open({ endReason: (event) => (event.code === 4401 ? 'session' : null) });
    FakeSocket.last.open();
    FakeSocket.last.drop(4401);
    expect(c.state).toMatchObject({ phase: 'ended', endReason: 'session' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.all).toHaveLength(1);
    c.reconnectNow();
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('may ask its server why a socket never opened before deciding', async () => {
    const asked: boolean[] = [];
    const c = open({
      endReason: async (_event, opened) => {
        asked.push(opened);
        return 'disabled';
      },
    });
    FakeSocket.last.drop();
    await vi.advanceTimersByTimeAsync(0);
    expect(asked).toEqual([false]);
    expect(c.state).toMatchObject({ phase: 'ended', endReason: 'disabled' });
  });

  it.each([
    ['cannot be reached', 'network' as const],
    ['answers 503', 503],
    ['answers 502', 502],
  ])('after the last attempt, goes to /ws when the panel %s, to come back to where it was', async (_what, status) => {
    probeAnswers(status);
    const c = open({ returnPath: () => '/earn/afk' });
    await exhaust();
    expect(FakeSocket.all).toHaveLength(REALTIME_RETRY.maxAttempts + 1);
    expect(c.state.phase).toBe('unavailable');
    expect(navigations).toEqual(['/ws?from=%2Fearn%2Fafk']);
  });

  it.each([
    ['answers', 200],
    ['answers 401 (signed out: the session says what comes next)', 401],
  ])('after the last attempt, stays and says the socket is unavailable when the panel %s', async (_what, status) => {
    probeAnswers(status);
    const c = open();
    await exhaust();
    expect(c.state.phase).toBe('unavailable');
    expect(navigations).toEqual([]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(FakeSocket.all).toHaveLength(REALTIME_RETRY.maxAttempts + 1);
    // the page's own "Reconnect now" starts over
    c.reconnectNow();
    expect(FakeSocket.all).toHaveLength(REALTIME_RETRY.maxAttempts + 2);
  });

  it('never sends anyone to /ws once the page that owned it has left', async () => {
    let answer: (value: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const c = open();
    await exhaust();
    c.close();
    answer(new Response('down', { status: 503 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(navigations).toEqual([]);
    expect(realtimeStore.getState().connections).toEqual({});
  });
});
