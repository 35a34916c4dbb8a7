// Icons as inline SVG paths (24×24, stroked with currentColor): no icon font, no extra request.
import type { CSSProperties } from 'react';

const PATHS = {
  home: 'M3 11l9-8 9 8M5 9.5V21h5v-6h4v6h5V9.5',
  coins: 'M9 15a6 6 0 100-12 6 6 0 000 12zM15.9 9.1a6 6 0 11-6.8 6.8M9 7v4',
  server: 'M4 4h16v6H4zM4 14h16v6H4zM8 7h.01M8 17h.01M12 7h4M12 17h4',
  store: 'M5 8h14l-1 12H6zM9 8V6a3 3 0 016 0v2',
  gift: 'M4 11h16v10H4zM3 7h18v4H3zM12 7v14M12 7C10.5 4 7 3.5 7 6s3 1 5 1zm0 0c1.5-3 5-3.5 5-1s-3 1-5 1z',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 21c0-4 3.6-6 8-6s8 2 8 6',
  users: 'M9 11a4 4 0 100-8 4 4 0 000 8zM2 21c0-3.5 3-5.5 7-5.5s7 2 7 5.5M16 3.5a4 4 0 010 7.5M18 15.5c2.4.6 4 2.5 4 5.5',
  logout: 'M9 21H5V3h4M16 17l5-5-5-5M21 12H9',
  settings: 'M4 6h9M17 6h3M4 12h3M11 12h9M4 18h11M19 18h1M15 4v4M9 10v4M17 16v4',
  shield: 'M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6z',
  chart: 'M4 4v16h16M8 16v-5M12 16V8M16 16v-3',
  ticket: 'M3 7h18v3a2 2 0 000 4v3H3v-3a2 2 0 000-4zM14 7v10',
  earn: 'M3 17l6-6 4 4 8-8M15 7h6v6',
  clock: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3 2',
  link: 'M10 14a4 4 0 005.7 0l3-3a4 4 0 00-5.7-5.7l-1 1M14 10a4 4 0 00-5.7 0l-3 3a4 4 0 005.7 5.7l1-1',
  external: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  language: 'M12 21a9 9 0 100-18 9 9 0 000 18zM3 12h18M12 3c2.5 2.5 3.5 5.5 3.5 9s-1 6.5-3.5 9c-2.5-2.5-3.5-5.5-3.5-9s1-6.5 3.5-9z',
  gear: 'M12 15a3 3 0 100-6 3 3 0 000 6zM12 19a7 7 0 100-14 7 7 0 000 14zM12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9L7 7M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
  menu: 'M4 6h16M4 12h16M4 18h16',
  close: 'M6 6l12 12M18 6L6 18',
  check: 'M5 12.5l4.5 4.5L19 7',
  alert: 'M12 3l10 18H2zM12 10v4M12 17.5v.01',
  lock: 'M6 11h12v10H6zM8 11V7a4 4 0 018 0v4',
  mail: 'M3 5h18v14H3zM3 6l9 7 9-7',
  cpu: 'M7 7h10v10H7zM10 10h4v4h-4zM10 3v4M14 3v4M10 17v4M14 17v4M3 10h4M3 14h4M17 10h4M17 14h4',
  ram: 'M3 7h18v9H3zM7 10v3M11 10v3M15 10v3M6 16v3M18 16v3M10 16v2M14 16v2',
  disk: 'M3 13l3-8h12l3 8v6H3zM3 13h18M17 16h.01',
  database: 'M12 3c4.4 0 8 1.3 8 3s-3.6 3-8 3-8-1.3-8-3 3.6-3 8-3zM4 6v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3',
  archive: 'M3 4h18v4H3zM5 8v12h14V8M10 12h4',
  cloud: 'M7 19a5 5 0 01-.9-9.9A6.5 6.5 0 0118.6 10.5 4.3 4.3 0 0117.5 19z',
  image: 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15.5 9.5a1.5 1.5 0 100-3 1.5 1.5 0 000 3z',
  plug: 'M9 3v5M15 3v5M6 8h12v3a6 6 0 01-12 0zM12 17v4',
  trophy: 'M8 4h8v6a4 4 0 01-8 0zM8 6H4v1a4 4 0 004 4M16 6h4v1a4 4 0 01-4 4M12 14v4M8 21h8M10 18h4',
  search: 'M11 18a7 7 0 100-14 7 7 0 000 14zM20 20l-4-4',
  terminal: 'M3 5h18v14H3zM7 10l3 2-3 2M12 15h5',
  eye: 'M2 12s3.6-7 10-7 10 7 10 7-3.6 7-10 7S2 12 2 12zM12 15a3 3 0 100-6 3 3 0 000 6z',
  'eye-off': 'M3 3l18 18M10.6 5.1A10 10 0 0112 5c6.4 0 10 7 10 7a17 17 0 01-3.2 4M6.6 6.6C3.9 8.3 2 12 2 12s3.6 7 10 7a9.7 9.7 0 005.4-1.6M9.9 9.9a3 3 0 004.2 4.2',
} as const;

export type IconName = keyof typeof PATHS;

/** Every icon name, e.g. for a picker or to check a manifest's `icon`. */
export const ICON_NAMES = Object.keys(PATHS) as IconName[];

export function isIconName(name: string): name is IconName {
  return Object.hasOwn(PATHS, name);
}

export interface IconProps {
  /** one of {@link ICON_NAMES}; an unknown name (e.g. from a manifest) draws the `plug` icon */
  name: IconName | (string & {});
  /** width and height in px (default 20) */
  size?: number;
  /** an accessible name; without it the icon is decorative (hidden from screen readers) */
  title?: string;
  className?: string;
  style?: CSSProperties;
}

/** An inline SVG icon drawn in the current text colour. */
export function Icon({ name, size = 20, title, className, style }: IconProps) {
  const d = isIconName(name) ? PATHS[name] : PATHS.plug;
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      className={className}
      style={{ flex: 'none', ...style }}
      role={title ? 'img' : undefined}
      aria-label={title}
      aria-hidden={title ? undefined : true}
      focusable="false"
    >
      <path d={d} />
    </svg>
  );
}
