// Tells the service worker which of the panel's files this page used, so that it keeps them in its
// cache (public/sw.js). The worker reads its cache through static routes and never sees those requests
// itself, so the page reports them: every file under /assets/ or /plugins/ the page loaded, since the
// load and on every later chunk, sent in batches when the browser is idle. The worker checks the names
// (only content-hashed files of this origin) and fetches those it has not got.

/** What the page observes and whom it tells; the browser's by default. */
export interface KeepUsedFilesDeps {
  origin: string;
  /** Calls back with the URLs of resources the page has loaded, the ones before the call included. */
  observeResources(onUrls: (urls: string[]) => void): () => void;
  /** When the browser is idle. */
  whenIdle(fn: () => void): void;
  /** The active worker's postMessage, once there is one; null when none ever becomes active. */
  activeWorker(): Promise<Pick<ServiceWorker, 'postMessage'> | null>;
}

/** The worker refuses longer messages (sw.js: KEEP_LIMIT). */
export const KEEP_BATCH = 500;
const KEPT_PREFIXES = ['/assets/', '/plugins/'];

function panelFile(href: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(href, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || url.search || !KEPT_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) return null;
  return url.pathname;
}

/** Starts reporting; the function it answers stops it (enableCaching switched off). */
export function keepUsedFiles(deps: KeepUsedFilesDeps = browserDeps()): () => void {
  const reported = new Set<string>();
  let pending: string[] = [];
  let scheduled = false;
  let stopped = false;

  const flush = () => {
    scheduled = false;
    const batch = pending;
    pending = [];
    if (stopped || batch.length === 0) return;
    void deps.activeWorker().then((worker) => {
      if (!worker || stopped) return;
      for (let i = 0; i < batch.length; i += KEEP_BATCH) worker.postMessage({ type: 'keep', urls: batch.slice(i, i + KEEP_BATCH) });
    });
  };

  const stopObserving = deps.observeResources((urls) => {
    for (const href of urls) {
      const path = panelFile(href, deps.origin);
      if (path === null || reported.has(path)) continue;
      reported.add(path);
      pending.push(path);
    }
    if (pending.length > 0 && !scheduled) {
      scheduled = true;
      deps.whenIdle(flush);
    }
  });

  return () => {
    stopped = true;
    stopObserving();
  };
}

function browserDeps(): KeepUsedFilesDeps {
  return {
    origin: window.location.origin,
    observeResources(onUrls) {
      if (typeof PerformanceObserver === 'undefined') return () => {};
      const observer = new PerformanceObserver((list) => onUrls(list.getEntries().map((entry) => entry.name)));
      // buffered: the files of the load itself, which came before the worker was registered
      observer.observe({ type: 'resource', buffered: true });
      return () => observer.disconnect();
    },
    whenIdle(fn) {
      if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(fn, { timeout: 5000 });
      else window.setTimeout(fn, 1000);
    },
    async activeWorker() {
      if (!('serviceWorker' in navigator)) return null;
      const registration = await navigator.serviceWorker.ready;
      return registration.active;
    },
  };
}
