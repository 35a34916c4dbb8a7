// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServedPluginManifest } from '../types';
import { PluginBoundary, PluginComponentHost, usePluginId } from './boundary';
import { kernelEvents, type PluginFailure } from './events';
import type { ComponentLoader } from './plugin';
import { Slot, slotEntries } from './slots';
import { registryStore, reportPluginFailure } from './stores/registry';
import { sessionStore } from './stores/session';
import { settingsStore } from './stores/settings';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

const widget =
  (text: string): ComponentLoader =>
  () =>
    Promise.resolve({ default: () => <p data-widget>{text}</p> });

const manifests: ServedPluginManifest[] = [
  {
    id: 'alpha',
    name: 'Alpha',
    version: '1.0.0',
    sdk: '^2.0.0',
    slots: [
      { slot: 'dashboard.widgets', component: 'Late', order: 300 },
      { slot: 'dashboard.widgets', component: 'Early', order: 10 },
      { slot: 'dashboard.announcements', component: 'News' },
    ],
  },
  {
    id: 'beta',
    name: 'Beta',
    version: '1.0.0',
    sdk: '^2.0.0',
    slots: [
      { slot: 'dashboard.widgets', component: 'Tie' },
      { slot: 'dashboard.widgets', component: 'Secret', permission: 'admin.stats.view' },
      { slot: 'dashboard.widgets', component: 'Flagged', flag: 'store_enabled' },
    ],
  },
  { id: 'gamma', name: 'Gamma', version: '1.0.0', sdk: '^2.0.0', slots: [{ slot: 'dashboard.widgets', component: 'Tie' }] },
];

const loaders = {
  alpha: { Late: widget('late'), Early: widget('early'), News: widget('news') },
  beta: { Tie: widget('beta tie'), Secret: widget('secret'), Flagged: widget('flagged') },
  gamma: { Tie: widget('gamma tie') },
};

let root: Root;
let container: HTMLElement;

beforeEach(() => {
  registryStore.getState().reset();
  sessionStore.getState().clear();
  settingsStore.setState({ settings: {}, loaded: true });
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.restoreAllMocks();
});

async function settle(times = 5) {
  for (let i = 0; i < times; i++) {
    await act(async () => {
      await new Promise((r) => setTimeout(r, 5));
    });
  }
}

describe('slotEntries', () => {
  it('orders by `order`, then manifest order, and filters by permission and flag', () => {
    const names = (perms: string[], settings: Record<string, boolean>) =>
      slotEntries('dashboard.widgets', manifests, loaders, perms, settings).map((e) => `${e.pluginId}.${e.component}`);
    expect(names([], {})).toEqual(['alpha.Early', 'beta.Tie', 'gamma.Tie', 'alpha.Late']);
    expect(names(['admin.stats.view'], { store_enabled: true })).toEqual(['alpha.Early', 'beta.Tie', 'beta.Secret', 'beta.Flagged', 'gamma.Tie', 'alpha.Late']);
    expect(names(['admin.root'], {})).toContain('beta.Secret');
  });

  it('leaves out plugins that provided no loader (refused or failed)', () => {
    expect(slotEntries('dashboard.widgets', manifests, { alpha: loaders.alpha }, [], {}).map((e) => e.component)).toEqual(['Early', 'Late']);
  });
});

describe('<Slot>', () => {
  it('renders every contribution in order', async () => {
    registryStore.getState().setManifests(manifests);
    for (const [id, l] of Object.entries(loaders)) registryStore.getState().commitPlugin(id, { routes: {}, slots: l });
    await act(async () => root.render(<Slot name="dashboard.widgets" />));
    await settle();
    expect([...container.querySelectorAll('[data-widget]')].map((p) => p.textContent)).toEqual(['early', 'beta tie', 'gamma tie', 'late']);
  });

  it('shows the fallback when nothing is contributed', async () => {
    await act(async () => root.render(<Slot name="nowhere" fallback={<span>empty</span>} />));
    expect(container.textContent).toBe('empty');
  });

  it('a throwing contribution shows an error card naming its plugin; the others still render', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failures: PluginFailure[] = [];
    const onFailure = (f: PluginFailure) => failures.push(f);
    kernelEvents.on('plugin:failed', onFailure);
    registryStore.getState().setManifests(manifests);
    registryStore.getState().commitPlugin('alpha', { routes: {}, slots: loaders.alpha });
    registryStore.getState().commitPlugin('beta', {
      routes: {},
      slots: {
        ...loaders.beta,
        Tie: () =>
          Promise.resolve({
            default: () => {
              throw new Error('widget exploded');
            },
          }),
      },
    });
    await act(async () => root.render(<Slot name="dashboard.widgets" />));
    await settle();
    kernelEvents.off('plugin:failed', onFailure);
    expect([...container.querySelectorAll('[data-widget]')].map((p) => p.textContent)).toEqual(['early', 'late']);
    const card = container.querySelector('[data-plugin-error="beta"]');
    expect(card?.getAttribute('role')).toBe('alert');
    expect(card?.textContent).toContain('“Beta” could not be displayed.');
    expect(card?.textContent).toContain('widget exploded');
    expect(failures).toEqual([{ pluginId: 'beta', phase: 'render', target: 'Tie', reason: 'plugin "beta" failed to render Tie: widget exploded' }]);
    expect(registryStore.getState().errors.map((e) => e.reason)).toEqual(['plugin "beta" failed to render Tie: widget exploded']);
  });
});

describe('PluginBoundary', () => {
  it('shows a skeleton while the chunk loads and tells components their plugin id', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => (release = r));
    function WhoAmI() {
      return <span data-who>{usePluginId()}</span>;
    }
    const loader: ComponentLoader = () => gate.then(() => ({ default: WhoAmI }));
    await act(async () => root.render(<PluginComponentHost pluginId="alpha" component="WhoAmI" loader={loader} />));
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
    await act(async () => release());
    await settle();
    expect(container.querySelector('[data-who]')?.textContent).toBe('alpha');
  });

  it('a chunk that fails to load shows the error card, and retry loads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let attempts = 0;
    const loader: ComponentLoader = () => {
      attempts++;
      if (attempts === 1) return Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
      return Promise.resolve({ default: () => <p>loaded</p> });
    };
    await act(async () => root.render(<PluginComponentHost pluginId="alpha" component="Page" loader={loader} variant="page" />));
    await settle();
    expect(container.querySelector('[data-plugin-error="alpha"]')?.textContent).toContain('Failed to fetch dynamically imported module');
    const retry = [...container.querySelectorAll('button')].find((b) => b.textContent === 'Try again')!;
    await act(async () => retry.click());
    await settle();
    expect(container.textContent).toBe('loaded');
    expect(attempts).toBe(2);
  });

  it('a module without a default component export is reported readably', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const loader = (() => Promise.resolve({ default: 'nope' })) as unknown as ComponentLoader;
    await act(async () => root.render(<PluginComponentHost pluginId="alpha" component="Broken" loader={loader} />));
    await settle();
    expect(container.textContent).toContain('the module of component "Broken" of plugin "alpha" has no default export that is a React component');
  });

  it('catches a throwing child rendered directly inside it', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Bomb(): never {
      throw new Error('kaboom');
    }
    await act(async () =>
      root.render(
        <div>
          <PluginBoundary pluginId="gamma">
            <Bomb />
          </PluginBoundary>
          <p>host still here</p>
        </div>,
      ),
    );
    expect(container.textContent).toContain('host still here');
    expect(container.querySelector('[data-plugin-error="gamma"]')).not.toBeNull();
  });

  it("installs an offered plugin's client when the slot first renders its component", async () => {
    const installs: string[] = [];
    registryStore.getState().setManifests(manifests);
    registryStore.getState().offerPlugins(['alpha', 'beta', 'gamma'], async (id) => {
      installs.push(id);
      await new Promise((r) => setTimeout(r, 1));
      registryStore.getState().commitPlugin(id, { routes: {}, slots: loaders[id as keyof typeof loaders] });
      return true;
    });
    expect(installs).toEqual([]);
    await act(async () => root.render(<Slot name="dashboard.widgets" />));
    await settle();
    expect([...container.querySelectorAll('[data-widget]')].map((p) => p.textContent)).toEqual(['early', 'beta tie', 'gamma tie', 'late']);
    // (the kernel's install shares one load between the calls: kernel/plugins/plugin-loader.test.ts)
    expect([...new Set(installs)].sort()).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('a contribution whose plugin fails to install is reported once (by the install) and leaves the slot', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const failures: PluginFailure[] = [];
    const onFailure = (f: PluginFailure) => failures.push(f);
    kernelEvents.on('plugin:failed', onFailure);
    registryStore.getState().setManifests(manifests);
    registryStore.getState().offerPlugins(['alpha', 'gamma'], async (id) => {
      if (id === 'gamma') {
        reportPluginFailure({ pluginId: 'gamma', phase: 'load', reason: 'plugin "gamma" was skipped: its bundle could not be loaded' });
        return false;
      }
      registryStore.getState().commitPlugin(id, { routes: {}, slots: loaders.alpha });
      return true;
    });
    await act(async () => root.render(<Slot name="dashboard.widgets" />));
    await settle();
    kernelEvents.off('plugin:failed', onFailure);
    expect([...container.querySelectorAll('[data-widget]')].map((p) => p.textContent)).toEqual(['early', 'late']);
    expect(container.querySelector('[data-plugin-error]')).toBeNull();
    expect(failures.map((f) => `${f.pluginId} ${f.phase}`)).toEqual(['gamma load']);
  });
});
