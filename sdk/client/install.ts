// The one implementation of `PluginContext` and of installing a plugin, used by the kernel at start-up
// and by `@orepanel/sdk/testing` (so a registration the kernel would refuse fails in a plugin's tests
// too). Installs are all-or-nothing: what setup() registers is staged, checked against plugin.json
// (the manifest is the truth, Grafana's ExtensionsValidator is the model) and committed only when the
// whole setup succeeded — a refused plugin leaves no route, slot, tap or handler behind.
//
// Kernel side, in short:
//   const result = installPlugin(module.default, manifest, { hooks: kernel.hooks });
//   if (!result.ok) continue; // already reported (console, registryStore.failed, 'plugin:failed')
import type { PluginManifest } from '../types';
import { sdkRangeProblem } from '../manifest';
import { diagnosticsLog, readDiagnostics, type Diagnostics } from './diagnostics';
import { isKernelEventName, kernelEvents, type EventBus, type PluginFailure } from './events';
import {
  describeNonPlugin,
  isKernelHookName,
  KERNEL_HOOK_NAMES,
  PluginContractError,
  type ComponentLoader,
  type ComponentRegistry,
  type KernelHookName,
  type KernelHookSignatures,
  type OrepanelPlugin,
  type PluginContext,
  type PluginEvents,
  type PluginLogger,
} from './plugin';
import { errorText, registryStore, reportPluginFailure } from './stores/registry';

/**
 * Anything with tapable's `tap(name, fn)`: the kernel passes its tapable hooks
 * (`SyncBailHook` for beforeNavigate, `SyncHook`/`AsyncSeriesHook` for the others).
 */
export interface HookTapTarget<F> {
  tap(name: string, fn: F): void;
}

/** The kernel's hooks, by name. */
export type KernelHookTargets = { [K in KernelHookName]: HookTapTarget<KernelHookSignatures[K]> };

/** What the kernel lends a plugin context. */
export interface KernelParts {
  /** The kernel's lifecycle hooks that plugins may tap. */
  hooks: KernelHookTargets;
  /** The event bus; the panel's {@link kernelEvents} when omitted. */
  events?: EventBus;
  /** Where failures go; {@link reportPluginFailure} (console + registry + `plugin:failed`) when omitted. */
  report?: (failure: PluginFailure, error?: unknown) => void;
  /** What `ctx.diagnostics` reads; the panel's {@link diagnosticsLog} when omitted. */
  diagnostics?: Diagnostics;
}

/** A plugin whose setup succeeded and whose registrations are live. */
export interface InstalledPlugin {
  readonly id: string;
  readonly manifest: Readonly<PluginManifest>;
  /** Removes its loaders from the registry, silences its taps and removes its event handlers. */
  dispose(): void;
}

export type InstallResult = { ok: true; plugin: InstalledPlugin } | { ok: false; failure: PluginFailure; error: unknown };

/** A context whose registrations are staged until {@link StagedPluginContext.commit}. */
export interface StagedPluginContext {
  readonly context: PluginContext;
  /** Readable reasons for every route or slot plugin.json declares that setup() did not provide. */
  missingRegistrations(): string[];
  /** Makes the staged loaders, taps and handlers live. Registrations made later apply at once. */
  commit(): InstalledPlugin;
}

type AnyHandler = (payload: unknown) => void;
type AnyTap = (...args: unknown[]) => unknown;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * Creates the `ctx` given to a plugin's setup(). Every registration is checked against `manifest`
 * and refused with a {@link PluginContractError} naming the plugin and what plugin.json lacks.
 * Prefer {@link installPlugin}, which also runs setup, verifies and commits.
 */
export function createPluginContext(manifest: PluginManifest, parts: KernelParts): StagedPluginContext {
  const id = manifest.id;
  const bus = parts.events ?? kernelEvents;
  const report = parts.report ?? reportPluginFailure;
  const declaredHooks = new Set(manifest.hooks ?? []);
  const declaredEvents = new Set(manifest.events ?? []);

  let committed = false;
  let active = true;
  const routeLoaders: Record<string, ComponentLoader> = {};
  const slotLoaders: Record<string, ComponentLoader> = {};
  const overlayLoaders: Record<string, ComponentLoader> = {};
  const pendingTaps: { hook: KernelHookName; fn: AnyTap }[] = [];
  // event name → original handler → wrapped handler (so `off` finds what `on` added)
  const handlers = new Map<string, Map<AnyHandler, AnyHandler>>();

  const refuse = (reason: string): never => {
    throw new PluginContractError(id, `plugin "${id}" ${reason}`);
  };

  const componentRegistry = (kind: 'route' | 'slot' | 'overlay', loaders: Record<string, ComponentLoader>): ComponentRegistry => ({
    provide(component, loader) {
      if (committed) refuse(`provides ${kind} component "${component}" after setup(); provide components inside setup()`);
      if (typeof loader !== 'function') refuse(`provides ${kind} component "${component}" without a loader function`);
      const declared: readonly { component: string }[] = kind === 'route' ? (manifest.routes ?? []) : kind === 'slot' ? (manifest.slots ?? []) : (manifest.overlays ?? []);
      if (!declared.some((d) => d.component === component)) {
        const names = [...new Set(declared.map((d) => d.component))];
        refuse(`provides component "${component}" but plugin.json declares no ${kind} with component "${component}"` + (names.length ? ` (declared: ${names.join(', ')})` : ''));
      }
      if (loaders[component]) refuse(`provides ${kind} component "${component}" twice`);
      loaders[component] = loader;
    },
  });

  const applyTap = (hook: KernelHookName, fn: AnyTap) => {
    const target = parts.hooks[hook] as unknown as HookTapTarget<AnyTap> | undefined;
    if (!target) {
      report({ pluginId: id, phase: 'hook', target: hook, reason: `the kernel offers no hook "${hook}"` });
      return;
    }
    target.tap(`plugin:${id}`, fn);
  };

  const wrapTap = (hook: KernelHookName, fn: AnyTap): AnyTap => {
    const fail = (error: unknown) => {
      report({ pluginId: id, phase: 'hook', target: hook, reason: `plugin "${id}" threw in its ${hook} tap: ${errorText(error)}` }, error);
      return undefined;
    };
    return (...args) => {
      if (!active) return undefined;
      try {
        const result = fn(...args);
        return isThenable(result) ? Promise.resolve(result).then(undefined, fail) : result;
      } catch (error) {
        return fail(error);
      }
    };
  };

  const events: PluginEvents = {
    on(event: string, handler: AnyHandler) {
      if (!declaredEvents.has(event)) refuse(`listens to event "${event}" but plugin.json does not declare it in "events"`);
      if (typeof handler !== 'function') refuse(`listens to event "${event}" without a handler function`);
      let byHandler = handlers.get(event);
      if (!byHandler) handlers.set(event, (byHandler = new Map()));
      if (byHandler.has(handler)) return;
      const wrapped: AnyHandler = (payload) => {
        if (!active) return;
        try {
          const result: unknown = handler(payload);
          if (isThenable(result)) {
            Promise.resolve(result).then(undefined, (error: unknown) =>
              report({ pluginId: id, phase: 'event', target: event, reason: `plugin "${id}" threw handling event "${event}": ${errorText(error)}` }, error),
            );
          }
        } catch (error) {
          report({ pluginId: id, phase: 'event', target: event, reason: `plugin "${id}" threw handling event "${event}": ${errorText(error)}` }, error);
        }
      };
      byHandler.set(handler, wrapped);
      if (committed) bus.on(event, wrapped);
    },
    off(event: string, handler: AnyHandler) {
      const wrapped = handlers.get(event)?.get(handler);
      if (!wrapped) return;
      handlers.get(event)?.delete(handler);
      if (committed) bus.off(event, wrapped);
    },
    emit(event: string, payload?: unknown) {
      if (isKernelEventName(event) || !event.startsWith(`${id}:`) || event.length === id.length + 1) {
        refuse(`may only emit its own events, named "${id}:<name>", not "${event}"`);
      }
      bus.emit(event, payload);
    },
  };

  const prefix = `[plugin:${id}]`;
  const log: PluginLogger = {
    debug: (...args) => console.debug(prefix, ...args),
    info: (...args) => console.info(prefix, ...args),
    warn: (...args) => console.warn(prefix, ...args),
    error: (...args) => console.error(prefix, ...args),
  };

  const diagnostics = readDiagnostics(parts.diagnostics ?? diagnosticsLog);

  const context: PluginContext = Object.freeze({
    id,
    manifest: Object.freeze({ ...manifest }),
    routes: Object.freeze(componentRegistry('route', routeLoaders)),
    slots: Object.freeze(componentRegistry('slot', slotLoaders)),
    overlays: Object.freeze(componentRegistry('overlay', overlayLoaders)),
    get diagnostics(): Diagnostics {
      if (manifest.diagnostics !== true) return refuse('reads ctx.diagnostics but plugin.json does not declare "diagnostics": true');
      return diagnostics;
    },
    hooks: Object.freeze({
      tap<K extends KernelHookName>(hook: K, fn: KernelHookSignatures[K]) {
        if (!isKernelHookName(hook)) refuse(`taps unknown hook "${String(hook)}" (kernel hooks: ${KERNEL_HOOK_NAMES.join(', ')})`);
        if (!declaredHooks.has(hook)) refuse(`taps hook "${hook}" but plugin.json does not declare it in "hooks"`);
        if (typeof fn !== 'function') refuse(`taps hook "${hook}" without a function`);
        const wrapped = wrapTap(hook, fn as unknown as AnyTap);
        if (committed) applyTap(hook, wrapped);
        else pendingTaps.push({ hook, fn: wrapped });
      },
    }),
    events: Object.freeze(events),
    log: Object.freeze(log),
  });

  return {
    context,
    missingRegistrations() {
      const reasons: string[] = [];
      for (const r of manifest.routes ?? []) {
        if (!routeLoaders[r.component]) reasons.push(`plugin "${id}" declares route "${r.path}" with component "${r.component}" in plugin.json but setup() did not provide it`);
      }
      for (const s of manifest.slots ?? []) {
        if (!slotLoaders[s.component]) reasons.push(`plugin "${id}" declares slot "${s.slot}" with component "${s.component}" in plugin.json but setup() did not provide it`);
      }
      for (const o of manifest.overlays ?? []) {
        if (!overlayLoaders[o.component]) reasons.push(`plugin "${id}" declares overlay "${o.component}" in plugin.json but setup() did not provide it`);
      }
      return [...new Set(reasons)];
    },
    commit() {
      if (committed) throw new Error(`plugin "${id}" is already committed`);
      committed = true;
      registryStore.getState().commitPlugin(id, { routes: routeLoaders, slots: slotLoaders, overlays: overlayLoaders });
      for (const { hook, fn } of pendingTaps) applyTap(hook, fn);
      pendingTaps.length = 0;
      for (const [event, byHandler] of handlers) for (const wrapped of byHandler.values()) bus.on(event, wrapped);
      return {
        id,
        manifest: context.manifest,
        dispose() {
          if (!active) return;
          // tapable has no untap: a disposed plugin's taps stay registered but do nothing
          active = false;
          for (const [event, byHandler] of handlers) for (const wrapped of byHandler.values()) bus.off(event, wrapped);
          handlers.clear();
          registryStore.getState().removePlugin(id);
        },
      };
    },
  };
}

/**
 * Installs one plugin: checks the object is a {@link definePlugin} plugin for this API version, that
 * its `sdk` range accepts this SDK and that its id matches plugin.json; runs setup() on a staged
 * context; checks every declared route and slot component was provided; then commits. Never throws:
 * a failure is reported (console, `registryStore.failed`, `plugin:failed`) and returned.
 */
export function installPlugin(candidate: unknown, manifest: PluginManifest, parts: KernelParts): InstallResult {
  const report = parts.report ?? reportPluginFailure;
  const id = manifest.id;
  const fail = (phase: PluginFailure['phase'], reason: string, error: unknown = undefined): InstallResult => {
    const failure: PluginFailure = { pluginId: id, phase, reason };
    report(failure, error);
    return { ok: false, failure, error };
  };

  const rangeProblem = sdkRangeProblem(manifest.sdk);
  if (rangeProblem) return fail('sdk', `plugin "${id}" was refused: ${rangeProblem}`);
  const notPlugin = describeNonPlugin(candidate);
  if (notPlugin) return fail('contract', `plugin "${id}" was refused: ${notPlugin}`);
  const plugin = candidate as OrepanelPlugin;
  if (plugin.id !== id) {
    return fail('contract', `plugin "${id}" was refused: plugin.json says id "${id}" but its definePlugin() id is "${plugin.id}"`);
  }

  const staged = createPluginContext(manifest, parts);
  try {
    const returned: unknown = plugin.setup(staged.context);
    if (isThenable(returned)) {
      return fail('contract', `plugin "${id}" was refused: setup() must be synchronous (load pages lazily in the component loaders instead)`);
    }
  } catch (error) {
    if (error instanceof PluginContractError) return fail('contract', error.reason, error);
    return fail('setup', `plugin "${id}" failed in setup(): ${errorText(error)}`, error);
  }
  const missing = staged.missingRegistrations();
  if (missing.length) return fail('contract', missing.join('; '));
  return { ok: true, plugin: staged.commit() };
}
