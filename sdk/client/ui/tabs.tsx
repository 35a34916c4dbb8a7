// Tabs (WAI-ARIA tabs pattern: arrow keys move between tabs; one panel shows). Every panel stays
// mounted (the others hidden), so a form spread over several tabs keeps its fields and their errors.
// On phones the tab strip scrolls sideways instead of wrapping.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { theme } from './theme';

const c = theme.colors;

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

export interface TabsProps {
  /** the tab list's accessible name */
  label: string;
  items: readonly TabItem[];
  /** the id of the tab shown */
  active: string;
  onChange(id: string): void;
}

/** A row of tabs and the panel of the active one. */
export function Tabs({ label, items, active, onChange }: TabsProps) {
  const base = useId().replace(/:/g, '');
  const strip = useRef<HTMLDivElement>(null);
  const current = items.find((item) => item.id === active) ?? items[0];

  const onKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: items.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = items[(moves[event.key] + items.length) % items.length];
    onChange(next.id);
    strip.current?.querySelector<HTMLButtonElement>(`#${base}-tab-${next.id}`)?.focus();
  };

  if (!current) return null;
  return (
    <div css={{ display: 'grid', gap: 16, minWidth: 0 }}>
      <div ref={strip} role="tablist" aria-label={label} css={{ display: 'flex', gap: 4, overflowX: 'auto', borderBottom: `1px solid ${c.border}`, scrollbarWidth: 'thin' }}>
        {items.map((item, index) => {
          const selected = item.id === current.id;
          return (
            <button
              key={item.id}
              id={`${base}-tab-${item.id}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls={`${base}-panel-${item.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => onChange(item.id)}
              onKeyDown={(event) => onKey(event, index)}
              css={{
                flex: 'none',
                padding: '10px 14px',
                marginBottom: -1,
                border: 0,
                borderBottom: `2px solid ${selected ? c.primary : 'transparent'}`,
                background: 'transparent',
                color: selected ? c.text : c.muted,
                fontFamily: 'inherit',
                fontSize: theme.font.size.md,
                fontWeight: selected ? theme.font.weight.semibold : theme.font.weight.medium,
                cursor: 'pointer',
                whiteSpace: 'nowrap',
                '&:hover': { color: c.text },
                '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: theme.radii.sm },
              }}
            >
              {item.label}
            </button>
          );
        })}
      </div>
      {items.map((item) => (
        <div key={item.id} id={`${base}-panel-${item.id}`} role="tabpanel" aria-labelledby={`${base}-tab-${item.id}`} hidden={item.id !== current.id} css={{ minWidth: 0 }}>
          {item.content}
        </div>
      ))}
    </div>
  );
}
