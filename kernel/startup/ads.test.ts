// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adsStore } from '../../sdk/client/ads';
import { AD_FREE_ATTRIBUTE, ADS_FAILURE_MESSAGE, ADS_SCRIPT_URL, followAdsState, loadAds } from './ads';

afterEach(() => {
  document.head.innerHTML = '';
  document.documentElement.removeAttribute(AD_FREE_ATTRIBUTE);
  delete (window as unknown as { adsbygoogle?: unknown }).adsbygoogle;
  adsStore.setState({ client: null, adFreePage: true });
});

const answer = (status: number, body: string) => vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'text/plain' } }));
const queue = () => (window as unknown as { adsbygoogle?: unknown[] }).adsbygoogle;
const noSubscription = () => () => undefined;

describe('ads (spec §4.4, §5, §8)', () => {
  it('trims the client code and hands it to the ad component; nothing of the provider yet', async () => {
    const log = { warn: vi.fn() };
    const fetch = answer(200, '  ca-pub-123\n');
    const client = await loadAds({ enabled: true, permissions: [], fetch, log });
    expect(client).toBe('ca-pub-123');
    expect(fetch).toHaveBeenCalledWith('/api/system/ga-ads', expect.objectContaining({ headers: { Accept: 'text/plain' } }));
    expect(adsStore.getState().client).toBe('ca-pub-123');
    expect(document.head.querySelector('script')).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('requests nothing at all while ads are switched off (no "null" client, no warning)', async () => {
    const log = { warn: vi.fn() };
    const fetch = answer(200, 'ca-pub-123');
    expect(await loadAds({ enabled: false, permissions: [], fetch, log })).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
    expect(adsStore.getState().client).toBeNull();
    expect(document.head.querySelector('script')).toBeNull();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a non-OK answer', answer(404, 'not set')],
    ['an empty client code', answer(200, '   ')],
  ])("skips with the warning 'Failed to fetch AdSense client code' on %s", async (_what, fetch) => {
    const log = { warn: vi.fn() };
    expect(await loadAds({ enabled: null, permissions: [], fetch, log })).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(ADS_FAILURE_MESSAGE);
    expect(adsStore.getState().client).toBeNull();
    expect(document.head.querySelector('script')).toBeNull();
  });

  it('skips with the warning when the request fails', async () => {
    const log = { warn: vi.fn() };
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await loadAds({ enabled: true, permissions: [], fetch: failing, log })).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(ADS_FAILURE_MESSAGE, expect.any(TypeError));
  });
});

describe('page-level ads follow the page and the visitor', () => {
  it('start on the first page that may show ads, with the publisher in the script address', async () => {
    await loadAds({ enabled: true, permissions: [], fetch: answer(200, 'ca-pub-123') });
    const stop = followAdsState(() => [], noSubscription);
    // no page known yet: nothing
    expect(document.head.querySelector('script')).toBeNull();
    adsStore.getState().setAdFreePage(false);
    const script = document.head.querySelector('script') as HTMLScriptElement;
    expect(script.src).toBe(`${ADS_SCRIPT_URL}?client=ca-pub-123`);
    expect(script.async).toBe(true);
    expect(queue()).toEqual([{ google_ad_client: 'ca-pub-123', enable_page_level_ads: true }]);
    expect(document.documentElement.hasAttribute(AD_FREE_ATTRIBUTE)).toBe(false);
    // an admin page afterwards: what the provider placed by itself is hidden, and it is asked once only
    adsStore.getState().setAdFreePage(true);
    expect(document.documentElement.hasAttribute(AD_FREE_ATTRIBUTE)).toBe(true);
    adsStore.getState().setAdFreePage(false);
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
    expect(queue()).toHaveLength(1);
    stop();
  });

  it.each([['user.permission.adblocker'], ['admin.root']])('never start for a holder of %s, whose pages stay ad-free', async (permission) => {
    let permissions: string[] = [permission];
    let notify = () => undefined as void;
    await loadAds({ enabled: true, permissions, fetch: answer(200, 'ca-pub-123') });
    const stop = followAdsState(
      () => permissions,
      (listener) => {
        notify = listener;
        return () => undefined;
      },
    );
    adsStore.getState().setAdFreePage(false);
    expect(document.head.querySelector('script')).toBeNull();
    expect(queue()).toBeUndefined();
    expect(document.documentElement.hasAttribute(AD_FREE_ATTRIBUTE)).toBe(true);
    // signed out: now a visitor who may see ads
    permissions = [];
    notify();
    expect(document.head.querySelector('script')).not.toBeNull();
    expect(document.documentElement.hasAttribute(AD_FREE_ATTRIBUTE)).toBe(false);
    stop();
  });

  it('hides the provider’s own placements on an ad-free page by a style rule', async () => {
    await loadAds({ enabled: true, permissions: [], fetch: answer(200, 'ca-pub-123') });
    const rule = document.getElementById('op-ad-free')?.textContent ?? '';
    expect(rule).toContain(`html[${AD_FREE_ATTRIBUTE}] ins.adsbygoogle`);
    expect(rule).toContain('.google-auto-placed');
    expect(rule).toContain('display: none !important');
  });
});
