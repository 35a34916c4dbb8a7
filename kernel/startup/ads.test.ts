// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADS_FAILURE_MESSAGE, ADS_SCRIPT_URL, loadAds, startAdClientFetch } from './ads';

afterEach(() => {
  document.head.innerHTML = '';
  delete (window as unknown as { adsbygoogle?: unknown }).adsbygoogle;
});

const answer = (status: number, body: string) => vi.fn(async () => new Response(body, { status, headers: { 'content-type': 'text/plain' } }));

describe('ads (spec §4.4, §5, §8)', () => {
  it('trims the client code and loads the provider script with page-level ads', async () => {
    const log = { warn: vi.fn() };
    const client = await loadAds(startAdClientFetch(answer(200, '  ca-pub-123\n')), document, window, log);
    expect(client).toBe('ca-pub-123');
    const script = document.head.querySelector('script') as HTMLScriptElement;
    expect(script.src).toBe(`${ADS_SCRIPT_URL}?client=ca-pub-123`);
    expect(script.async).toBe(true);
    expect((window as unknown as { adsbygoogle: unknown[] }).adsbygoogle).toEqual([{ google_ad_client: 'ca-pub-123', enable_page_level_ads: true }]);
    expect(log.warn).not.toHaveBeenCalled();
  });

  it.each([
    ['a non-OK answer', answer(404, 'not set')],
    ['an empty client code', answer(200, '   ')],
  ])("skips with the warning 'Failed to fetch AdSense client code' on %s", async (_what, fetch) => {
    const log = { warn: vi.fn() };
    expect(await loadAds(startAdClientFetch(fetch), document, window, log)).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(ADS_FAILURE_MESSAGE);
    expect(document.head.querySelector('script')).toBeNull();
  });

  it('skips with the warning when the request fails', async () => {
    const log = { warn: vi.fn() };
    const failing = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await loadAds(startAdClientFetch(failing), document, window, log)).toBeNull();
    expect(log.warn).toHaveBeenCalledWith(ADS_FAILURE_MESSAGE, expect.any(TypeError));
  });
});
