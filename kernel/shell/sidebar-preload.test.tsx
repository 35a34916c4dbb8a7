// @vitest-environment jsdom
// spec §9 preloadCritical: pointing at or focusing a menu link starts loading its page (once); with the
// setting off nothing loads before the click.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { registryStore } from '../../sdk/client/stores/registry';
import { uiStore } from '../../sdk/client/stores/ui';
import type { ServedPluginManifest } from '../../sdk/types';
import { Sidebar } from './Sidebar';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root | null = null;
let container: HTMLElement | null = null;
afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  registryStore.getState().reset();
  uiStore.getState().resetSettings();
});

async function renderSidebar(pluginId: string) {
  const manifest = {
    id: pluginId,
    name: pluginId,
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: `/${pluginId}`, component: 'DeskPage', auth: true }],
    nav: [{ route: `/${pluginId}`, label: 'Desk', icon: 'ticket' }],
    slots: [],
    permissions: [],
    settings: [],
    locales: [],
  } as unknown as ServedPluginManifest;
  const page = vi.fn(async () => ({ default: () => null }));
  registryStore.getState().setManifests([manifest]);
  registryStore.getState().commitPlugin(pluginId, { routes: { DeskPage: page }, slots: {} });
  const router = createMemoryRouter([{ path: '*', element: createElement(Sidebar, { open: false, onClose: () => undefined }) }]);
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  await act(async () => {
    root!.render(createElement(RouterProvider, { router }));
  });
  const link = container.querySelector<HTMLAnchorElement>(`a[data-nav-route="/${pluginId}"]`)!;
  return { page, link };
}

describe('loading pages ahead (preloadCritical, on by default)', () => {
  it('focusing or pointing at a menu link loads its page once', async () => {
    const { page, link } = await renderSidebar('desk-a');
    expect(page).not.toHaveBeenCalled();
    await act(async () => link.focus());
    expect(page).toHaveBeenCalledTimes(1);
    await act(async () => {
      link.blur();
      link.dispatchEvent(new MouseEvent('pointerover', { bubbles: true }));
      link.focus();
    });
    expect(page).toHaveBeenCalledTimes(1);
  });

  it('pointing at it works as well', async () => {
    const { page, link } = await renderSidebar('desk-b');
    await act(async () => link.dispatchEvent(new MouseEvent('pointerover', { bubbles: true })));
    expect(page).toHaveBeenCalledTimes(1);
  });

  it('with the setting off nothing loads before the click', async () => {
    uiStore.getState().updateSettings('performance', { preloadCritical: false });
    const { page, link } = await renderSidebar('desk-c');
    await act(async () => {
      link.focus();
      link.dispatchEvent(new MouseEvent('pointerover', { bubbles: true }));
    });
    expect(page).not.toHaveBeenCalled();
  });
});
