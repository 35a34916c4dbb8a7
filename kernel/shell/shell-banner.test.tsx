// @vitest-environment jsdom
// The app shell's `shell.banner` slot: what plugins contribute shows above the page, in a block with
// room under it; with no contribution the shell draws nothing there at all.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { registryStore } from '../../sdk/client/stores/registry';
import type { ServedPluginManifest } from '../../sdk/types';
import { ShellBanners } from './AppShell';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;

afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  registryStore.getState().reset();
});

const manifest = (id: string, extra: Partial<ServedPluginManifest>): ServedPluginManifest =>
  ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', routes: [], nav: [], slots: [], permissions: [], settings: [], locales: [], ...extra }) as unknown as ServedPluginManifest;

function Outage() {
  return createElement('p', { role: 'alert' }, 'Node 3 is down');
}

async function renderBanners(manifests: ServedPluginManifest[]) {
  registryStore.getState().setManifests(manifests);
  for (const m of manifests) {
    const slots = Object.fromEntries((m.slots ?? []).map((s) => [s.component, async () => ({ default: Outage })]));
    registryStore.getState().commitPlugin(m.id, { routes: {}, slots });
  }
  const router = createMemoryRouter([{ path: '*', element: createElement('main', null, createElement(ShellBanners), createElement('h1', null, 'Page')) }]);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(RouterProvider, { router }));
  });
  // the slot's component is loaded lazily
  await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));
  return container;
}

describe('the shell.banner slot', () => {
  it('shows a plugin’s banner before the page', async () => {
    const view = await renderBanners([manifest('notices', { slots: [{ slot: 'shell.banner', component: 'Outage' }] } as Partial<ServedPluginManifest>)]);
    const main = view.querySelector('main')!;
    expect(main.firstElementChild?.textContent).toBe('Node 3 is down');
    expect(main.lastElementChild?.tagName).toBe('H1');
  });

  it('draws nothing when no plugin contributes one', async () => {
    const view = await renderBanners([manifest('other', { slots: [{ slot: 'dashboard.widgets', component: 'Outage' }] } as Partial<ServedPluginManifest>)]);
    const main = view.querySelector('main')!;
    expect(main.children).toHaveLength(1);
    expect(main.firstElementChild?.tagName).toBe('H1');
  });
});
