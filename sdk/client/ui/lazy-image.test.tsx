// @vitest-environment jsdom
// LazyImage (spec §5, §9): the observer's options are exactly the spec's (margin 50px, threshold 0.1);
// nothing is requested before the picture comes into view; a source is read relative to the site
// origin, and an invalid one is logged and skipped; the lazyLoading and optimizeImages settings act live.
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { uiStore } from '../stores/ui';
import { LAZY_IMAGE_OBSERVER_OPTIONS, LazyImage, resolveImageSource, type LazyImageProps } from './lazy-image';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A stand-in IntersectionObserver: records how it was made and what it watches; the test says what shows. */
class FakeObserver {
  static made: FakeObserver[] = [];
  readonly watched = new Set<Element>();
  disconnected = false;
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit | undefined,
  ) {
    FakeObserver.made.push(this);
  }
  observe(target: Element) {
    this.watched.add(target);
  }
  unobserve(target: Element) {
    this.watched.delete(target);
  }
  disconnect() {
    this.disconnected = true;
    this.watched.clear();
  }
  takeRecords() {
    return [];
  }
  /** the element comes into view (or not) */
  static show(target: Element, isIntersecting = true) {
    for (const o of FakeObserver.made) {
      if (!o.watched.has(target)) continue;
      act(() => o.callback([{ target, isIntersecting, intersectionRatio: isIntersecting ? 0.5 : 0 } as IntersectionObserverEntry], o as unknown as IntersectionObserver));
    }
  }
}

let root: Root | null = null;
let container: HTMLElement | null = null;

beforeEach(() => {
  FakeObserver.made = [];
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  uiStore.getState().resetSettings();
});
afterEach(() => {
  if (root) act(() => root!.unmount());
  container?.remove();
  root = null;
  container = null;
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function render(props: LazyImageProps) {
  container = document.createElement('div');
  document.body.appendChild(container);
  root = createRoot(container);
  act(() => root!.render(createElement(LazyImage, props)));
  return () => container!.querySelector('img');
}

describe('LazyImage', () => {
  it('watches with exactly the spec’s options: rootMargin 50px, threshold 0.1', () => {
    expect(LAZY_IMAGE_OBSERVER_OPTIONS).toEqual({ rootMargin: '50px', threshold: 0.1 });
    const img = render({ src: '/api/images/1/map.png', alt: 'Map' });
    expect(FakeObserver.made).toHaveLength(1);
    expect(FakeObserver.made[0]!.options).toEqual({ rootMargin: '50px', threshold: 0.1 });
    expect(FakeObserver.made[0]!.watched.has(img()!)).toBe(true);
  });

  it('requests nothing until the picture comes into view, then loads it and stops watching', () => {
    const img = render({ src: '/api/images/1/map.png', alt: 'Map' });
    expect(img()!.hasAttribute('src')).toBe(false);
    expect(img()!.dataset.lazyImage).toBe('waiting');
    expect(img()!.alt).toBe('Map');
    FakeObserver.show(img()!, false);
    expect(img()!.hasAttribute('src')).toBe(false);
    FakeObserver.show(img()!);
    expect(img()!.getAttribute('src')).toBe('/api/images/1/map.png');
    expect(img()!.dataset.lazyImage).toBe('loading');
    expect(FakeObserver.made[0]!.disconnected).toBe(true);
    act(() => img()!.dispatchEvent(new Event('load')));
    expect(img()!.dataset.lazyImage).toBe('loaded');
  });

  it('reads a source relative to the site origin, not to the page showing it', () => {
    expect(resolveImageSource('images/a.png', 'https://panel.example.com')).toBe('/images/a.png');
    expect(resolveImageSource('/images/a.png?v=2', 'https://panel.example.com')).toBe('/images/a.png?v=2');
    expect(resolveImageSource('../../x.png', 'https://panel.example.com')).toBe('/x.png');
    expect(resolveImageSource('https://panel.example.com/b.png', 'https://panel.example.com')).toBe('/b.png');
    expect(resolveImageSource('https://cdn.example.com/c.png', 'https://panel.example.com')).toBe('https://cdn.example.com/c.png');
    expect(resolveImageSource('data:image/png;base64,AAAA', 'https://panel.example.com')).toBe('data:image/png;base64,AAAA');
  });

  it('logs an invalid source and skips it: no request, ever', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const bad of ['http://[::1', 'javascript:alert(1)', 'data:text/html,<b>x</b>', 'ftp://files.example.com/a.png']) {
      expect(resolveImageSource(bad, 'https://panel.example.com'), bad).toBeNull();
      expect(error).toHaveBeenLastCalledWith(`Invalid lazy image source: ${bad}`);
    }
    error.mockClear();
    const img = render({ src: 'javascript:alert(1)', alt: 'x' });
    expect(error).toHaveBeenCalledTimes(1);
    expect(img()!.hasAttribute('src')).toBe(false);
    expect(img()!.dataset.lazyImage).toBe('skipped');
    expect(FakeObserver.made).toHaveLength(0);
  });

  it('with lazy loading off, loads at once; switching it off loads the pictures still waiting', () => {
    const img = render({ src: '/a.png', alt: '' });
    expect(img()!.hasAttribute('src')).toBe(false);
    act(() => uiStore.getState().updateSettings('performance', { lazyLoading: false }));
    expect(img()!.getAttribute('src')).toBe('/a.png');
    expect(FakeObserver.made[0]!.disconnected).toBe(true);
  });

  it('eager pictures load at once; without IntersectionObserver the browser’s lazy loading is used', () => {
    const eager = render({ src: '/a.png', alt: '', eager: true });
    expect(eager()!.getAttribute('src')).toBe('/a.png');
    act(() => root!.unmount());
    root = null;
    vi.stubGlobal('IntersectionObserver', undefined);
    const img = render({ src: '/b.png', alt: '' });
    expect(img()!.getAttribute('src')).toBe('/b.png');
    expect(img()!.getAttribute('loading')).toBe('lazy');
  });

  it('optimizeImages: async decoding, the space kept, the smallest fitting variant — and none of it when off', () => {
    act(() => uiStore.getState().updateSettings('performance', { lazyLoading: false }));
    const img = render({
      src: '/api/images/1/map.png',
      alt: '',
      width: 1600,
      height: 900,
      sizes: '320px',
      variants: [
        { width: 320, src: '/api/images/1/map.png?w=320' },
        { width: 640, src: '/api/images/1/map.png?w=640' },
        { width: 0, src: '/bad' },
        { width: 800, src: 'javascript:x' },
      ],
    });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(img()!.getAttribute('decoding')).toBe('async');
    expect(img()!.getAttribute('width')).toBe('1600');
    expect(img()!.getAttribute('height')).toBe('900');
    expect(img()!.getAttribute('srcset')).toBe('/api/images/1/map.png?w=320 320w, /api/images/1/map.png?w=640 640w');
    expect(img()!.getAttribute('sizes')).toBe('320px');
    act(() => uiStore.getState().updateSettings('performance', { optimizeImages: false }));
    expect(img()!.getAttribute('src')).toBe('/api/images/1/map.png');
    for (const attribute of ['decoding', 'width', 'height', 'srcset', 'sizes']) expect(img()!.hasAttribute(attribute), attribute).toBe(false);
  });

  it('shows nothing for no source at all', () => {
    const img = render({ src: null, alt: 'x' });
    expect(img()).toBeNull();
  });
});
