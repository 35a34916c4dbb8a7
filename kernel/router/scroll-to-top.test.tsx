// @vitest-environment jsdom
// spec §2 rule 5: every navigation scrolls to the top — but the load itself is none: the browser
// placed the page, and a visitor may have scrolled a pre-rendered page before the kernel took it over.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registryStore } from '../../sdk/client/stores/registry';
import type { ServedPluginManifest } from '../../sdk/types';
import { createKernelHooks } from '../lifecycle';
import { createKernelRoutes } from './create-router';
import { tapKernelGuards } from './guards';
import { buildRouteTable } from './route-table';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const manifests: ServedPluginManifest[] = [
  {
    id: 'legal',
    name: 'Legal',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [
      { path: '/privacy-policy', component: 'PrivacyPage', layout: 'bare' },
      { path: '/terms-of-service', component: 'TermsPage', layout: 'bare' },
    ],
  },
];

let root: Root | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  registryStore.getState().reset();
  vi.restoreAllMocks();
});

describe('scrolling on navigation (spec §2 rule 5)', () => {
  it('leaves the page where it is on the load, and scrolls to the top on every navigation after it', async () => {
    registryStore.getState().commitPlugin('legal', {
      routes: { PrivacyPage: async () => ({ default: () => createElement('p', null, 'privacy') }), TermsPage: async () => ({ default: () => createElement('p', null, 'terms') }) },
      slots: {},
    });
    const hooks = createKernelHooks();
    tapKernelGuards(hooks, () => ({ hasSessionCookie: false, storedRole: null, permissions: [], flagEnabled: () => true }));
    const routes = createKernelRoutes({
      table: buildRouteTable(manifests, new Set(['legal'])),
      hooks,
      storage: { getItem: () => null, removeItem: () => undefined },
      effects: { saveRedirectTarget: () => undefined, showAccessDenied: async () => undefined },
    });
    const router = createMemoryRouter(routes, { initialEntries: ['/privacy-policy'] });
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const host = document.createElement('div');
    document.body.append(host);
    root = createRoot(host);
    await act(async () => {
      root?.render(createElement(RouterProvider, { router }));
    });
    await vi.waitFor(() => expect(host.textContent).toContain('privacy'));
    expect(scrollTo).not.toHaveBeenCalled();
    await act(async () => {
      await router.navigate('/terms-of-service');
    });
    await vi.waitFor(() => expect(host.textContent).toContain('terms'));
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    const calls = scrollTo.mock.calls.length;
    await act(async () => {
      await router.navigate(-1);
    });
    // back to the first page of the load: a navigation too
    expect(scrollTo.mock.calls.length).toBe(calls + 1);
    host.remove();
  });
});
