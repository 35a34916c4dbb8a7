// Ads (spec §1 "visitors are shown ads", §4.4, §5, §9). The kernel fetches the ad client code at
// start-up step 4 and hands it here; plugins place `<Ad slot="…" />` where an ad may show. Nothing of
// the provider is loaded while there is no client (ads off), and no ad shows on an admin page or to a
// holder of user.permission.adblocker (admin.root passes that check too).
import { useEffect, useRef, type CSSProperties } from 'react';
import { create } from 'zustand';
import { hasPermission } from '../manifest';
import { sessionStore } from './stores/session';

/** The provider's script; an e2e test intercepts this address, so nothing reaches the internet. */
export const ADS_SCRIPT_URL = 'https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js';

/** Whoever holds it is never shown an ad ("bypass the ad-blocker check"). */
export const AD_FREE_PERMISSION = 'user.permission.adblocker';

/** spec §9: the ad component's defaults. Slot, client, test and region have none. */
export const AD_DEFAULTS = Object.freeze({
  wrapperClass: 'adswrapper',
  style: Object.freeze({ display: 'block' }) as Readonly<CSSProperties>,
  format: 'auto',
  /** in-article and in-feed ads are always fluid */
  fluidFormat: 'fluid',
  nonPersonalized: false,
  fullWidthResponsive: false,
  newAdsCode: false,
  inFeedLayoutKey: '-fg+5n+6t-e7+r',
});

export type AdLayout = 'display' | 'in-article' | 'in-feed';

export interface AdProps {
  /** the ad unit's slot id (required: the provider shows nothing without one) */
  slot: string;
  /** the publisher id (`ca-pub-…`); by default the one the panel's ads settings give */
  client?: string;
  /** display (default), in-article or in-feed; the last two are always `fluid` */
  layout?: AdLayout;
  /** a display ad's format (default `auto`) */
  format?: string;
  /** in-feed only (default: spec §9's layout key) */
  layoutKey?: string;
  /** ask for non-personalised ads (default off) */
  nonPersonalized?: boolean;
  /** let the provider widen the ad to the screen on phones (default off) */
  fullWidthResponsive?: boolean;
  /** load the provider's script with the client in its address, as its newer code does (default off) */
  newAdsCode?: boolean;
  /** the provider's test mode: impressions are not counted */
  test?: boolean;
  /** the provider's ad region, to keep ads of one region apart */
  region?: string;
  /** the wrapper's class (default `adswrapper`) */
  wrapperClass?: string;
  /** the ad element's style (default `display: block`) */
  style?: CSSProperties;
}

export interface AdsState {
  /** the ad client code of GET /api/system/ga-ads, null while ads are off (or not fetched yet) */
  client: string | null;
  /** the page on screen takes no ads: an admin page, or no page known yet (the kernel says on every navigation) */
  adFreePage: boolean;
  setClient(client: string | null): void;
  setAdFreePage(adFree: boolean): void;
}

export const adsStore = create<AdsState>()((set) => ({
  client: null,
  adFreePage: true,
  setClient: (client) => set({ client: client && client.trim() !== '' ? client.trim() : null }),
  setAdFreePage: (adFreePage) => set({ adFreePage }),
}));

/** Whether ads may show to someone holding `permissions` on a page that is (not) ad-free. */
export function adsAllowed(permissions: readonly string[], adFreePage: boolean): boolean {
  return !adFreePage && !hasPermission(permissions, AD_FREE_PERMISSION);
}

/** The ad client when an ad may show here and now, else null. */
export function useAdClient(): string | null {
  const client = adsStore((s) => s.client);
  const adFreePage = adsStore((s) => s.adFreePage);
  const permissions = sessionStore((s) => s.permissions);
  return client && adsAllowed(permissions, adFreePage) ? client : null;
}

type AdsQueue = Record<string, unknown>[] & { requestNonPersonalizedAds?: number };

function adsQueue(win: Window): AdsQueue {
  const holder = win as unknown as { adsbygoogle?: AdsQueue };
  holder.adsbygoogle ??= [];
  return holder.adsbygoogle;
}

/**
 * Adds the provider's script once per page (a second call, or one after the kernel's page-level ads,
 * adds nothing). `withClient`: the newer code's address, which names the publisher.
 */
export function ensureAdsScript(client: string, withClient: boolean, doc: Document = document): void {
  if (doc.querySelector(`script[src^="${ADS_SCRIPT_URL}"]`)) return;
  const script = doc.createElement('script');
  script.async = true;
  script.crossOrigin = 'anonymous';
  script.src = withClient ? `${ADS_SCRIPT_URL}?client=${encodeURIComponent(client)}` : ADS_SCRIPT_URL;
  doc.head.appendChild(script);
}

/** The attributes of the provider's `<ins>` element for these props (spec §9 defaults filled in). */
export function adAttributes(props: AdProps, client: string): Record<string, string> {
  const layout = props.layout ?? 'display';
  const attributes: Record<string, string> = {
    'data-ad-client': client,
    'data-ad-slot': props.slot,
    'data-ad-format': layout === 'display' ? (props.format ?? AD_DEFAULTS.format) : AD_DEFAULTS.fluidFormat,
  };
  if (layout === 'in-article') attributes['data-ad-layout'] = 'in-article';
  if (layout === 'in-feed') attributes['data-ad-layout-key'] = props.layoutKey ?? AD_DEFAULTS.inFeedLayoutKey;
  if (layout === 'display') attributes['data-full-width-responsive'] = String(props.fullWidthResponsive ?? AD_DEFAULTS.fullWidthResponsive);
  if (props.test) attributes['data-adtest'] = 'on';
  if (props.region) attributes['data-ad-region'] = props.region;
  return attributes;
}

/**
 * One ad unit. It renders nothing without an ad client (spec §5: the ads need an adClient) — ads off,
 * start-up step 4 not done or failed — on an admin page, or for a holder of user.permission.adblocker.
 * @example <Ad slot="1234567890" />
 */
export function Ad(props: AdProps) {
  const panelClient = useAdClient();
  const client = props.client ?? panelClient;
  const shown = Boolean(client && panelClient !== null && props.slot);
  const element = useRef<HTMLModElement | null>(null);
  const nonPersonalized = props.nonPersonalized ?? AD_DEFAULTS.nonPersonalized;
  const newAdsCode = props.newAdsCode ?? AD_DEFAULTS.newAdsCode;

  useEffect(() => {
    if (!shown || !client || !element.current) return;
    // an element the provider already filled (React's strict double effects) is not asked again
    if (element.current.getAttribute('data-adsbygoogle-status')) return;
    const queue = adsQueue(window);
    if (nonPersonalized) queue.requestNonPersonalizedAds = 1;
    ensureAdsScript(client, newAdsCode);
    queue.push({});
  }, [shown, client, nonPersonalized, newAdsCode]);

  if (!shown || !client) return null;
  return (
    <div className={props.wrapperClass ?? AD_DEFAULTS.wrapperClass}>
      <ins ref={element} className="adsbygoogle" style={props.style ?? AD_DEFAULTS.style} {...adAttributes(props, client)} />
    </div>
  );
}
