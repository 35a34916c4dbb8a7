import { Global } from '@emotion/react';
import { theme } from './theme';

const c = theme.colors;

/**
 * The document-wide base of the dark theme (box sizing, colours, font, focus rings, reduced motion).
 * The kernel renders it once at the root; plugins never need it.
 */
export function GlobalStyles() {
  return (
    <Global
      styles={{
        '*, *::before, *::after': { boxSizing: 'border-box' },
        ':root': { colorScheme: 'dark' },
        html: { WebkitTextSizeAdjust: '100%', textSizeAdjust: '100%' },
        body: {
          margin: 0,
          minWidth: 320,
          background: c.background,
          color: c.text,
          fontFamily: theme.font.family,
          fontSize: theme.font.size.md,
          lineHeight: 1.5,
          WebkitFontSmoothing: 'antialiased',
        },
        a: { color: c.primaryHover, textUnderlineOffset: 2 },
        'a:hover': { color: c.text },
        ':focus-visible': { outline: `2px solid ${c.focus}`, outlineOffset: 2 },
        '::selection': { background: c.primarySoft },
        'img, svg': { maxWidth: '100%' },
        '*': { scrollbarColor: `${c.borderStrong} transparent` },
        '[data-reduce-motion="true"] *, [data-reduce-motion="true"] *::before, [data-reduce-motion="true"] *::after': {
          animationDuration: '0.01ms !important',
          animationIterationCount: '1 !important',
          transitionDuration: '0.01ms !important',
        },
        '@media (prefers-reduced-motion: reduce)': {
          '*, *::before, *::after': { animationDuration: '0.01ms !important', transitionDuration: '0.01ms !important' },
        },
      }}
    />
  );
}
