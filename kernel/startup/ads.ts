// spec §4.4, §5, §7, §8: the ads client code comes from GET /api/system/ga-ads as plain text; a non-OK
// or empty answer skips ads with the console warning 'Failed to fetch AdSense client code' (the ads
// need an adClient). Otherwise the provider's script is loaded with page-level ads enabled.
export const ADS_CLIENT_URL = '/api/system/ga-ads';
export const ADS_SCRIPT_URL = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';
export const ADS_FAILURE_MESSAGE = 'Failed to fetch AdSense client code';

/** The ad client id (e.g. `ca-pub-123…`), or null when ads are off or the fetch failed. */
export async function fetchAdClient(fetchFn: typeof fetch = fetch): Promise<string | null> {
  const response = await fetchFn(ADS_CLIENT_URL, { credentials: 'same-origin', headers: { Accept: 'text/plain' } });
  // the body is always read: an unread body keeps the request open
  const text = await response.text();
  if (!response.ok) return null;
  const client = text.trim();
  return client === '' ? null : client;
}

/** Adds the provider's script for `client` and asks for page-level ads. */
export function enablePageLevelAds(client: string, doc: Document = document, win: Window = window): void {
  const script = doc.createElement('script');
  script.async = true;
  script.crossOrigin = 'anonymous';
  script.src = `${ADS_SCRIPT_URL}?client=${encodeURIComponent(client)}`;
  doc.head.appendChild(script);
  // the provider's command queue: it reads what was pushed before its script arrived
  const holder = win as unknown as { adsbygoogle?: Record<string, unknown>[] };
  const queue = (holder.adsbygoogle ??= []);
  queue.push({ google_ad_client: client, enable_page_level_ads: true });
}

/** What the ads client fetch ended with (never a rejection, so it can start early and be read later). */
export type AdClientOutcome = { client: string | null } | { error: unknown };

/**
 * Starts GET /api/system/ga-ads. The kernel starts it at boot so the request overlaps the plugin
 * install; its answer is still handled in the `ads` step, in spec order.
 */
export function startAdClientFetch(fetchFn: typeof fetch = fetch): Promise<AdClientOutcome> {
  return fetchAdClient(fetchFn).then(
    (client) => ({ client }),
    (error: unknown) => ({ error }),
  );
}

/** The `ads` step: never throws; without a client the ads are skipped with the spec's warning. */
export async function loadAds(pending: Promise<AdClientOutcome>, doc: Document = document, win: Window = window, log: Pick<Console, 'warn'> = console): Promise<string | null> {
  const outcome = await pending;
  if ('error' in outcome) {
    log.warn(ADS_FAILURE_MESSAGE, outcome.error);
    return null;
  }
  if (!outcome.client) {
    log.warn(ADS_FAILURE_MESSAGE);
    return null;
  }
  enablePageLevelAds(outcome.client, doc, win);
  return outcome.client;
}
