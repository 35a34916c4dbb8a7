// @vitest-environment jsdom
// The sidebar's counts: fetched only for a signed-in user on a panel whose plugins name badges, one
// fetch at a time (a request asked for meanwhile runs once after it), navigation throttled, a session
// end clearing them (and dropping an answer still under way); the pill hides at 0, says 99+ above 99
// and names the count, in the compact sidebar too.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { kernelEvents } from '../../sdk/client/events';
import { addPluginCatalogue } from '../../sdk/client/i18n';
import { refreshNavBadges } from '../../sdk/client/nav-badges';
import { registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { UI_SETTINGS_DEFAULTS, uiStore } from '../../sdk/client/stores/ui';
import type { ServedPluginManifest } from '../../sdk/types';
import en from '../../locales/en.json';
import { createNavBadgeFetcher, namesBadges, NAV_BADGES_THROTTLE_MS, NAV_BADGES_URL, navBadgeStore, readCounts, type NavBadgeCounts } from './nav-badges';
import { buildNavGroups } from './nav-model';
import { Sidebar } from './Sidebar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const manifest = (id: string, extra: Partial<ServedPluginManifest>): ServedPluginManifest =>
  ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', routes: [], nav: [], slots: [], permissions: [], settings: [], locales: [], ...extra }) as unknown as ServedPluginManifest;

const desk = manifest('desk', {
  nav: [
    { route: '/desk', label: 'Desk', icon: 'ticket', badge: 'unread' },
    { route: '/desk/archive', label: 'Archive', icon: 'ticket' },
  ],
});

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const answer = (badges: unknown, status = 200) => new Response(JSON.stringify({ badges }), { status, headers: { 'content-type': 'application/json' } });

function fetcher(options: { wanted?: () => boolean; respond?: () => Promise<Response> } = {}) {
  let now = 1_000_000;
  const calls: string[] = [];
  const shown: NavBadgeCounts[] = [];
  const f = createNavBadgeFetcher({
    fetch: async (url) => {
      calls.push(url);
      return options.respond ? options.respond() : answer({ 'desk.unread': calls.length });
    },
    now: () => now,
    wanted: options.wanted ?? (() => true),
    set: (counts) => shown.push(counts),
  });
  return { f, calls, shown, advance: (ms: number) => (now += ms) };
}

describe('the nav badge fetcher', () => {
  it('fetches the counts and shows them; nothing while not wanted (signed out, or no plugin names a badge)', async () => {
    let wanted = false;
    const { f, calls, shown } = fetcher({ wanted: () => wanted });
    await f.refresh();
    expect(calls).toEqual([]);
    wanted = true;
    await f.refresh();
    expect(calls).toEqual([NAV_BADGES_URL]);
    expect(shown).toEqual([{ 'desk.unread': 1 }]);
    expect(namesBadges([desk])).toBe(true);
    expect(namesBadges([manifest('plain', { nav: [{ route: '/x', label: 'X' }] } as Partial<ServedPluginManifest>)])).toBe(false);
  });

  it('runs one fetch at a time: refreshes asked for meanwhile make one more fetch after it', async () => {
    const gates = [deferred<Response>(), deferred<Response>()];
    let n = 0;
    const { f, calls, shown } = fetcher({ respond: () => gates[n++].promise });
    const first = f.refresh();
    const second = f.refresh();
    const third = f.refresh();
    expect(calls).toHaveLength(1);
    gates[0].resolve(answer({ 'desk.unread': 1 }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    gates[1].resolve(answer({ 'desk.unread': 2 }));
    await Promise.all([first, second, third]);
    expect(calls).toHaveLength(2);
    expect(shown.at(-1)).toEqual({ 'desk.unread': 2 });
  });

  it('throttles navigation: at most one fetch per NAV_BADGES_THROTTLE_MS', async () => {
    const { f, calls, advance } = fetcher();
    await f.navigated();
    await f.navigated();
    advance(NAV_BADGES_THROTTLE_MS - 1);
    await f.navigated();
    expect(calls).toHaveLength(1);
    advance(1);
    await f.navigated();
    expect(calls).toHaveLength(2);
    // an explicit refresh is never throttled
    await f.refresh();
    expect(calls).toHaveLength(3);
  });

  it('clears the counts at a session end and drops an answer that arrives after it', async () => {
    const gate = deferred<Response>();
    const { f, shown } = fetcher({ respond: () => gate.promise });
    const run = f.refresh();
    f.clear();
    gate.resolve(answer({ 'desk.unread': 5 }));
    await run;
    expect(shown).toEqual([{}]);
  });

  it('keeps the counts on a failed answer, clears them on 401, and keeps only whole numbers ≥ 0', async () => {
    const responses = [answer({ 'desk.unread': 3 }), new Response('oops', { status: 500 }), answer({}, 401)];
    const { f, shown } = fetcher({ respond: async () => responses.shift()! });
    await f.refresh();
    await f.refresh();
    expect(shown).toEqual([{ 'desk.unread': 3 }]);
    await f.refresh();
    expect(shown.at(-1)).toEqual({});
    expect(readCounts({ badges: { a: 1, b: -1, c: 1.5, d: '2', e: 0 } })).toEqual({ a: 1, e: 0 });
    expect(readCounts({ badges: [] })).toEqual({});
    expect(readCounts(null)).toEqual({});
  });
});

describe('refreshNavBadges', () => {
  it('asks the kernel through its event, which a plugin page may call', () => {
    const heard: unknown[] = [];
    const listener = (payload: unknown) => heard.push(payload);
    kernelEvents.on('nav:refresh-badges', listener);
    try {
      refreshNavBadges();
    } finally {
      kernelEvents.off('nav:refresh-badges', listener);
    }
    expect(heard).toEqual([undefined]);
  });
});

describe('the nav model', () => {
  it('gives an item with a badge the key of its count, `<plugin id>.<badge>`', () => {
    const groups = buildNavGroups([desk], new Set(['desk']), { permissions: [], role: 1, settings: {}, isFlagEnabled: () => true });
    expect(groups[0].items.map((i) => [i.route, i.badge])).toEqual([
      ['/desk', 'desk.unread'],
      ['/desk/archive', undefined],
    ]);
  });
});

let root: Root | null = null;
let container: HTMLElement | null = null;
afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  registryStore.getState().reset();
  sessionStore.getState().clear();
  navBadgeStore.setState({ counts: {} });
});

async function renderSidebar() {
  addPluginCatalogue('kernel', 'en', en);
  registryStore.getState().setManifests([desk]);
  registryStore.getState().commitPlugin('desk', { routes: {}, slots: {} });
  const router = createMemoryRouter([{ path: '*', element: createElement(Sidebar, { open: true, onClose: () => undefined }) }]);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(RouterProvider, { router }));
  });
  return container;
}

const pillOf = (view: HTMLElement, route: string) => view.querySelector(`a[data-nav-route="${route}"] [data-nav-badge]`);

describe('the sidebar’s count pill', () => {
  it('shows the count with an accessible name, 99+ above 99, and nothing at 0', async () => {
    const view = await renderSidebar();
    expect(pillOf(view, '/desk')).toBeNull();
    await act(async () => navBadgeStore.setState({ counts: { 'desk.unread': 4 } }));
    expect(pillOf(view, '/desk')?.textContent).toBe('4');
    expect(pillOf(view, '/desk')?.getAttribute('aria-label')).toBe('New: 4');
    expect(pillOf(view, '/desk/archive')).toBeNull();
    await act(async () => navBadgeStore.setState({ counts: { 'desk.unread': 250 } }));
    expect(pillOf(view, '/desk')?.textContent).toBe('99+');
    expect(pillOf(view, '/desk')?.getAttribute('aria-label')).toBe('New: 250');
    await act(async () => navBadgeStore.setState({ counts: { 'desk.unread': 0 } }));
    expect(pillOf(view, '/desk')).toBeNull();
  });

  it('shows in the compact sidebar too', async () => {
    const look = uiStore.getState().settings;
    uiStore.setState({ settings: { ...look, sidebar: { ...look.sidebar, compactMode: true } } });
    try {
      navBadgeStore.setState({ counts: { 'desk.unread': 2 } });
      const view = await renderSidebar();
      expect(pillOf(view, '/desk')?.textContent).toBe('2');
    } finally {
      uiStore.setState({ settings: look });
    }
  });
});

describe('the count pill follows the notifications settings (spec §9)', () => {
  const withNotifications = async (patch: Partial<typeof UI_SETTINGS_DEFAULTS.notifications>, performance: Partial<typeof UI_SETTINGS_DEFAULTS.performance> = {}) => {
    const look = uiStore.getState().settings;
    uiStore.setState({ settings: { ...look, notifications: { ...UI_SETTINGS_DEFAULTS.notifications, ...patch }, performance: { ...look.performance, ...performance } } });
    return () => uiStore.setState({ settings: look });
  };

  it('by default: a filled accent pill at opacity 0.95 with a glow, coming in with a fade', async () => {
    navBadgeStore.setState({ counts: { 'desk.unread': 3 } });
    const view = await renderSidebar();
    const pill = pillOf(view, '/desk') as HTMLElement;
    const style = getComputedStyle(pill);
    expect(style.backgroundColor).toBe('rgba(109, 124, 255, 0.95)');
    expect(style.boxShadow).toContain('14px');
    expect(pill.dataset.animation).toBe('fade');
    expect(style.animation || style.animationName).toMatch(/animation-|fade|280ms/);
  });

  it('changes live: no background, no glow, a lower opacity, another animation — and none with reduced motion', async () => {
    navBadgeStore.setState({ counts: { 'desk.unread': 3 } });
    const view = await renderSidebar();
    const restore = await withNotifications({ showBackground: false, glow: false, animation: 'bounce' });
    try {
      await act(async () => undefined);
      let pill = pillOf(view, '/desk') as HTMLElement;
      expect(getComputedStyle(pill).backgroundColor).toMatch(/^(transparent|rgba\(0, 0, 0, 0\))$/);
      expect(getComputedStyle(pill).boxShadow).toBe('none');
      expect(pill.dataset.animation).toBe('bounce');
      await act(async () => uiStore.getState().updateSettings('notifications', { showBackground: true, opacity: 0.5 }));
      pill = pillOf(view, '/desk') as HTMLElement;
      expect(getComputedStyle(pill).backgroundColor).toBe('rgba(109, 124, 255, 0.5)');
      await act(async () => uiStore.getState().updateSettings('performance', { reduceMotion: true }));
      pill = pillOf(view, '/desk') as HTMLElement;
      expect(pill.dataset.animation).toBe('none');
      expect(getComputedStyle(pill).animation || 'none').toMatch(/none/);
    } finally {
      restore();
    }
  });
});
