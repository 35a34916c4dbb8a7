// @vitest-environment jsdom
// The sidebar renders the sections plugins add through the `nav.sections` slot after its own nav
// items (told whether anything comes before them), and nothing of a plugin that is not served.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { addPluginCatalogue } from '../../sdk/client/i18n';
import { registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { SidebarLink, SidebarSection, type SidebarSectionSlotProps } from '../../sdk/client/ui/sidebar';
import type { ServedPluginManifest } from '../../sdk/types';
import en from '../../locales/en.json';
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
  sessionStore.getState().clear();
});

/** a plugin's section: one external link, and whether the sidebar said it comes first */
function ExtraLinks({ first }: SidebarSectionSlotProps) {
  return (
    <SidebarSection section="links" first={first}>
      <SidebarLink href="https://example.com/x" icon="link" label={`Example (${first ? 'first' : 'after'})`} />
    </SidebarSection>
  );
}

const manifest = (id: string, extra: Partial<ServedPluginManifest>): ServedPluginManifest =>
  ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', routes: [], nav: [], slots: [], permissions: [], settings: [], locales: [], ...extra }) as unknown as ServedPluginManifest;

async function renderSidebar(manifests: ServedPluginManifest[]) {
  addPluginCatalogue('kernel', 'en', en);
  registryStore.getState().setManifests(manifests);
  for (const m of manifests) {
    const slots = Object.fromEntries((m.slots ?? []).map((s) => [s.component, async () => ({ default: ExtraLinks })]));
    registryStore.getState().commitPlugin(m.id, { routes: {}, slots });
  }
  const router = createMemoryRouter([{ path: '*', element: createElement(Sidebar, { open: true, onClose: () => undefined }) }]);
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

describe('the sidebar’s nav.sections slot', () => {
  it('renders a plugin’s section after the nav items, told it is not first', async () => {
    const view = await renderSidebar([
      manifest('pages', {
        routes: [{ path: '/home', component: 'Home', auth: true }],
        nav: [{ route: '/home', label: 'Home', icon: 'home', section: 'main' }],
      } as Partial<ServedPluginManifest>),
      manifest('extra', { slots: [{ slot: 'nav.sections', component: 'ExtraLinks' }] } as Partial<ServedPluginManifest>),
    ]);
    const sections = [...view.querySelectorAll('nav section')];
    expect(sections.map((s) => s.getAttribute('aria-label'))).toEqual([en.nav.sections.main, en.nav.sections.links]);
    const link = sections[1].querySelector('a')!;
    expect(link.textContent).toContain('Example (after)');
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')?.split(' ')).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    expect(link.textContent).toContain(en.shell.opensInNewTab);
  });

  it('tells the section it is first when there are no nav items, and shows nothing of a plugin that is not served', async () => {
    const view = await renderSidebar([manifest('extra', { slots: [{ slot: 'nav.sections', component: 'ExtraLinks' }] } as Partial<ServedPluginManifest>)]);
    expect(view.querySelector('nav section a')?.textContent).toContain('Example (first)');

    await act(async () => registryStore.getState().setManifests([]));
    expect(view.querySelector('nav section')).toBeNull();
  });
});
