// What the plugins installed: the served manifests, the component loaders they provided for their
// routes and slots, and what failed (spec §8: a plugin that fails is skipped and reported; the host
// keeps running). The kernel builds the router and navigation from `manifests`; `<Slot>` and the
// kernel's route elements read the loaders.
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
  /** Ids of the plugins whose setup ran and whose registrations were accepted, in install order. */
  installed: string[];
  /** route component loaders: plugin id → component name → loader */
  routes: Record<string, Record<string, ComponentLoader>>;
  /** slot component loaders: plugin id → component name → loader */
  slots: Record<string, Record<string, ComponentLoader>>;
  /** plugins that were skipped, with why (phases load, sdk, contract, setup) */
  failed: Record<string, PluginFailure>;
  /** recent non-fatal failures (render, hook, event), newest last */
  errors: PluginErrorRecord[];
  setManifests(manifests: ServedPluginManifest[]): void;
  /** Records an accepted plugin and its loaders in one step (installs are all-or-nothing). */
  commitPlugin(id: string, loaders: { routes: Record<string, ComponentLoader>; slots: Record<string, ComponentLoader> }): void;
  /** Forgets everything a plugin registered (used when it is disposed, e.g. between tests). */
  removePlugin(id: string): void;
  recordFailure(failure: PluginFailure): void;
  /** Empties the registry (tests). */
  reset(): void;
}

const empty = () => ({ manifests: [], installed: [], routes: {}, slots: {}, failed: {}, errors: [] });

export const registryStore = create<RegistryState>()(
  immer((set) => ({
    ...empty(),
    setManifests(manifests) {
      set((s) => {
        s.manifests = manifests;
      });
    },
    commitPlugin(id, loaders) {
      set((s) => {
        s.routes[id] = { ...loaders.routes };
        s.slots[id] = { ...loaders.slots };
        if (!s.installed.includes(id)) s.installed.push(id);
        delete s.failed[id];
      });
    },
    removePlugin(id) {
      set((s) => {
        delete s.routes[id];
        delete s.slots[id];
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
