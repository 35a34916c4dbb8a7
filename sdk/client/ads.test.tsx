// @vitest-environment jsdom
import { act, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Ad, AD_DEFAULTS, adAttributes, ADS_SCRIPT_URL, adsStore } from './ads';
import { sessionStore } from './stores/session';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});

let roots: { root: Root; container: HTMLElement }[] = [];

function render(node: ReactNode): { container: HTMLElement } {
  const container = document.body.appendChild(document.createElement('div'));
  const root = createRoot(container);
  act(() => root.render(node));
  roots.push({ root, container });
  return { container };
}

function cleanup(): void {
  for (const { root, container } of roots) {
    act(() => root.unmount());
    container.remove();
  }
  roots = [];
}

const queue = () => (window as unknown as { adsbygoogle?: Record<string, unknown>[] & { requestNonPersonalizedAds?: number } }).adsbygoogle;

beforeEach(() => {
  adsStore.setState({ client: 'ca-pub-42', adFreePage: false });
});

afterEach(() => {
  cleanup();
  document.head.innerHTML = '';
  delete (window as unknown as { adsbygoogle?: unknown }).adsbygoogle;
  adsStore.setState({ client: null, adFreePage: true });
  sessionStore.setState({ permissions: [] });
});

describe('the ad component (spec §9 defaults)', () => {
  it('renders the provider’s unit with the defaults: adswrapper, display:block, format auto, not full-width', () => {
    const { container } = render(<Ad slot="1234567890" />);
    const wrapper = container.firstElementChild as HTMLElement;
    expect(wrapper.className).toBe('adswrapper');
    const ins = wrapper.querySelector('ins') as HTMLElement;
    expect(ins.className).toBe('adsbygoogle');
    expect(ins.style.display).toBe('block');
    expect(ins.getAttribute('data-ad-client')).toBe('ca-pub-42');
    expect(ins.getAttribute('data-ad-slot')).toBe('1234567890');
    expect(ins.getAttribute('data-ad-format')).toBe('auto');
    expect(ins.getAttribute('data-full-width-responsive')).toBe('false');
    // test and region have no defaults
    expect(ins.hasAttribute('data-adtest')).toBe(false);
    expect(ins.hasAttribute('data-ad-region')).toBe(false);
    // old ads code: the script address without the publisher; personalised ads; one request queued
    expect((document.head.querySelector('script') as HTMLScriptElement).src).toBe(ADS_SCRIPT_URL);
    expect(queue()).toEqual([{}]);
    expect(queue()?.requestNonPersonalizedAds).toBeUndefined();
  });

  it('is fluid for in-article and in-feed ads, with the default in-feed layout key', () => {
    expect(adAttributes({ slot: '1', layout: 'in-article' }, 'c')).toEqual({
      'data-ad-client': 'c',
      'data-ad-slot': '1',
      'data-ad-format': 'fluid',
      'data-ad-layout': 'in-article',
    });
    expect(adAttributes({ slot: '1', layout: 'in-feed' }, 'c')).toEqual({
      'data-ad-client': 'c',
      'data-ad-slot': '1',
      'data-ad-format': 'fluid',
      'data-ad-layout-key': AD_DEFAULTS.inFeedLayoutKey,
    });
    expect(AD_DEFAULTS.inFeedLayoutKey).toBe('-fg+5n+6t-e7+r');
    // a display ad's format is not fluid unless asked
    expect(adAttributes({ slot: '1', format: 'rectangle', fullWidthResponsive: true, test: true, region: 'top' }, 'c')).toEqual({
      'data-ad-client': 'c',
      'data-ad-slot': '1',
      'data-ad-format': 'rectangle',
      'data-full-width-responsive': 'true',
      'data-adtest': 'on',
      'data-ad-region': 'top',
    });
  });

  it('asks for non-personalised ads and loads the new code’s address only when told', () => {
    render(<Ad slot="1" nonPersonalized newAdsCode wrapperClass="promo" style={{ display: 'inline-block', width: 300 }} />);
    expect(queue()?.requestNonPersonalizedAds).toBe(1);
    expect((document.head.querySelector('script') as HTMLScriptElement).src).toBe(`${ADS_SCRIPT_URL}?client=ca-pub-42`);
    expect(document.querySelector('.promo ins')?.getAttribute('style')).toContain('inline-block');
  });

  it('refuses to render without an ad client (spec §5), and loads nothing', () => {
    adsStore.setState({ client: null });
    const { container } = render(<Ad slot="1" client="ca-pub-own" />);
    expect(container.innerHTML).toBe('');
    expect(document.head.querySelector('script')).toBeNull();
    expect(queue()).toBeUndefined();
  });

  it('shows nothing on an admin page or to a holder of user.permission.adblocker, and follows changes', () => {
    adsStore.setState({ adFreePage: true });
    const { container } = render(<Ad slot="1" />);
    expect(container.innerHTML).toBe('');
    act(() => adsStore.getState().setAdFreePage(false));
    expect(container.querySelector('ins')).not.toBeNull();
    act(() => sessionStore.setState({ permissions: ['user.permission.adblocker'] }));
    expect(container.innerHTML).toBe('');
    act(() => sessionStore.setState({ permissions: ['admin.root'] }));
    expect(container.innerHTML).toBe('');
  });

  it('adds the provider’s script once for several units', () => {
    render(
      <>
        <Ad slot="1" />
        <Ad slot="2" layout="in-feed" />
      </>,
    );
    expect(document.head.querySelectorAll('script')).toHaveLength(1);
    expect(queue()).toHaveLength(2);
  });
});
