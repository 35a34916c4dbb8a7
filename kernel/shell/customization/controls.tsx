// The small form controls of the customisation panel: a switch, a labelled slider and a choice list.
import { useId, useMemo, type ReactNode } from 'react';
import { sliderStops, snapToSlider } from '../../../sdk/client/stores/ui';
import { theme } from '../../../sdk/client/ui/theme';

const c = theme.colors;

export function Toggle({ label, checked, onChange, hint }: { label: string; checked: boolean; onChange: (value: boolean) => void; hint?: string }) {
  const id = useId();
  return (
    <label htmlFor={id} css={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, padding: '8px 0', cursor: 'pointer' }}>
      <span css={{ display: 'grid', gap: 2 }}>
        <span css={{ fontSize: theme.font.size.md, color: c.text }}>{label}</span>
        {hint && <span css={{ fontSize: theme.font.size.xs, color: c.muted }}>{hint}</span>}
      </span>
      <input
        id={id}
        type="checkbox"
        role="switch"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        css={{
          appearance: 'none',
          flex: 'none',
          position: 'relative',
          width: 40,
          height: 22,
          margin: 0,
          borderRadius: 999,
          background: checked ? c.primary : c.borderStrong,
          cursor: 'pointer',
          transition: 'background var(--op-transition-duration, .2s)',
          '&::after': {
            content: '""',
            position: 'absolute',
            top: 3,
            left: checked ? 21 : 3,
            width: 16,
            height: 16,
            borderRadius: '50%',
            background: '#fff',
            transition: 'left var(--op-transition-duration, .2s)',
          },
          '&:focus-visible': { boxShadow: theme.focusRing, outline: 'none' },
        }}
      />
    </label>
  );
}

export function Slider({
  label,
  value,
  min,
  max,
  step,
  onChange,
  format = (v) => String(v),
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step: number;
  onChange: (value: number) => void;
  format?: (value: number) => string;
}) {
  const id = useId();
  // the input moves over the slider's stops, so max counts even off the steps (spec §5: fps 144)
  const stops = useMemo(() => sliderStops({ min, max, step }), [min, max, step]);
  const index = Math.max(0, stops.indexOf(snapToSlider(value, { min, max, step }) ?? min));
  return (
    <div css={{ display: 'grid', gap: 6, padding: '8px 0' }}>
      <label htmlFor={id} css={{ display: 'flex', justifyContent: 'space-between', gap: 12, fontSize: theme.font.size.md, color: c.text }}>
        <span>{label}</span>
        <output htmlFor={id} css={{ color: c.muted, fontVariantNumeric: 'tabular-nums' }}>
          {format(value)}
        </output>
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={stops.length - 1}
        step={1}
        value={index}
        aria-valuetext={format(value)}
        onChange={(e) => onChange(stops[Number(e.target.value)] ?? value)}
        css={{ width: '100%', accentColor: c.primary, cursor: 'pointer' }}
      />
    </div>
  );
}

export function ChoiceList<T extends string>({
  label,
  value,
  options,
  onChange,
  describe,
}: {
  label: string;
  value: T;
  options: readonly T[];
  onChange: (value: T) => void;
  describe: (option: T) => ReactNode;
}) {
  return (
    <fieldset css={{ border: 0, margin: 0, padding: '8px 0', display: 'grid', gap: 8 }}>
      <legend css={{ padding: 0, marginBottom: 8, fontSize: theme.font.size.md, color: c.text }}>{label}</legend>
      <div css={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(110px, 1fr))', gap: 8 }}>
        {options.map((option) => {
          const selected = option === value;
          return (
            <button
              key={option}
              type="button"
              aria-pressed={selected}
              data-option={option}
              onClick={() => onChange(option)}
              css={{
                minHeight: 40,
                padding: '8px 10px',
                borderRadius: theme.radii.md,
                border: `1px solid ${selected ? c.primary : c.border}`,
                background: selected ? c.primarySoft : c.surface,
                color: selected ? c.text : c.muted,
                font: 'inherit',
                fontSize: theme.font.size.sm,
                cursor: 'pointer',
                '&:hover': { borderColor: c.borderStrong, color: c.text },
              }}
            >
              {describe(option)}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * A setting the panel shows but cannot change, with what it does instead (spec §9 compressAssets: the
 * server compresses for every browser, and a page cannot ask it not to).
 */
export function FixedSetting({ label, state, hint }: { label: string; state: string; hint: string }) {
  return (
    <div css={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 12, padding: '8px 0' }}>
      <span css={{ display: 'grid', gap: 2 }}>
        <span css={{ fontSize: theme.font.size.md, color: c.text }}>{label}</span>
        <span css={{ fontSize: theme.font.size.xs, color: c.muted }}>{hint}</span>
      </span>
      <span css={{ flex: 'none', fontSize: theme.font.size.xs, color: c.muted, border: `1px solid ${c.border}`, borderRadius: 999, padding: '2px 8px' }}>{state}</span>
    </div>
  );
}

export function Group({ title, hint, children }: { title: string; hint?: string; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} css={{ display: 'grid', padding: '10px 0', borderTop: `1px solid ${c.border}`, '&:first-of-type': { borderTop: 0, paddingTop: 0 } }}>
      <h3
        id={id}
        css={{ margin: '0 0 4px', fontSize: theme.font.size.sm, fontWeight: theme.font.weight.semibold, color: c.muted, textTransform: 'uppercase', letterSpacing: '.05em' }}
      >
        {title}
      </h3>
      {hint && <p css={{ margin: '0 0 4px', fontSize: theme.font.size.xs, color: c.muted }}>{hint}</p>}
      {children}
    </section>
  );
}
