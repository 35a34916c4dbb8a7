// The one event bus of the running panel (mitt). The kernel and the sdk emit the kernel events below;
// plugins listen through `ctx.events` (their handlers are wrapped so one failure does not stop the rest —
// mitt itself does not catch) and emit their own namespaced events (`<plugin id>:<name>`).
import mitt, { type Emitter } from 'mitt';
import type { Language, PublicSettings } from '../types';

/** Why a plugin, or one of its parts, failed. Payload of the `plugin:failed` event. */
export interface PluginFailure {
  pluginId: string;
  /**
   * Where it failed. `load`, `sdk`, `contract` and `setup` are fatal (the plugin is skipped);
   * `render`, `hook` and `event` are not (only that component, tap or handler failed).
   */
  phase: PluginFailurePhase;
  /** A readable reason, e.g. `plugin "x" taps hook "foo" but plugin.json does not declare it`. */
  reason: string;
  /** The hook, event or component involved, when there is one. */
  target?: string;
}

export type PluginFailurePhase = 'load' | 'sdk' | 'contract' | 'setup' | 'render' | 'hook' | 'event';

/** Phases after which the plugin is not installed at all. */
export const FATAL_PLUGIN_PHASES: readonly PluginFailurePhase[] = ['load', 'sdk', 'contract', 'setup'];

/** A location the router went to. */
export interface NavigationEvent {
  pathname: string;
  search: string;
  hash: string;
  /** the previous pathname, null on the first navigation */
  from: string | null;
}

/**
 * The kernel events and their payloads. Who emits them:
 * - `session:changed` — the sdk's session store, whenever the session is applied or cleared;
 * - `settings:changed` — the sdk's settings store, when public settings are (re)loaded;
 * - `locale:changed` — the sdk's `changeLanguage()`;
 * - `navigation` — the kernel's router, after every navigation;
 * - `plugin:failed` — the sdk (install, render, hook and event failures) and the kernel (bundle load);
 * - `nav:refresh-badges` — the sdk's `refreshNavBadges()`: a page changed what a sidebar count counts,
 *   and the kernel fetches the counts again;
 * - `memory:cleanup` — the kernel, every 30 s while the user's memoryOptimization setting is on (spec
 *   §9): free what is kept for what is not on screen (old records, caches of pages not in view).
 */
// A type alias, not an interface: mitt needs an index-compatible record.
export type KernelEvents = {
  'session:changed': { loggedIn: boolean; uuid: string | null; role: number | null; permissions: readonly string[] };
  'settings:changed': { settings: PublicSettings };
  'locale:changed': { locale: Language; previous: Language | null };
  navigation: NavigationEvent;
  'plugin:failed': PluginFailure;
  'nav:refresh-badges': undefined;
  'memory:cleanup': { at: number };
};

export type KernelEventName = keyof KernelEvents;

export const KERNEL_EVENT_NAMES: readonly KernelEventName[] = [
  'session:changed',
  'settings:changed',
  'locale:changed',
  'navigation',
  'plugin:failed',
  'nav:refresh-badges',
  'memory:cleanup',
];

/** Every event on the bus: the kernel's, plus plugins' own `<id>:<name>` events with any payload. */
export type BusEvents = KernelEvents & Record<string, unknown>;

export type EventBus = Emitter<BusEvents>;

/** Creates an event bus. The panel uses the one {@link kernelEvents}; tests may make their own. */
export function createEventBus(): EventBus {
  return mitt<BusEvents>();
}

/** The panel's event bus (one per page: the sdk is a shared singleton module). */
export const kernelEvents: EventBus = createEventBus();

export function isKernelEventName(name: string): name is KernelEventName {
  return (KERNEL_EVENT_NAMES as readonly string[]).includes(name);
}
