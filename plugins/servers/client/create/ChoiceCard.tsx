// A card that is one choice of a group (a location, a category, an egg): picture, name, badges and
// details; the chosen one is outlined. A choice that cannot be taken stays focusable (aria-disabled)
// so its reason is read out, and says that reason on the card.
import { Icon, LazyImage, theme, type IconName } from '@orepanel/sdk';
import { useId, useState, type ReactNode } from 'react';

const c = theme.colors;

export interface ChoiceCardProps {
  name: string;
  image: string | null;
  /** shown instead of a picture */
  icon: IconName;
  selected: boolean;
  /** why it cannot be chosen; null when it can */
  unavailable: string | null;
  onSelect(): void;
  badges?: ReactNode;
  children?: ReactNode;
}

export function ChoiceGroup({ label, children, min = 220 }: { label: string; children: ReactNode; min?: number }) {
  return (
    <div role="radiogroup" aria-label={label} css={{ display: 'grid', gap: 12, gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${min}px), 1fr))` }}>
      {children}
    </div>
  );
}

export function ChoiceCard({ name, image, icon, selected, unavailable, onSelect, badges, children }: ChoiceCardProps) {
  const reasonId = useId();
  const [broken, setBroken] = useState(false);
  const disabled = unavailable !== null;
  return (
    <button
      type="button"
      role="radio"
      aria-checked={selected}
      aria-label={name}
      aria-disabled={disabled || undefined}
      aria-describedby={disabled ? reasonId : undefined}
      onClick={() => {
        if (!disabled) onSelect();
      }}
      css={{
        display: 'grid',
        alignContent: 'start',
        gap: 0,
        padding: 0,
        overflow: 'hidden',
        textAlign: 'left',
        fontFamily: 'inherit',
        color: c.text,
        background: selected ? c.primarySoft : c.surface,
        border: `2px solid ${selected ? c.primary : c.border}`,
        borderRadius: theme.radii.lg,
        cursor: disabled ? 'not-allowed' : 'pointer',
        opacity: disabled ? 0.6 : 1,
        transition: 'border-color .15s, background-color .15s',
        '&:hover': disabled ? undefined : { borderColor: selected ? c.primary : c.borderStrong },
        '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
      }}
    >
      <span
        css={{
          position: 'relative',
          height: 96,
          background: `linear-gradient(135deg, ${c.surfaceRaised}, ${c.primarySoft})`,
          display: 'grid',
          placeItems: 'center',
          color: c.primaryHover,
        }}
      >
        {image && !broken ? (
          <LazyImage src={image} alt="" referrerPolicy="no-referrer" onError={() => setBroken(true)} css={{ width: '100%', height: '100%', objectFit: 'cover' }} />
        ) : (
          <Icon name={icon} size={32} />
        )}
        {selected && (
          <span
            aria-hidden
            css={{ position: 'absolute', top: 8, right: 8, display: 'inline-flex', padding: 4, borderRadius: theme.radii.full, background: c.primary, color: c.primaryText }}
          >
            <Icon name="check" size={14} />
          </span>
        )}
      </span>
      <span css={{ display: 'grid', gap: 6, padding: '12px 14px' }}>
        <span css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 6 }}>
          <strong css={{ fontSize: theme.font.size.lg, overflowWrap: 'anywhere' }}>{name}</strong>
          {badges}
        </span>
        {children}
        {disabled && (
          <span id={reasonId} css={{ display: 'inline-flex', alignItems: 'center', gap: 6, color: c.warning, fontSize: theme.font.size.sm }}>
            <Icon name="lock" size={14} />
            {unavailable}
          </span>
        )}
      </span>
    </button>
  );
}
