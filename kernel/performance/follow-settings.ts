// The performance settings (spec §9) that act on the whole page, followed live: a change in the
// customisation panel (or in another tab) takes effect without a reload. The frame rate limit wraps
// requestAnimationFrame; enableCaching registers or removes the service worker; memoryOptimization
// runs the 30-second memory cleanup. (reduceMotion, disableAnimations and transitionSpeed are CSS
// variables set by the sdk's ui store; lazyLoading and optimizeImages are read by the sdk's LazyImage;
// networkOptimization by the sdk's http client; preloadCritical by the sidebar.)
import { FALLBACK_LANGUAGE, currentLanguage, i18n } from '../../sdk/client/i18n';
import { uiStore } from '../../sdk/client/stores/ui';
import { applyFrameRateLimit } from './frame-limit';
import { createMemoryCleanup, freeUnusedCatalogues, type MemoryCleanup } from './memory-cleanup';
import { syncServiceWorker } from './service-worker';

/** Starts following the settings; call once, after the ui store is synced. */
export function followPerformanceSettings(win: Window): MemoryCleanup {
  // when each language's last catalogue arrived: one still loading is not freed under its switch
  const lastAdded = new Map<string, number>();
  i18n.store.on('added', (language: string) => lastAdded.set(language, Date.now()));
  const memory = createMemoryCleanup({
    free: (now) => freeUnusedCatalogues(i18n, [currentLanguage(), FALLBACK_LANGUAGE], lastAdded, now),
    now: () => Date.now(),
    setInterval: (fn, ms) => win.setInterval(fn, ms),
    clearInterval: (handle) => win.clearInterval(handle as number),
  });

  let performance = uiStore.getState().settings.performance;
  applyFrameRateLimit(performance.frameRateLimit, win);
  memory.sync(performance.memoryOptimization);
  uiStore.subscribe((state) => {
    const next = state.settings.performance;
    if (next === performance) return;
    if (next.frameRateLimit !== performance.frameRateLimit) applyFrameRateLimit(next.frameRateLimit, win);
    if (next.enableCaching !== performance.enableCaching) {
      syncServiceWorker(next.enableCaching).catch((error: unknown) => console.error('Failed to initialize performance optimizations', error));
    }
    if (next.memoryOptimization !== performance.memoryOptimization) memory.sync(next.memoryOptimization);
    performance = next;
  });
  return memory;
}
