// @vitest-environment jsdom
// The non-blocking "reconnecting" banner: shown while a realtime connection waits to try again, with
// the countdown, the attempt and "Reconnect now"; nothing while every connection is live, connecting,
// unavailable or ended.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addPluginCatalogue } from '../../sdk/client/i18n';
import { realtimeStore, type RealtimeEntry } from '../../sdk/client/realtime';
import en from '../../locales/en.json';
import { RealtimeBanner, reconnectingConnection } from './RealtimeBanner';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;

beforeAll(() => addPluginCatalogue('kernel', 'en', en));

afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  realtimeStore.setState({ connections: {} });
  vi.useRealTimers();
});

const entry = (patch: Partial<RealtimeEntry>): RealtimeEntry => ({ phase: 'live', attempt: 0, retryAt: null, endReason: null, reconnectNow: () => undefined, ...patch });

function render() {
  container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  act(() => root!.render(createElement(RealtimeBanner)));
  return container;
}

describe('the reconnecting banner', () => {
  it('shows nothing while no connection waits to try again', () => {
    realtimeStore.setState({ connections: { a: entry({ phase: 'live' }), b: entry({ phase: 'unavailable', attempt: 5 }), c: entry({ phase: 'ended', endReason: 'session' }) } });
    expect(render().innerHTML).toBe('');
  });

  it('says the connection was lost, counts down to the next attempt, and tries at once on request', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const reconnectNow = vi.fn();
    realtimeStore.setState({ connections: { a: entry({ phase: 'reconnecting', attempt: 2, retryAt: Date.now() + 4_000, reconnectNow }) } });
    const view = render();
    const banner = view.querySelector('[role="status"]') as HTMLElement;
    expect(banner.getAttribute('aria-live')).toBe('polite');
    expect(banner.textContent).toContain('Connection lost. Reconnecting in 4 s (attempt 2 of 5).');
    act(() => vi.advanceTimersByTime(1_000));
    expect(banner.textContent).toContain('Reconnecting in 3 s');
    act(() => (view.querySelector('button') as HTMLButtonElement).click());
    expect(reconnectNow).toHaveBeenCalledTimes(1);
    // back: the banner goes
    act(() => realtimeStore.setState({ connections: { a: entry({ phase: 'live' }) } }));
    expect(view.innerHTML).toBe('');
  });

  it('speaks of the connection waiting longest when several wait', () => {
    const connections = { a: entry({ phase: 'reconnecting', attempt: 1, retryAt: 1_000 }), b: entry({ phase: 'reconnecting', attempt: 3, retryAt: 9_000 }) };
    expect(reconnectingConnection(connections)?.attempt).toBe(3);
  });
});
