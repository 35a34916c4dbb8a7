// The panel's dark theme tokens. Every plugin styles with these, so pages look alike.

/** Design tokens of the dark theme. */
export const theme = Object.freeze({
  colors: Object.freeze({
    background: '#0b0f17',
    surface: '#121826',
    surfaceRaised: '#1a2233',
    surfaceHover: '#202a3e',
    border: '#263049',
    borderStrong: '#34405e',
    text: '#e6eaf2',
    muted: '#94a0b8',
    // WCAG AA (4.5:1) on surface and surfaceRaised: axe runs over every page in the e2e suite
    subtle: '#8591ab',
    primary: '#6d7cff',
    primaryHover: '#8391ff',
    // dark on the primary fill: white on #6d7cff is 3.5:1, below WCAG AA; this is 5.5:1 (6.8 on hover)
    primaryText: '#0b0f17',
    primarySoft: 'rgba(109,124,255,.14)',
    success: '#34d399',
    successSoft: 'rgba(52,211,153,.12)',
    warning: '#fbbf24',
    warningSoft: 'rgba(251,191,36,.12)',
    danger: '#f87171',
    // a fill under white text: 4.9:1
    dangerStrong: '#cc3a3f',
    dangerSoft: 'rgba(248,113,113,.12)',
    info: '#60a5fa',
    infoSoft: 'rgba(96,165,250,.12)',
    focus: '#9aa6ff',
  }),
  radii: Object.freeze({ sm: '6px', md: '10px', lg: '14px', xl: '18px', full: '999px' }),
  shadows: Object.freeze({
    sm: '0 1px 2px rgba(0,0,0,.35)',
    md: '0 4px 16px rgba(0,0,0,.35)',
    lg: '0 12px 40px rgba(0,0,0,.5)',
  }),
  /** spacing scale in px: space(1) = 4px */
  space: (n: number): string => `${n * 4}px`,
  font: Object.freeze({
    family: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
    mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
    size: Object.freeze({ xs: '12px', sm: '13px', md: '14px', lg: '16px', xl: '20px', xxl: '26px', display: '56px' }),
    weight: Object.freeze({ normal: 400, medium: 500, semibold: 600, bold: 700 }),
  }),
  /** min-width media queries */
  breakpoints: Object.freeze({ sm: '@media (min-width: 600px)', md: '@media (min-width: 900px)', lg: '@media (min-width: 1200px)' }),
  /** the page transition duration the user chose (spec §9), with a fallback */
  transition: 'var(--op-transition-duration, .22s)',
  /** a visible keyboard focus ring */
  focusRing: '0 0 0 2px #0b0f17, 0 0 0 4px #9aa6ff',
});

export type Theme = typeof theme;
