// Small pieces the panel's tabs share: the toolbar with its filter, compact buttons, the monospace
// block, times and status colours. The panel is dense on purpose (a developer's tool), in the
// panel's dark theme.
import { theme } from '@orepanel/sdk';
import type { ReactNode } from 'react';

const c = theme.colors;

/** hh:mm:ss.mmm of a moment, in the browser's time zone. */
export function clockTime(at: number): string {
  const d = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** JSON indented for reading; anything else as it is. */
export function readable(text: string): string {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** The colour of an HTTP status (null: pending, 0: no answer). */
export function statusColor(status: number | null): string {
  if (status === null) return c.muted;
  if (status === 0 || status >= 500) return c.danger;
  if (status >= 400) return c.warning;
  if (status >= 300) return c.info;
  return c.success;
}

export const monoText = { fontFamily: theme.font.mono, fontSize: theme.font.size.xs } as const;

export function Toolbar({ children }: { children: ReactNode }) {
  return <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, padding: '8px 12px', borderBottom: `1px solid ${c.border}` }}>{children}</div>;
}

export function FilterField({ value, onChange, label }: { value: string; onChange(value: string): void; label: string }) {
  return (
    <input
      type="search"
      value={value}
      aria-label={label}
      placeholder={label}
      onChange={(event) => onChange(event.target.value)}
      css={{
        flex: '1 1 160px',
        minWidth: 0,
        height: 32,
        padding: '0 10px',
        borderRadius: theme.radii.sm,
        border: `1px solid ${c.borderStrong}`,
        background: c.background,
        color: c.text,
        font: 'inherit',
        fontSize: theme.font.size.sm,
        '&::placeholder': { color: c.muted },
        '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
      }}
    />
  );
}

export function ToolButton({ children, onClick, pressed, label }: { children: ReactNode; onClick(): void; pressed?: boolean; label?: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      aria-pressed={pressed}
      aria-label={label}
      css={{
        height: 32,
        padding: '0 10px',
        borderRadius: theme.radii.sm,
        border: `1px solid ${c.borderStrong}`,
        background: pressed ? c.primarySoft : c.surfaceRaised,
        color: c.text,
        font: 'inherit',
        fontSize: theme.font.size.sm,
        cursor: 'pointer',
        whiteSpace: 'nowrap',
        '&:hover': { background: c.surfaceHover },
        '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
      }}
    >
      {children}
    </button>
  );
}

/** A quiet line of text in the middle of an empty list. */
export function EmptyNote({ children }: { children: ReactNode }) {
  return <p css={{ margin: 0, padding: '24px 12px', textAlign: 'center', color: c.muted, fontSize: theme.font.size.sm }}>{children}</p>;
}

/** Preformatted text that wraps and scrolls inside its box. */
export function Mono({ children }: { children: ReactNode }) {
  return (
    <pre
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard to be scrolled
      tabIndex={0}
      css={{
        ...monoText,
        margin: 0,
        padding: 10,
        maxHeight: 260,
        overflow: 'auto',
        whiteSpace: 'pre-wrap',
        overflowWrap: 'anywhere',
        background: c.background,
        border: `1px solid ${c.border}`,
        borderRadius: theme.radii.sm,
        color: c.text,
      }}
    >
      {children}
    </pre>
  );
}

/** A heading inside a tab. */
export function SectionTitle({ children }: { children: ReactNode }) {
  return (
    <h3 css={{ margin: '12px 0 6px', fontSize: theme.font.size.sm, fontWeight: theme.font.weight.semibold, color: c.muted, textTransform: 'uppercase', letterSpacing: '.04em' }}>
      {children}
    </h3>
  );
}
