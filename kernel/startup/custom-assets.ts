// spec §4.1 / §7: the host's custom stylesheet and script (the `custom_css` / `custom_js` settings plus
// every enabled plugin's own), loaded as a <link rel="stylesheet"> and a <script> at start-up.
export const CUSTOM_CSS_URL = '/api/system/custom.css';
export const CUSTOM_JS_URL = '/api/system/custom.js';

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

/** Adds the stylesheet last in <head> (so it overrides the panel's own styles) and waits for it. */
export function loadStylesheet(doc: Document, href: string, timeoutMs = CUSTOM_ASSET_TIMEOUT_MS): Promise<Outcome> {
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

/** Loads both at once; one that fails or hangs is reported and skipped. */
export async function loadCustomAssets(doc: Document = document, log: Pick<Console, 'warn'> = console): Promise<void> {
  const [css, js] = await Promise.all([loadStylesheet(doc, CUSTOM_CSS_URL), loadScript(doc, CUSTOM_JS_URL)]);
  if (css !== 'loaded') log.warn(`The custom stylesheet ${CUSTOM_CSS_URL} ${css === 'failed' ? 'failed to load' : 'took too long'}; carrying on without waiting`);
  if (js !== 'loaded') log.warn(`The custom script ${CUSTOM_JS_URL} ${js === 'failed' ? 'failed to load' : 'took too long'}; carrying on without waiting`);
}
