// The plugin API a browser plugin is written against: `definePlugin` and the `PluginContext` its
// `setup` receives. The kernel duck-types the branded object (Backstage's `$$type` model) before it
// runs `setup`, and the context refuses anything plugin.json does not declare (Grafana's validator
// model). The implementation of the context is in ./install.ts.
import type { ComponentType } from 'react';
import type { Language, ManifestRoute, PluginManifest } from '../types';
import type { Diagnostics } from './diagnostics';
import type { KernelEvents, NavigationEvent } from './events';
import type { SessionSnapshot } from './stores/session';

/** The plugin API version of this SDK (the major of SDK_VERSION). */
export const PLUGIN_API_VERSION = 2;

/** The brand that marks an object made by {@link definePlugin}. */
export const PLUGIN_BRAND = '@orepanel/plugin';

/**
 * A React component a plugin contributes, with whatever props it takes. Stored as
 * `ComponentType<never>` so that components with any props fit; the kernel passes route components no
 * props and slot components the props given to `<Slot props>`.
 */
export type PluginComponent = ComponentType<never>;

/**
 * Loads a component lazily: `() => import('./LoginPage')`. The module's default export is the component.
 * Pages are fetched only when first shown, so a plugin's entry bundle stays small.
 */
export type ComponentLoader = () => Promise<{ default: PluginComponent }>;

/** Where the router is about to go. Argument of the `beforeNavigate` hook. */
export interface NavigationTarget {
  pathname: string;
  search: string;
  hash: string;
  /** the current pathname, null on the first navigation */
  from: string | null;
  /** the manifest route that matches, null for an unknown path */
  route: ManifestRoute | null;
  /** id of the plugin that declares that route */
  pluginId: string | null;
}

/**
 * The kernel lifecycle hooks a plugin may tap (declare each one in plugin.json `"hooks"`).
 * - `beforeNavigate` is a bail hook: return a path to redirect there, `false` to cancel the
 *   navigation, or nothing to let it through. Runs after the kernel's own guards (spec §2, §6).
 * - `afterNavigate` runs once the new location is shown.
 * - `sessionLoaded` runs after every successful session fetch (spec §4: at start, then every 60 s).
 * - `sessionCleared` runs when the session ends (logout or a session error; `code` is the error code).
 * - `localeChanged` runs after the interface language changed.
 */
export interface KernelHookSignatures {
  beforeNavigate: (to: NavigationTarget) => string | false | undefined | void;
  afterNavigate: (location: NavigationEvent) => void;
  sessionLoaded: (session: SessionSnapshot) => void;
  sessionCleared: (info: { code: string | null }) => void;
  localeChanged: (locale: Language) => void;
}

export type KernelHookName = keyof KernelHookSignatures;

export const KERNEL_HOOK_NAMES: readonly KernelHookName[] = ['beforeNavigate', 'afterNavigate', 'sessionLoaded', 'sessionCleared', 'localeChanged'];

export function isKernelHookName(name: string): name is KernelHookName {
  return (KERNEL_HOOK_NAMES as readonly string[]).includes(name);
}

/** `ctx.routes` / `ctx.slots` / `ctx.overlays`: hand the kernel the loader of a component named in plugin.json. */
export interface ComponentRegistry {
  /**
   * Provides the component that plugin.json names in a route (`ctx.routes`), a slot (`ctx.slots`) or
   * an overlay (`ctx.overlays`).
   * Throws {@link PluginContractError} when plugin.json does not name it, or when it was already provided.
   * @example ctx.routes.provide('LoginPage', () => import('./LoginPage'))
   */
  provide(component: string, loader: ComponentLoader): void;
}

/** The props the kernel gives an overlay's component. */
export interface OverlayProps {
  /** Closes the overlay (the kernel gives the focus back to where it was before it opened). */
  onClose(): void;
}

/** `ctx.hooks`: a facade over the kernel's lifecycle hooks. Plugins tap; only the kernel calls. */
export interface PluginHooks {
  /**
   * Taps a kernel hook declared in plugin.json `"hooks"`. A tap that throws is reported (console,
   * `plugin:failed` event, debug panel) and treated as if it returned nothing; the other taps still run.
   */
  tap<K extends KernelHookName>(hook: K, fn: KernelHookSignatures[K]): void;
}

/** `ctx.events`: the panel's event bus (mitt), with handlers wrapped so one failure does not stop the rest. */
export interface PluginEvents {
  /** Listens to a kernel event; it must be declared in plugin.json `"events"`. */
  on<K extends keyof KernelEvents>(event: K, handler: (payload: KernelEvents[K]) => void): void;
  /** Listens to another plugin's (or this plugin's own) `<id>:<name>` event, declared in `"events"`. */
  on(event: string, handler: (payload: unknown) => void): void;
  /** Stops a handler given to `on`. */
  off<K extends keyof KernelEvents>(event: K, handler: (payload: KernelEvents[K]) => void): void;
  off(event: string, handler: (payload: unknown) => void): void;
  /**
   * Emits one of this plugin's own events, named `<plugin id>:<name>` (e.g. `wallet:changed`).
   * Kernel events and other plugins' events cannot be emitted by a plugin.
   */
  emit(event: string, payload?: unknown): void;
}

/** `ctx.log`: console logging prefixed with the plugin id (errors show in the debug panel). */
export interface PluginLogger {
  debug(...args: unknown[]): void;
  info(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  error(...args: unknown[]): void;
}

/** What `setup(ctx)` receives. Everything it registers must be declared in the plugin's plugin.json. */
export interface PluginContext {
  /** The plugin's id (also its i18n namespace: `useTranslation(ctx.id)`). */
  readonly id: string;
  /** The plugin's manifest as the server served it (read-only). */
  readonly manifest: Readonly<PluginManifest>;
  /** Provides the components of the routes declared in plugin.json `"routes"`. */
  readonly routes: ComponentRegistry;
  /** Provides the components of the slots declared in plugin.json `"slots"`. */
  readonly slots: ComponentRegistry;
  /** Provides the components of the overlays declared in plugin.json `"overlays"` (they receive {@link OverlayProps}). */
  readonly overlays: ComponentRegistry;
  /**
   * What the kernel records from start-up: every fetch, console output, uncaught errors (redacted,
   * capped). Declare `"diagnostics": true` in plugin.json; reading it otherwise throws
   * {@link PluginContractError}.
   */
  readonly diagnostics: Diagnostics;
  readonly hooks: PluginHooks;
  readonly events: PluginEvents;
  readonly log: PluginLogger;
}

/** What a plugin author passes to {@link definePlugin}. */
export interface PluginDefinition {
  /** Must equal the `id` in plugin.json. */
  id: string;
  /**
   * Registers the plugin's parts. Synchronous and lean: provide lazy loaders, tap hooks, listen to
   * events — do not fetch or render here. Runs once, in `requires` order, before the app mounts.
   */
  setup(ctx: PluginContext): void;
}

/** The branded, frozen object {@link definePlugin} returns: the default export of a plugin's client entry. */
export interface OrepanelPlugin {
  readonly $$type: typeof PLUGIN_BRAND;
  readonly apiVersion: typeof PLUGIN_API_VERSION;
  readonly id: string;
  readonly setup: (ctx: PluginContext) => void;
}

const PLUGIN_ID = /^[a-z][a-z0-9-]{1,39}$/;

/**
 * Defines a browser plugin. Make it the default export of `client/index.tsx`:
 * @example
 * export default definePlugin({
 *   id: 'earn-redeem',
 *   setup(ctx) {
 *     ctx.routes.provide('RedeemPage', () => import('./RedeemPage'));
 *   },
 * });
 * @throws TypeError when the id is not a valid plugin id or setup is not a function.
 */
export function definePlugin(definition: PluginDefinition): OrepanelPlugin {
  const { id, setup } = definition;
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
    throw new TypeError(`definePlugin: "${String(id)}" is not a valid plugin id (lower-case letters, digits and dashes, 2-40 characters, starting with a letter)`);
  }
  if (typeof setup !== 'function') throw new TypeError(`definePlugin: plugin "${id}" has no setup function`);
  return Object.freeze({ $$type: PLUGIN_BRAND, apiVersion: PLUGIN_API_VERSION, id, setup: (ctx: PluginContext) => setup.call(definition, ctx) });
}

/** Duck-types an object made by {@link definePlugin} for this plugin API version. */
export function isOrepanelPlugin(value: unknown): value is OrepanelPlugin {
  return describeNonPlugin(value) === null;
}

/** Why `value` is not a usable plugin object, or null when it is. */
export function describeNonPlugin(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) {
    return 'its client bundle does not export a definePlugin() object as default';
  }
  const v = value as Record<string, unknown>;
  if (v.$$type !== PLUGIN_BRAND) return 'its client bundle does not export a definePlugin() object as default';
  if (v.apiVersion !== PLUGIN_API_VERSION) {
    return `it was built for plugin API v${String(v.apiVersion)} but this panel runs plugin API v${PLUGIN_API_VERSION}`;
  }
  if (typeof v.id !== 'string' || typeof v.setup !== 'function') return 'its definePlugin() object is malformed (no id or setup)';
  return null;
}

/** Thrown when a plugin does something its plugin.json does not declare, or breaks the plugin contract. */
export class PluginContractError extends Error {
  override readonly name = 'PluginContractError';
  constructor(
    readonly pluginId: string,
    /** The readable reason, e.g. `plugin "x" provides component "Foo" but plugin.json declares no route with component "Foo"`. */
    readonly reason: string,
  ) {
    super(reason);
  }
}
