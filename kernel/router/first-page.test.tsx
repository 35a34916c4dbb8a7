// @vitest-environment jsdom
// Issue 15, the first page of a load: the mount step waits for the router's first navigation (which
// loads the page's code), the page then renders without a Suspense fallback and without coming in;
// the pages after it keep their transition.
import { act, createElement, Suspense } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PluginComponentHost, prepareComponent } from '../../sdk/client/boundary';
import { UI_SETTINGS_DEFAULTS, uiStore } from '../../sdk/client/stores/ui';
import { whenFirstPageReady, type InitializingRouter } from './first-page';
import { PageTransition } from './transitions';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let host: HTMLElement | null = null;

function mount(): Root {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  return root;
}

afterEach(() => {
  act(() => root?.unmount());
  host?.remove();
  root = null;
  host = null;
});

function fakeRouter(initialized = false) {
  const listeners = new Set<(state: { initialized: boolean }) => void>();
  const router: InitializingRouter & { state: { initialized: boolean }; finish(): void; listeners: typeof listeners } = {
    state: { initialized },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    finish() {
      this.state = { initialized: true };
      for (const listener of [...listeners]) listener(this.state);
    },
    listeners,
  };
  return router;
}

describe('the mount step waits for the first page', () => {
  it('resolves once the router finished its first navigation, and stops listening', async () => {
    const router = fakeRouter();
    let ready: boolean | null = null;
    const waiting = whenFirstPageReady(router, 10_000).then((value) => {
      ready = value;
    });
    await Promise.resolve();
    expect(ready).toBeNull();
    router.finish();
    await waiting;
    expect(ready).toBe(true);
    expect(router.listeners.size).toBe(0);
  });

  it('does not wait for a router that is already initialized', async () => {
    await expect(whenFirstPageReady(fakeRouter(true), 10_000)).resolves.toBe(true);
  });

  it('mounts anyway (loading screen) when the first page takes longer than the wait', async () => {
    vi.useFakeTimers();
    try {
      const router = fakeRouter();
      const waiting = whenFirstPageReady(router, 3000);
      vi.advanceTimersByTime(3000);
      await expect(waiting).resolves.toBe(false);
      expect(router.listeners.size).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a prepared page renders without a fallback', () => {
  const Page = () => createElement('p', { 'data-page': '' }, 'the login form');

  it('shows the component in the first render once prepareComponent loaded it', async () => {
    const loader = vi.fn(async () => ({ default: Page }));
    await prepareComponent(loader);
    act(() => mount().render(createElement(PluginComponentHost, { pluginId: 'auth', component: 'LoginPage', loader, variant: 'page' })));
    expect(host?.querySelector('[data-page]')?.textContent).toBe('the login form');
    expect(host?.querySelector('[data-plugin-loading]')).toBeNull();
    expect(loader).toHaveBeenCalledTimes(1);
  });

  it('an unprepared page still shows its loading state first (later pages, slots)', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const loader = vi.fn(async () => {
      await gate;
      return { default: Page };
    });
    act(() => mount().render(createElement(Suspense, null, createElement(PluginComponentHost, { pluginId: 'auth', component: 'LoginPage', loader, variant: 'page' }))));
    expect(host?.querySelector('[data-plugin-loading="auth"]')).not.toBeNull();
    await act(async () => {
      release();
      await gate;
    });
  });

  it('a page whose preparation failed is left to the render, which loads it again', async () => {
    const loader = vi.fn(async () => {
      throw new Error('offline');
    });
    await expect(prepareComponent(loader)).resolves.toBeUndefined();
    await act(async () => {
      mount().render(createElement(PluginComponentHost, { pluginId: 'auth', component: 'LoginPage', loader, variant: 'page' }));
    });
    expect(loader).toHaveBeenCalledTimes(2);
    expect(host?.querySelector('[data-plugin-error="auth"]')).not.toBeNull();
  });
});

describe('page transitions of a load', () => {
  it('the first page does not come in; the next one does', () => {
    uiStore.setState({ pageTransition: 'fade', systemReducedMotion: false, settings: { ...uiStore.getState().settings, performance: UI_SETTINGS_DEFAULTS.performance } });
    const r = mount();
    act(() => r.render(<PageTransition key="/auth/login">login</PageTransition>));
    const first = host?.querySelector('[data-page-transition]') as HTMLElement;
    expect(first.dataset.transitionPhase).toBe('idle');
    expect(getComputedStyle(first).animation ?? '').not.toMatch(/ms/);
    act(() => r.render(<PageTransition key="/dashboard">dashboard</PageTransition>));
    const second = host?.querySelector('[data-page-transition]') as HTMLElement;
    expect(second.textContent).toBe('dashboard');
    expect(second.dataset.transitionPhase).toBe('in');
  });
});
