// @vitest-environment jsdom
// The live ticket hook against a stand-in WebSocket: it reads the ticket on `ready` and on every
// notice (later, when the tab is hidden), does not poll while the socket listens, and falls back to
// polling while the socket cannot open or has dropped — trying again with a growing delay (the sdk's
// realtime socket), giving the socket up after REALTIME_RETRY.maxAttempts while the panel still
// answers, and not trying at all after a close the server meant (signed out).
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REALTIME_RETRY, realtimeRetryDelay } from '@orepanel/sdk';
import { TICKET_POLL_MS } from '../client/customer/use-visible-poll';
import { useTicketLive, type TicketLiveState } from '../client/use-ticket-live';
import { TICKET_LIVE_CLOSE, type TicketSide } from '../shared/live-protocol';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A WebSocket the test drives: it never touches the network. */
class FakeSocket {
  static readonly OPEN = 1;
  static opened: FakeSocket[] = [];
  readyState = 0;
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedByPage = false;

  constructor(readonly url: string) {
    FakeSocket.opened.push(this);
  }

  /** The server accepted and is listening. */
  ready(): void {
    this.readyState = FakeSocket.OPEN;
    this.onopen?.();
    this.onmessage?.({ data: JSON.stringify({ type: 'ready' }) });
  }

  changed(id = 5): void {
    this.onmessage?.({ data: JSON.stringify({ type: 'changed', id, at: '2026-11-26T12:00:00.000Z' }) });
  }

  /** The connection ended (1006: it could not open, or it dropped). */
  drop(code = 1006): void {
    this.readyState = 3;
    this.onclose?.({ code });
  }

  close(): void {
    this.closedByPage = true;
    this.readyState = 3;
  }

  static get last(): FakeSocket {
    return FakeSocket.opened[FakeSocket.opened.length - 1];
  }
}

let root: Root | null = null;
let host: HTMLElement | null = null;

beforeEach(() => {
  FakeSocket.opened = [];
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.useFakeTimers();
  vi.spyOn(Math, 'random').mockReturnValue(0);
});
afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function mount(side: TicketSide = 'customer', enabled = true) {
  const refresh = vi.fn();
  const states: TicketLiveState[] = [];
  function Probe() {
    states.push(useTicketLive(side, 5, refresh, enabled));
    return null;
  }
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  act(() => root!.render(createElement(MemoryRouter, null, createElement(Probe))));
  return { refresh, state: () => states[states.length - 1] };
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('useTicketLive', () => {
  it("opens the ticket's socket on its side and reads the ticket on ready and on every notice, without polling", () => {
    const { refresh, state } = mount('staff');
    expect(FakeSocket.last.url).toBe('ws://localhost:3000/api/admin/tickets/5/socket');
    act(() => FakeSocket.last.ready());
    expect(state()).toBe('live');
    expect(refresh).toHaveBeenCalledTimes(1);
    act(() => FakeSocket.last.changed());
    act(() => FakeSocket.last.changed());
    expect(refresh).toHaveBeenCalledTimes(3);
    advance(TICKET_POLL_MS * 5);
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('polls while the socket cannot open, tries again with a growing delay, and stops polling once it listens', () => {
    const { refresh, state } = mount();
    expect(FakeSocket.last.url).toBe('ws://localhost:3000/api/user/tickets/5/socket');
    act(() => FakeSocket.last.drop());
    expect(state()).toBe('polling');
    advance(TICKET_POLL_MS);
    expect(refresh).toHaveBeenCalledTimes(1);
    // attempt 1 after 1 s (done already), attempt 2 after 2 s more
    expect(FakeSocket.opened).toHaveLength(2);
    act(() => FakeSocket.last.drop());
    advance(realtimeRetryDelay(2, () => 0) - 1);
    expect(FakeSocket.opened).toHaveLength(2);
    advance(1);
    expect(FakeSocket.opened).toHaveLength(3);
    act(() => FakeSocket.last.ready());
    expect(state()).toBe('live');
    const calls = refresh.mock.calls.length;
    advance(TICKET_POLL_MS * 3);
    expect(refresh).toHaveBeenCalledTimes(calls);
  });

  it('falls back to polling when a live socket drops, and reconnects', () => {
    const { refresh, state } = mount();
    act(() => FakeSocket.last.ready());
    act(() => FakeSocket.last.drop(1001));
    expect(state()).toBe('polling');
    const before = refresh.mock.calls.length;
    advance(TICKET_POLL_MS);
    expect(refresh.mock.calls.length).toBeGreaterThan(before);
    expect(FakeSocket.opened).toHaveLength(2);
    act(() => FakeSocket.last.ready());
    expect(state()).toBe('live');
  });

  it(`gives the socket up after ${REALTIME_RETRY.maxAttempts} failed attempts in a row, and keeps polling`, () => {
    const { refresh } = mount();
    for (let attempt = 1; attempt <= REALTIME_RETRY.maxAttempts + 1; attempt++) {
      act(() => FakeSocket.last.drop());
      advance(REALTIME_RETRY.maxDelayMs * 1.2);
    }
    expect(FakeSocket.opened).toHaveLength(REALTIME_RETRY.maxAttempts + 1);
    advance(10 * 60_000);
    expect(FakeSocket.opened).toHaveLength(REALTIME_RETRY.maxAttempts + 1);
    const before = refresh.mock.calls.length;
    advance(TICKET_POLL_MS);
    expect(refresh).toHaveBeenCalledTimes(before + 1);
  });

  it('does not reconnect after the server closed on purpose (signed out), but keeps polling', () => {
    const { refresh, state } = mount();
    act(() => FakeSocket.last.ready());
    act(() => FakeSocket.last.drop(TICKET_LIVE_CLOSE.SESSION_ENDED));
    advance(5 * 60_000);
    expect(FakeSocket.opened).toHaveLength(1);
    expect(state()).toBe('polling');
    expect(refresh.mock.calls.length).toBeGreaterThan(1);
  });

  it('reads a change heard while the tab was hidden when it comes back into view', () => {
    const { refresh } = mount();
    act(() => FakeSocket.last.ready());
    const hidden = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    act(() => FakeSocket.last.changed());
    expect(refresh).toHaveBeenCalledTimes(1);
    hidden.mockReturnValue('visible');
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('opens nothing and polls nothing until the ticket has loaded, and closes its socket when the page goes', () => {
    const { refresh, state } = mount('customer', false);
    expect(FakeSocket.opened).toHaveLength(0);
    expect(state()).toBe('off');
    advance(TICKET_POLL_MS * 3);
    expect(refresh).not.toHaveBeenCalled();
    act(() => root?.unmount());
    root = null;

    mount();
    const socket = FakeSocket.last;
    act(() => root?.unmount());
    root = null;
    expect(socket.closedByPage).toBe(true);
  });
});
