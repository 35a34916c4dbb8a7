// Loading, empty and message states: Spinner, Skeleton, Alert, Badge, EmptyState.
import { css, keyframes } from '@emotion/react';
import type { ReactNode } from 'react';
import { useSdkText } from '../i18n';
import { Icon, type IconName } from './icons';
import { theme } from './theme';

const c = theme.colors;

const spin = keyframes`to { transform: rotate(360deg); }`;
const shimmer = keyframes`0% { background-position: 100% 0; } 100% { background-position: -100% 0; }`;

const visuallyHidden = css({
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
});

/** Text only screen readers read. */
export function VisuallyHidden({ children }: { children: ReactNode }) {
  return <span css={visuallyHidden}>{children}</span>;
}

export interface SpinnerProps {
  /** diameter in px (default 20) */
  size?: number;
  /** what is loading, for screen readers (default: the translated "Loading…") */
  label?: string;
}

/** A small rotating ring. Announced to screen readers as a status. */
export function Spinner({ size = 20, label }: SpinnerProps) {
  const text = useSdkText();
  return (
    <span role="status" css={{ display: 'inline-flex', alignItems: 'center' }}>
      <span
        aria-hidden
        css={{
          width: size,
          height: size,
          borderRadius: '50%',
          border: `${Math.max(2, Math.round(size / 10))}px solid ${c.borderStrong}`,
          borderTopColor: c.primary,
          animation: `${spin} .8s linear infinite`,
        }}
      />
      <VisuallyHidden>{label ?? text('loading')}</VisuallyHidden>
    </span>
  );
}

export interface SkeletonProps {
  /** height of each line (default 16px) */
  height?: number | string;
  width?: number | string;
  /** number of lines (default 1); the last of several is shorter */
  lines?: number;
  radius?: string;
  /** what is loading, for screen readers (default: the translated "Loading…") */
  label?: string;
}

const skeletonLine = css({
  display: 'block',
  background: `linear-gradient(90deg, ${c.surfaceRaised} 25%, ${c.surfaceHover} 50%, ${c.surfaceRaised} 75%)`,
  backgroundSize: '200% 100%',
  animation: `${shimmer} 1.4s ease-in-out infinite`,
  '@media (prefers-reduced-motion: reduce)': { animation: 'none' },
  '[data-reduce-motion="true"] &': { animation: 'none' },
});

/** Grey placeholder lines shown while content loads (the fallback of every plugin boundary). */
export function Skeleton({ height = 16, width = '100%', lines = 1, radius = theme.radii.sm, label }: SkeletonProps) {
  const text = useSdkText();
  return (
    <div role="status" aria-busy="true" css={{ display: 'grid', gap: 8, width }}>
      {Array.from({ length: Math.max(1, lines) }, (_, i) => (
        <span key={i} aria-hidden css={skeletonLine} style={{ height, borderRadius: radius, width: lines > 1 && i === lines - 1 ? '60%' : '100%' }} />
      ))}
      <VisuallyHidden>{label ?? text('loading')}</VisuallyHidden>
    </div>
  );
}

export type Tone = 'info' | 'success' | 'warning' | 'error';

const toneColors: Record<Tone, { fg: string; bg: string; icon: IconName }> = {
  info: { fg: c.info, bg: c.infoSoft, icon: 'alert' },
  success: { fg: c.success, bg: c.successSoft, icon: 'check' },
  warning: { fg: c.warning, bg: c.warningSoft, icon: 'alert' },
  error: { fg: c.danger, bg: c.dangerSoft, icon: 'alert' },
};

export interface AlertProps {
  tone?: Tone;
  title?: ReactNode;
  children?: ReactNode;
  /** shows a close button */
  onClose?: () => void;
  className?: string;
}

/** A message box. Errors and warnings are announced at once (role alert), the others politely. */
export function Alert({ tone = 'info', title, children, onClose, className }: AlertProps) {
  const text = useSdkText();
  const t = toneColors[tone];
  return (
    <div
      role={tone === 'error' || tone === 'warning' ? 'alert' : 'status'}
      className={className}
      css={{
        display: 'flex',
        gap: 10,
        alignItems: 'flex-start',
        padding: '12px 14px',
        borderRadius: theme.radii.md,
        border: `1px solid ${t.fg}40`,
        background: t.bg,
        color: c.text,
        fontSize: theme.font.size.md,
        lineHeight: 1.5,
      }}
    >
      <Icon name={t.icon} size={18} style={{ color: t.fg, marginTop: 2 }} />
      <div css={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
        {title && <strong css={{ display: 'block', fontWeight: theme.font.weight.semibold }}>{title}</strong>}
        {children}
      </div>
      {onClose && (
        <button
          type="button"
          onClick={onClose}
          aria-label={text('close')}
          css={{ background: 'none', border: 0, color: c.muted, cursor: 'pointer', padding: 2, borderRadius: theme.radii.sm, display: 'inline-flex' }}
        >
          <Icon name="close" size={16} />
        </button>
      )}
    </div>
  );
}

export type BadgeTone = 'neutral' | 'primary' | 'success' | 'warning' | 'danger' | 'info';

const badgeColors: Record<BadgeTone, [string, string]> = {
  neutral: [c.muted, c.surfaceRaised],
  primary: [c.primaryHover, c.primarySoft],
  success: [c.success, c.successSoft],
  warning: [c.warning, c.warningSoft],
  danger: [c.danger, c.dangerSoft],
  info: [c.info, c.infoSoft],
};

export interface BadgeProps {
  tone?: BadgeTone;
  children: ReactNode;
  className?: string;
}

/** A small label (status, role, count). */
export function Badge({ tone = 'neutral', children, className }: BadgeProps) {
  const [fg, bg] = badgeColors[tone];
  return (
    <span
      className={className}
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 4,
        padding: '2px 8px',
        borderRadius: theme.radii.full,
        fontSize: theme.font.size.xs,
        fontWeight: theme.font.weight.semibold,
        lineHeight: 1.6,
        whiteSpace: 'nowrap',
        color: fg,
        background: bg,
      }}
    >
      {children}
    </span>
  );
}

export interface EmptyStateProps {
  icon?: IconName;
  /** default: the translated "Nothing here yet." */
  title?: string;
  text?: ReactNode;
  /** e.g. a Button that creates the first item */
  action?: ReactNode;
}

/** What a list shows when it has nothing to show. */
export function EmptyState({ icon = 'archive', title, text, action }: EmptyStateProps) {
  const sdk = useSdkText();
  return (
    <div css={{ display: 'grid', justifyItems: 'center', gap: 10, padding: '32px 16px', textAlign: 'center', color: c.muted }}>
      <span css={{ display: 'inline-flex', padding: 12, borderRadius: theme.radii.full, background: c.surfaceRaised, color: c.primaryHover }}>
        <Icon name={icon} size={24} />
      </span>
      <p css={{ margin: 0, color: c.text, fontWeight: theme.font.weight.semibold, fontSize: theme.font.size.lg }}>{title ?? sdk('nothingHere')}</p>
      {text && <div css={{ maxWidth: 420, fontSize: theme.font.size.md, lineHeight: 1.5 }}>{text}</div>}
      {action && <div css={{ marginTop: 6 }}>{action}</div>}
    </div>
  );
}
