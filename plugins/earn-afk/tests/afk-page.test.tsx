// @vitest-environment jsdom
// The AFK page against a stand-in of the browser's WebSocket (the server side has its own tests in
// tests/api/afk*.test.ts): what it sends (heartbeats only while visible, one "hidden" message, a
// takeover), what it shows for each server state, and how it reconnects (the sdk's realtime socket:
// its own tests are in sdk/client/realtime.test.ts; the /ws page is the errors plugin's).
import { REALTIME_RETRY, realtimeRetryDelay } from '@orepanel/sdk';
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import { AFK_SOCKET_PATH, HEARTBEAT_INTERVAL_MS, type AfkStateMessage } from '../shared/protocol';

/** The page's socket, driven by the test as the server would. */
class StandInSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static all: StandInSocket[] = [];
  readyState = StandInSocket.CONNECTING;
  readonly sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  onerror: (() => void) | null = null;

  constructor(readonly url: string) {
    StandInSocket.all.push(this);
  }
  send(text: string) {
    this.sent.push(JSON.parse(text));
  }
  close() {
    this.readyState = StandInSocket.CLOSED;
  }
  // --- the server's side
  accept() {
    act(() => {
      this.readyState = StandInSocket.OPEN;
      this.onopen?.();
    });
  }
  state(patch: Partial<AfkStateMessage> = {}) {
    act(() => this.onmessage?.({ data: JSON.stringify(stateMessage(patch)) }));
  }
  drop(code = 1006) {
    act(() => {
      this.readyState = StandInSocket.CLOSED;
      this.onclose?.({ code });
    });
  }
}

const SERVER_NOW = Date.UTC(2031, 0, 15, 10, 0, 18);

function stateMessage(patch: Partial<AfkStateMessage>): AfkStateMessage {
  return {
    type: 'state',
    status: 'earning',
    rate: 1,
    dailyCap: 600,
    earnedToday: 2,
    remainingToday: 598,
    resetsAt: Date.UTC(2031, 0, 16),
    session: { minutes: 0, coins: 0 },
    nextPayoutAt: SERVER_NOW + 42_000,
    lastPayout: null,
    handled: 1,
    serverTime: SERVER_NOW,
    ...patch,
  };
}

const latest = () => StandInSocket.all[StandInSocket.all.length - 1];

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  act(() => {
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

async function open(http: HttpHandlers = {}, route = '/earn/afk') {
  return renderPlugin(plugin, {
    manifest,
    route,
    catalogues: { en },
    session: { user: { username: 'alice' } },
    settings: { afk_enabled: true },
    http: { 'GET /api/user/session': sessionReply({ user: { username: 'alice' } }), ...http },
  });
}

beforeEach(() => {
  StandInSocket.all = [];
  vi.stubGlobal('WebSocket', StandInSocket);
  setVisibility('visible');
});
afterEach(async () => {
  // real timers first: cleanup may wait for a dialog's focus timer
  vi.useRealTimers();
  await cleanup();
  vi.unstubAllGlobals();
});

describe('AFK page', () => {
  it('connects to the AFK socket, says it is visible, and shows the rate, the cap and the countdown', async () => {
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    expect(latest().url).toBe(`ws://${window.location.host}${AFK_SOCKET_PATH}`);
    latest().accept();
    expect(latest().sent).toEqual([{ type: 'heartbeat', visible: true }]);
    latest().state();
    await app.findByText('Earning');
    expect(document.body.textContent).toMatch(/Next payout \(\+1\) in 0:4[0-3]\./);
    expect(app.getByText('1 per minute')).toBeTruthy();
    expect(app.getByText('598')).toBeTruthy();
    expect(app.getByText('of 600 a day')).toBeTruthy();
    expect(app.getByText('2 of 600 coins earned today (UTC).')).toBeTruthy();
    expect(app.getByRole('meter', 'AFK coins earned today').getAttribute('aria-valuenow')).toBe('2');
  });

  it('heartbeats every 10 s while visible; hidden, it says so once and falls silent', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    const socket = latest();
    socket.accept();
    act(() => vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS * 2));
    expect(socket.sent).toEqual([1, 2, 3].map(() => ({ type: 'heartbeat', visible: true })));

    setVisibility('hidden');
    expect(socket.sent.at(-1)).toEqual({ type: 'heartbeat', visible: false });
    act(() => vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS * 4));
    expect(socket.sent).toHaveLength(4);
    socket.state({ status: 'paused', nextPayoutAt: null });
    await app.findByText('Paused');

    setVisibility('visible');
    expect(socket.sent.at(-1)).toEqual({ type: 'heartbeat', visible: true });
    act(() => vi.advanceTimersByTime(HEARTBEAT_INTERVAL_MS));
    expect(socket.sent).toHaveLength(6);
  });

  it('on standby says another tab earns and offers to earn here instead', async () => {
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    latest().accept();
    latest().state({ status: 'standby', nextPayoutAt: null });
    await app.findByText('Another tab or device is earning');
    await app.click(app.getByRole('button', 'Earn here instead'));
    expect(latest().sent.at(-1)).toEqual({ type: 'takeover' });
  });

  it('shows the daily cap when it is reached', async () => {
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    latest().accept();
    latest().state({ status: 'capped', earnedToday: 600, remainingToday: 0, nextPayoutAt: null });
    await app.findByText('Daily limit reached');
    expect(document.body.textContent).toContain("You have earned today's 600 AFK coins.");
    expect(document.body.textContent).toContain('UTC');
  });

  it('reconnects after a drop, and adds up what every socket of the visit was paid', async () => {
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    latest().accept();
    latest().state({ session: { minutes: 2, coins: 4 } });
    await app.findByText('Minutes paid: 2');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    latest().drop();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(app.getByText(en.state.droppedTitle)).toBeTruthy();
    expect(document.body.textContent).toContain(en.state.dropped);
    // the kernel's banner offers "Reconnect now"; here the next attempt comes by itself
    await act(async () => {
      await vi.advanceTimersByTimeAsync(realtimeRetryDelay(1, () => 1));
    });
    expect(StandInSocket.all).toHaveLength(2);
    vi.useRealTimers();
    latest().accept();
    latest().state({ session: { minutes: 1, coins: 2 } });
    await app.findByText('Minutes paid: 3');
    expect(app.getByText('6')).toBeTruthy();
  });

  it('asks the status route why a socket never opened: a switched-off feature ends the retries', async () => {
    const app = await open({ 'GET /api/user/earn/afk': { status: 403, body: { error: { code: 'FEATURE_DISABLED', message: 'This feature is turned off on this panel.' } } } });
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    latest().drop();
    await app.findByText('AFK rewards are off');
    expect(app.httpCalls.some((c) => c.path === '/api/user/earn/afk')).toBe(true);
    expect(StandInSocket.all).toHaveLength(1);
  });

  it('stops when the session ended, refreshing it, without reconnecting', async () => {
    const app = await open();
    await app.waitFor(() => expect(StandInSocket.all).toHaveLength(1));
    latest().accept();
    // the page asks the kernel to refresh the session (which then sends a signed-out user to log in)
    await act(async () => {
      latest().drop(4401);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    await app.findByText('Signed out');
    expect(app.httpCalls.filter((c) => c.path === '/api/user/session').length).toBeGreaterThan(0);
    expect(app.queryByRole('button', 'Reconnect now')).toBeNull();
  });

  /** Drops every attempt until the page gives the socket up (the last drop plus the panel's answer decide what follows). */
  async function exhaustAttempts(app: Awaited<ReturnType<typeof open>>) {
    for (let attempt = 1; attempt <= REALTIME_RETRY.maxAttempts + 1; attempt++) {
      await app.waitFor(() => expect(StandInSocket.all).toHaveLength(attempt));
      latest().drop();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(attempt <= REALTIME_RETRY.maxAttempts ? realtimeRetryDelay(attempt, () => 1) : 0);
      });
    }
  }

  it('goes to the lost-connection page after the last attempt failed and the panel does not answer either', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const down = { status: 502, body: { error: { code: 'BAD_GATEWAY', message: 'down' } } };
    const app = await open({ 'GET /api/user/earn/afk': down, 'GET /api/system/settings': down });
    await exhaustAttempts(app);
    vi.useRealTimers();
    await app.waitFor(() => expect(app.location()).toMatchObject({ pathname: '/ws', search: '?from=%2Fearn%2Fafk' }));
  });

  it('stays, saying it could not connect, when only the AFK socket fails while the panel answers; "Reconnect now" starts over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const app = await open({ 'GET /api/user/earn/afk': { body: { ok: true } }, 'GET /api/system/settings': { body: {} } });
    await exhaustAttempts(app);
    vi.useRealTimers();
    await app.findByText(en.state.failedTitle);
    expect(app.location().pathname).toBe('/earn/afk');
    const before = StandInSocket.all.length;
    await app.click(app.getByRole('button', 'Reconnect now'));
    expect(StandInSocket.all).toHaveLength(before + 1);
    latest().accept();
    latest().state();
    await app.findByText('Earning');
  });
});
