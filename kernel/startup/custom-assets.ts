// spec §4.1 / §7: the host's custom stylesheet and script (the `custom_css` / `custom_js` settings plus
// every enabled plugin's own), loaded as a <link rel="stylesheet"> and a <script> at start-up, first.
// Issue 15: index.html's boot data names a revision of each (null when empty): an empty one is not
// requested at all, a non-empty one is fetched by its revision (cached for a year by the browser).
// Without boot data both are fetched by their plain address, as before.
export const CUSTOM_CSS_URL = '/api/system/custom.css';
export const CUSTOM_JS_URL = '/api/system/custom.js';

/** The revisions the boot data carries (server/routes/custom-assets.ts): null = empty, not loaded. */
export interface CustomAssetRevisions {
  css: string | null;
  js: string | null;
}

/** The address of a custom asset: by revision when one is known (the same as the server's preload hint). */
export function customAssetUrl(base: string, revision: string | undefined): string {
  return revision === undefined ? base : `${base}?v=${encodeURIComponent(revision)}`;
}

/** How long the start-up waits for one of them before it carries on without it. */
export const CUSTOM_ASSET_TIMEOUT_MS = 3000;

type Outcome = 'loaded' | 'failed' | 'timeout';

function whenLoaded(element: HTMLElement, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    element.addEventListener(
      'load',
      () => {
        clearTimeout(timer);
        resolve('loaded');
      },
      { once: true },
    );
    element.addEventListener(
      'error',
      () => {
        clearTimeout(timer);
        resolve('failed');
      },
      { once: true },
    );
  });
}

/**
 * Adds the stylesheet last in <head> (so it overrides the panel's own styles) and waits for it. A page
 * the server sent already rendered carries it already (server/http/prerender.ts): that one is waited
 * for instead, not added twice.
 */
export function loadStylesheet(doc: Document, href: string, timeoutMs = CUSTOM_ASSET_TIMEOUT_MS): Promise<Outcome> {
  const present = [...doc.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"][data-orepanel="custom"]')].find((link) => link.getAttribute('href') === href);
  if (present) return present.sheet ? Promise.resolve('loaded') : whenLoaded(present, timeoutMs);
  const link = doc.createElement('link');
  link.rel = 'stylesheet';
  link.href = href;
  link.dataset.orepanel = 'custom';
  const done = whenLoaded(link, timeoutMs);
  doc.head.appendChild(link);
  return done;
}

/** Runs a classic script (not a module: admins paste plain scripts) and waits for it. */
export function loadScript(doc: Document, src: string, timeoutMs = CUSTOM_ASSET_TIMEOUT_MS): Promise<Outcome> {
  const script = doc.createElement('script');
  script.src = src;
  script.async = true;
  script.dataset.orepanel = 'custom';
  const done = whenLoaded(script, timeoutMs);
  doc.head.appendChild(script);
  return done;
}

/**
 * Loads both at once (an empty one named by `revisions` not at all); one that fails or hangs is
 * reported and skipped.
 */
export async function loadCustomAssets(doc: Document = document, log: Pick<Console, 'warn'> = console, revisions: CustomAssetRevisions | null = null): Promise<void> {
  const skipped = Promise.resolve<Outcome | null>(null);
  const [css, js] = await Promise.all([
    revisions?.css === null ? skipped : loadStylesheet(doc, customAssetUrl(CUSTOM_CSS_URL, revisions?.css)),
    revisions?.js === null ? skipped : loadScript(doc, customAssetUrl(CUSTOM_JS_URL, revisions?.js)),
  ]);
  if (css && css !== 'loaded') log.warn(`The custom stylesheet ${CUSTOM_CSS_URL} ${css === 'failed' ? 'failed to load' : 'took too long'}; carrying on without waiting`);
  if (js && js !== 'loaded') log.warn(`The custom script ${CUSTOM_JS_URL} ${js === 'failed' ? 'failed to load' : 'took too long'}; carrying on without waiting`);
}
