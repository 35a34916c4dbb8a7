// Pictures that load when they come into view (spec §5, §9: lazy load margin 50px, threshold 0.1), and
// load lighter with the optimizeImages setting. Every plugin shows its pictures through LazyImage, so
// a long page of announcements, library images or server pictures costs only what is on screen.
//
// - lazyLoading (default on): an IntersectionObserver with rootMargin '50px' and threshold 0.1 starts
//   the download; a browser without IntersectionObserver loads at once (with the browser's own lazy
//   loading). Switching the setting off loads every waiting picture at once.
// - optimizeImages (default on): decoded off the main thread (decoding="async"), the space kept while
//   loading (width/height), and when the caller offers sized variants the browser picks the smallest
//   that fits (srcset/sizes). Off: the original address, decoded the browser's default way.
// - spec §5: a source is read as an address relative to the site origin; an invalid one logs an error
//   and is skipped (nothing is requested). Only http(s), data: and blob: pictures are shown.
import { useEffect, useMemo, useRef, useState, type ImgHTMLAttributes, type ReactEventHandler } from 'react';
import { uiStore } from '../stores/ui';

/** spec §9: the lazy load margin and threshold. */
export const LAZY_IMAGE_OBSERVER_OPTIONS: Readonly<IntersectionObserverInit> = Object.freeze({ rootMargin: '50px', threshold: 0.1 });

const ALLOWED_PROTOCOLS = new Set(['http:', 'https:', 'data:', 'blob:']);

/**
 * spec §5: reads an image source as an address relative to the site origin. Same-origin addresses come
 * back as a path (`images/a.png` → `/images/a.png`, whatever page shows it), others whole. An invalid
 * one — not an address, or a scheme that is not a picture's — logs an error and gives null.
 */
export function resolveImageSource(src: string, origin: string = typeof location === 'undefined' ? 'http://localhost' : location.origin): string | null {
  let url: URL;
  try {
    url = new URL(src.trim(), `${origin}/`);
  } catch {
    console.error(`Invalid lazy image source: ${src}`);
    return null;
  }
  if (!ALLOWED_PROTOCOLS.has(url.protocol) || (url.protocol === 'data:' && !/^data:image\//i.test(url.href))) {
    console.error(`Invalid lazy image source: ${src}`);
    return null;
  }
  return url.origin === origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/** One sized variant of a picture (optimizeImages: the browser picks the smallest that fits). */
export interface ImageVariant {
  /** its width in pixels */
  width: number;
  src: string;
}

export interface LazyImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'loading' | 'decoding' | 'width' | 'height'> {
  /** the picture's address; null or empty: nothing is shown */
  src: string | null | undefined;
  /** the text alternative; '' for a decorative picture */
  alt: string;
  /** the picture's pixel size when known: with optimizeImages the space is kept while it loads */
  width?: number;
  height?: number;
  /** sized variants of the same picture (used with optimizeImages) */
  variants?: readonly ImageVariant[];
  /** how wide the picture shows, for choosing a variant (e.g. '(max-width: 600px) 100vw, 320px') */
  sizes?: string;
  /** loads at once whatever the settings: a picture at the top of a page that the page is about */
  eager?: boolean;
}

type Phase = 'waiting' | 'loading' | 'loaded' | 'skipped';

function srcSetOf(variants: readonly ImageVariant[] | undefined): string | undefined {
  if (!variants?.length) return undefined;
  const parts: string[] = [];
  for (const v of variants) {
    const src = Number.isInteger(v.width) && v.width > 0 ? resolveImageSource(v.src) : null;
    // a comma or a space inside an address would split the list: such a variant is left out
    if (src && !/[\s,]/.test(src)) parts.push(`${src} ${v.width}w`);
  }
  return parts.length ? parts.join(', ') : undefined;
}

/**
 * An `<img>` that loads when it comes near the screen and follows the performance settings. Use it for
 * every picture a page shows. It takes the css prop and the usual image attributes.
 * @example <LazyImage src={image.url} alt={image.name} width={image.width} height={image.height} css={{ width: '100%' }} />
 */
export function LazyImage({ src, alt, width, height, variants, sizes, eager = false, onLoad, onError, ...rest }: LazyImageProps) {
  const lazyLoading = uiStore((s) => s.settings.performance.lazyLoading);
  const optimize = uiStore((s) => s.settings.performance.optimizeImages);
  const element = useRef<HTMLImageElement>(null);
  // resolved (and an invalid one logged) once per source, not on every render
  const resolved = useMemo(() => (src ? resolveImageSource(src) : null), [src]);
  const observable = typeof IntersectionObserver === 'function';
  const waitForView = lazyLoading && !eager && observable;
  // the source that came into view (a new source waits again)
  const [seen, setSeen] = useState<string | null>(null);
  const [loaded, setLoaded] = useState<string | null>(null);
  const show = resolved !== null && (!waitForView || seen === resolved);

  useEffect(() => {
    const node = element.current;
    if (!waitForView || resolved === null || seen === resolved || !node) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        setSeen(resolved);
      }
    }, LAZY_IMAGE_OBSERVER_OPTIONS);
    observer.observe(node);
    return () => observer.disconnect();
  }, [waitForView, resolved, seen]);

  const phase: Phase = resolved === null ? 'skipped' : !show ? 'waiting' : loaded === resolved ? 'loaded' : 'loading';
  const handleLoad: ReactEventHandler<HTMLImageElement> = (event) => {
    setLoaded(resolved);
    onLoad?.(event);
  };

  if (resolved === null && !src) return null;
  return (
    <img
      {...rest}
      ref={element}
      alt={alt}
      src={show && resolved !== null ? resolved : undefined}
      srcSet={show && optimize ? srcSetOf(variants) : undefined}
      sizes={show && optimize && variants?.length ? sizes : undefined}
      width={optimize ? width : undefined}
      height={optimize ? height : undefined}
      decoding={optimize ? 'async' : undefined}
      // no IntersectionObserver: the browser's own lazy loading is the next best thing
      loading={lazyLoading && !eager && !observable ? 'lazy' : undefined}
      data-lazy-image={phase}
      // while it waits its alternative text stays for screen readers but is not painted in the box
      style={show ? rest.style : { ...rest.style, color: 'transparent' }}
      onLoad={handleLoad}
      onError={onError}
    />
  );
}
