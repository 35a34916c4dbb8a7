// The one progress bar of the panel's pages: a bar that fills as work reports done out of total, or a
// moving stripe while the total is not known yet (a job that has not counted its rows).
import { keyframes } from '@emotion/react';
import { theme } from './theme';

const c = theme.colors;
const slide = keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'translateX(250%)' } });

export interface ProgressBarProps {
  done: number;
  /** 0 (or less) when not known: the bar shows motion instead of a share */
  total: number;
  /** what is under way, for assistive technology */
  label: string;
  /** in pixels; 8 by default */
  height?: number;
}

export function ProgressBar({ done, total, label, height = 8 }: ProgressBarProps) {
  const known = total > 0;
  const percent = known ? Math.round(Math.min(1, Math.max(0, done / total)) * 100) : null;
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={known ? 0 : undefined}
      aria-valuemax={known ? 100 : undefined}
      aria-valuenow={percent ?? undefined}
      css={{ position: 'relative', height, borderRadius: theme.radii.full, background: c.surfaceRaised, overflow: 'hidden' }}
    >
      {percent !== null ? (
        <div css={{ width: `${percent}%`, height: '100%', background: c.primary, transition: `width ${theme.transition}` }} />
      ) : (
        <div
          css={{
            position: 'absolute',
            inset: 0,
            width: '40%',
            background: c.primary,
            animation: `${slide} 1.4s ease-in-out infinite`,
            '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
          }}
        />
      )}
    </div>
  );
}
