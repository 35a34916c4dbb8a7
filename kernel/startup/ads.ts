// spec §4.4, §5, §7, §8: start-up step 4 fetches the ads client code from GET /api/system/ga-ads (plain
// text, trimmed). A failed or non-OK answer skips the ads with the console warning 'Failed to fetch
// AdSense client code' and the app carries on. While ads are switched off (google_ads_enabled) nothing
// is requested or loaded at all — the reference loads the provider's script with the client "null".
// With a client, the sdk's ad component may render (sdk/client/ads.tsx) and page-level ads are enabled
// for visitors who may see ads; an admin page or a holder of user.permission.adblocker hides the ads
// the provider places by itself (they cannot be told where not to go).
import { ADS_SCRIPT_URL, adsAllowed, adsStore, ensureAdsScript } from '../../sdk/client/ads';

export { ADS_SCRIPT_URL };
export const ADS_CLIENT_URL = '/api/system/ga-ads';
export const ADS_FAILURE_MESSAGE = 'Failed to fetch AdSense client code';
/** The public setting that switches ads on. */
export const ADS_ENABLED_SETTING = 'google_ads_enabled';
/** Set on <html> while ads must not show: the style below hides what the provider placed itself. */
export const AD_FREE_ATTRIBUTE = 'data-ad-free';

/** The ad client id (e.g. `ca-pub-123…`), or null when the answer is not OK or empty. */
export async function fetchAdClient(fetchFn: typeof fetch = fetch): Promise<string | null> {
  const response = await fetchFn(ADS_CLIENT_URL, { credentials: 'same-origin', headers: { Accept: 'text/plain' } });
  // the body is always read: an unread body keeps the request open
  const text = await response.text();
  if (!response.ok) return null;
  const client = text.trim();
  return client === '' ? null : client;
}

/** Adds the provider's script for `client` (the address naming the publisher) and asks for page-level ads. */
export function enablePageLevelAds(client: string, doc: Document = document, win: Window = window): void {
  ensureAdsScript(client, true, doc);
  // the provider's command queue: it reads what was pushed before its script arrived
  const holder = win as unknown as { adsbygoogle?: Record<string, unknown>[] };
  const queue = (holder.adsbygoogle ??= []);
  queue.push({ google_ad_client: client, enable_page_level_ads: true });
}

/** Hides the provider's own placements (auto ads, anchors, vignettes) while the html element is ad-free. */
export function installAdFreeStyle(doc: Document = document): void {
  if (doc.getElementById('op-ad-free')) return;
  const style = doc.createElement('style');
  style.id = 'op-ad-free';
  style.textContent = `html[${AD_FREE_ATTRIBUTE}] ins.adsbygoogle, html[${AD_FREE_ATTRIBUTE}] .google-auto-placed, html[${AD_FREE_ATTRIBUTE}] iframe[id^="aswift_"] { display: none !important; }`;
  doc.head.appendChild(style);
}

/** Marks the page ad-free or not (kept current by the kernel on every navigation and session change). */
export function setAdFree(adFree: boolean, doc: Document = document): void {
  if (adFree) doc.documentElement.setAttribute(AD_FREE_ATTRIBUTE, '');
  else doc.documentElement.removeAttribute(AD_FREE_ATTRIBUTE);
}

export interface LoadAdsOptions {
  /** is google_ads_enabled on? false: nothing is requested (null: not known, ask the server) */
  enabled: boolean | null;
  /** the permissions known now (spec §4: the cached ones at start-up) */
  permissions: readonly string[];
  fetch?: typeof fetch;
  doc?: Document;
  win?: Window;
  log?: Pick<Console, 'warn'>;
}

/**
 * The `ads` step: never throws. Returns the client when ads are on and hands it to the sdk's ads
 * store; {@link followAdsState} then decides, page by page, whether ads may show.
 */
export async function loadAds(options: LoadAdsOptions): Promise<string | null> {
  const { doc = document, win = window, log = console } = options;
  if (options.enabled === false) return null;
  let client: string | null;
  try {
    client = await fetchAdClient(options.fetch ?? ((url, init) => win.fetch(url, init)));
  } catch (error) {
    log.warn(ADS_FAILURE_MESSAGE, error);
    return null;
  }
  if (!client) {
    log.warn(ADS_FAILURE_MESSAGE);
    return null;
  }
  installAdFreeStyle(doc);
  adsStore.getState().setClient(client);
  return client;
}

/**
 * Keeps the page's ads in line with who is looking and where: the html element is ad-free on admin
 * pages and for holders of user.permission.adblocker, and page-level ads start the first time a page
 * may show ads (never for a visitor who may not). Returns the unsubscribe.
 */
export function followAdsState(
  readPermissions: () => readonly string[],
  subscribe: (listener: () => void) => () => void,
  doc: Document = document,
  win: Window = window,
): () => void {
  let pageLevelAds = false;
  const apply = () => {
    const { client, adFreePage } = adsStore.getState();
    const allowed = adsAllowed(readPermissions(), adFreePage);
    setAdFree(client !== null && !allowed, doc);
    if (client && allowed && !pageLevelAds) {
      pageLevelAds = true;
      enablePageLevelAds(client, doc, win);
    }
  };
  const stopAds = adsStore.subscribe(apply);
  const stopOther = subscribe(apply);
  apply();
  return () => {
    stopAds();
    stopOther();
  };
}
