// spec §9: "Memory cleanup every 30 seconds" — with the memoryOptimization setting on (off by default),
// every 30 s the kernel lets go of what nothing on screen uses, and tells everyone else to do the same
// through the kernel event `memory:cleanup` (plugins listen with ctx.events, kernel parts with
// kernelEvents; the debug recorder is the main holder of memory that is not on screen). What the kernel
// itself frees: the message catalogues of languages the interface left, which a switch back fetches
// again (from the browser's cache). The reference clone-replaced DOM elements and called window.gc;
// neither frees anything a page still holds.
import { kernelEvents } from '../../sdk/client/events';
import { SDK_NAMESPACE } from '../../sdk/client/sdk-texts';

export const MEMORY_CLEANUP_INTERVAL_MS = 30_000;

/** The parts of i18next the cleanup reads and changes. */
export interface CatalogueStore {
  /** language → namespace → texts */
  readonly store: { readonly data: Readonly<Record<string, Readonly<Record<string, unknown>>>> };
  removeResourceBundle(language: string, namespace: string): unknown;
}

/**
 * Removes the catalogues of the languages not in `keep` whose last catalogue arrived at least one
 * cleanup interval ago (a language still loading is never taken from under its switch). The sdk's own
 * texts stay: they are small, and its loader remembers having loaded them.
 * @returns the languages freed
 */
export function freeUnusedCatalogues(i18n: CatalogueStore, keep: readonly string[], lastAdded: ReadonlyMap<string, number>, now: number): string[] {
  const freed: string[] = [];
  for (const [language, namespaces] of Object.entries(i18n.store.data)) {
    if (keep.includes(language)) continue;
    if (now - (lastAdded.get(language) ?? Number.NEGATIVE_INFINITY) < MEMORY_CLEANUP_INTERVAL_MS) continue;
    let removed = false;
    for (const namespace of Object.keys(namespaces)) {
      if (namespace === SDK_NAMESPACE) continue;
      i18n.removeResourceBundle(language, namespace);
      removed = true;
    }
    if (removed) freed.push(language);
  }
  return freed;
}

export interface MemoryCleanupDeps {
  /** one cleanup: the kernel's own freeing */
  free(now: number): void;
  now(): number;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface MemoryCleanup {
  /** Runs the cleanup every 30 s while `on`, not at all while off. */
  sync(on: boolean): void;
  /** One cleanup now (what the timer runs). */
  run(): void;
}

export function createMemoryCleanup(deps: MemoryCleanupDeps): MemoryCleanup {
  let timer: unknown = null;
  const run = () => {
    const at = deps.now();
    try {
      deps.free(at);
    } catch (error) {
      console.error('Memory cleanup failed', error);
    }
    // listeners' failures are theirs: the kernel wraps plugin handlers, and a failed one stops no other
    kernelEvents.emit('memory:cleanup', { at });
  };
  return {
    run,
    sync(on) {
      if (on && timer === null) timer = deps.setInterval(run, MEMORY_CLEANUP_INTERVAL_MS);
      else if (!on && timer !== null) {
        deps.clearInterval(timer);
        timer = null;
      }
    },
  };
}
