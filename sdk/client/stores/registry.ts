// What the plugins installed: the served manifests, the plugins whose routes, nav items and slots
// are offered, the component loaders they provided for their routes and slots, and what failed
// (spec §8: a plugin that fails is skipped and reported; the host keeps running). The kernel builds
// the router and navigation from `manifests` and `offered`; `<Slot>` and the kernel's route elements
// load components through pluginComponentLoader(), which installs an offered plugin's client on its
// first need.
import { create } from 'zustand';
import { immer } from 'zustand/middleware/immer';
import type { ServedPluginManifest } from '../../types';
import { FATAL_PLUGIN_PHASES, kernelEvents, type PluginFailure } from '../events';
import type { ComponentLoader } from '../plugin';

/** A non-fatal failure (render, hook, event) with when it happened, for the debug panel. */
export interface PluginErrorRecord extends PluginFailure {
  at: number;
}

/** How many non-fatal errors are kept (the oldest are dropped). */
export const MAX_PLUGIN_ERRORS = 100;

export interface RegistryState {
  /** Manifests of the enabled plugins, in `requires` order (GET /api/system/plugins). */
  manifests: ServedPluginManifest[];
  /**
   * Ids of the plugins whose routes, nav items and slots exist (accepted from their manifests at
   * start-up; their client installs on first need), and of every plugin installed since. A plugin in
   * `failed` is left out by {@link isPluginOffered}.
   */
  offered: string[];
  /** Ids of the plugins whose setup ran and whose registrations were accepted, in install order. */
  installed: string[];
  /** route component loaders: plugin id → component name → loader */
  routes: Record<string, Record<string, ComponentLoader>>;
  /** slot component loaders: plugin id → component name → loader */
  slots: Record<string, Record<string, ComponentLoader>>;
  /** overlay component loaders: plugin id → component name → loader */
  overlays: Record<string, Record<string, ComponentLoader>>;
  /** plugins that were skipped, with why (phases load, sdk, contract, setup) */
  failed: Record<string, PluginFailure>;
  /** recent non-fatal failures (render, hook, event), newest last */
  errors: PluginErrorRecord[];
  setManifests(manifests: ServedPluginManifest[]): void;
  /**
   * Offers plugins whose client is not installed yet; `install` installs one on first need (resolves
   * false when it failed, which it reports).
   */
  offerPlugins(ids: string[], install: (id: string) => Promise<boolean>): void;
  /** Records an accepted plugin and its loaders in one step (installs are all-or-nothing). */
  commitPlugin(id: string, loaders: { routes: Record<string, ComponentLoader>; slots: Record<string, ComponentLoader>; overlays?: Record<string, ComponentLoader> }): void;
  /** Forgets everything a plugin registered (used when it is disposed, e.g. between tests). */
  removePlugin(id: string): void;
  recordFailure(failure: PluginFailure): void;
  /** Empties the registry (tests). */
  reset(): void;
}

const empty = () => ({ manifests: [], offered: [], installed: [], routes: {}, slots: {}, overlays: {}, failed: {}, errors: [] });

/** The kernel's on-demand install (null: only what is installed already renders, as in the test kit). */
let installOnDemand: ((id: string) => Promise<boolean>) | null = null;
/** One loader per component (`<kind>:<plugin>:<component>`): React.lazy caches by loader identity. */
const componentLoaders = new Map<string, ComponentLoader>();

function forgetComponentLoaders(pluginId?: string): void {
  for (const key of [...componentLoaders.keys()]) if (pluginId === undefined || key.split(':')[1] === pluginId) componentLoaders.delete(key);
}

export const registryStore = create<RegistryState>()(
  immer((set) => ({
    ...empty(),
    setManifests(manifests) {
      set((s) => {
        s.manifests = manifests;
      });
    },
    offerPlugins(ids, install) {
      installOnDemand = install;
      set((s) => {
        for (const id of ids) if (!s.offered.includes(id)) s.offered.push(id);
      });
    },
    commitPlugin(id, loaders) {
      set((s) => {
        if (!s.offered.includes(id)) s.offered.push(id);
        s.routes[id] = { ...loaders.routes };
        s.slots[id] = { ...loaders.slots };
        s.overlays[id] = { ...loaders.overlays };
        if (!s.installed.includes(id)) s.installed.push(id);
        delete s.failed[id];
      });
    },
    removePlugin(id) {
      forgetComponentLoaders(id);
      set((s) => {
        s.offered = s.offered.filter((x) => x !== id);
        delete s.routes[id];
        delete s.slots[id];
        delete s.overlays[id];
        s.installed = s.installed.filter((x) => x !== id);
      });
    },
    recordFailure(failure) {
      set((s) => {
        if (FATAL_PLUGIN_PHASES.includes(failure.phase)) {
          s.failed[failure.pluginId] = failure;
        } else {
          s.errors.push({ ...failure, at: Date.now() });
          if (s.errors.length > MAX_PLUGIN_ERRORS) s.errors.splice(0, s.errors.length - MAX_PLUGIN_ERRORS);
        }
      });
    },
    reset() {
      installOnDemand = null;
      forgetComponentLoaders();
      set(empty());
    },
  })),
);

/**
 * Reports a plugin failure everywhere it must show: the console (the debug panel's Errors tab collects
 * console errors), the registry (skipped plugins, recent errors) and the `plugin:failed` event.
 */
export function reportPluginFailure(failure: PluginFailure, error?: unknown): void {
  const where = failure.target ? ` (${failure.phase} ${failure.target})` : ` (${failure.phase})`;
  console.error(`[plugin:${failure.pluginId}]${where} ${failure.reason}`, ...(error === undefined ? [] : [error]));
  registryStore.getState().recordFailure(failure);
  try {
    kernelEvents.emit('plugin:failed', failure);
  } catch (listenerError) {
    // a throwing listener must not turn one report into a crash of the reporter
    console.error('[sdk] a plugin:failed listener threw', listenerError);
  }
}

/** The loader a plugin provided for a route component, if any. */
export function getRouteLoader(pluginId: string, component: string): ComponentLoader | undefined {
  const loaders: Record<string, ComponentLoader> | undefined = registryStore.getState().routes[pluginId];
  return loaders?.[component];
}

/** The loader a plugin provided for a slot component, if any. */
export function getSlotLoader(pluginId: string, component: string): ComponentLoader | undefined {
  const loaders: Record<string, ComponentLoader> | undefined = registryStore.getState().slots[pluginId];
  return loaders?.[component];
}

/** The loader a plugin provided for an overlay component, if any. */
export function getOverlayLoader(pluginId: string, component: string): ComponentLoader | undefined {
  const loaders: Record<string, ComponentLoader> | undefined = registryStore.getState().overlays[pluginId];
  return loaders?.[component];
}

/** Are a plugin's routes, nav items and slots offered (accepted, and not failed)? */
export function isPluginOffered(state: Pick<RegistryState, 'offered' | 'failed'>, pluginId: string): boolean {
  return state.offered.includes(pluginId) && !state.failed[pluginId];
}

/**
 * Thrown by a component loader whose plugin could not be installed. Its failure was reported already
 * (with its phase and reason), so the boundary that catches this shows it without reporting it again.
 */
export class PluginUnavailableError extends Error {
  constructor(
    readonly pluginId: string,
    reason: string,
  ) {
    super(reason);
    this.name = 'PluginUnavailableError';
  }
}

/**
 * The loader of a route, slot or overlay component, one per component: it installs the plugin's
 * client first when the kernel has not installed it yet (its first need), then calls the loader the
 * plugin's setup() provided.
 */
export function pluginComponentLoader(kind: 'route' | 'slot' | 'overlay', pluginId: string, component: string): ComponentLoader {
  const key = `${kind}:${pluginId}:${component}`;
  let loader = componentLoaders.get(key);
  if (!loader) {
    const getLoader = kind === 'route' ? getRouteLoader : kind === 'slot' ? getSlotLoader : getOverlayLoader;
    const provided = () => getLoader(pluginId, component);
    loader = async () => {
      if (!provided() && installOnDemand && !(await installOnDemand(pluginId))) {
        throw new PluginUnavailableError(pluginId, registryStore.getState().failed[pluginId]?.reason ?? `plugin "${pluginId}" could not be installed`);
      }
      const own = provided();
      if (!own) throw new PluginUnavailableError(pluginId, `plugin "${pluginId}" provides no ${kind} component "${component}"`);
      return own();
    };
    componentLoaders.set(key, loader);
  }
  return loader;
}

/** Readable text of anything thrown. */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
