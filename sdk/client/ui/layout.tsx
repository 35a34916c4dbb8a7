// Page-level building blocks: Page, Card, StatCard, Grid, AuthLayout, ErrorLayout.
import { css } from '@emotion/react';
import { useEffect, useId, type ReactNode } from 'react';
import { documentTitle } from '../../document-title';
import { useSetting } from '../stores/settings';
import { Icon, type IconName } from './icons';
import { theme } from './theme';

const c = theme.colors;

/** Sets the browser tab's title to `<title> · <app name>`. */
export function useDocumentTitle(title: string | null | undefined): void {
  const appName = useSetting('app_name');
  useEffect(() => {
    if (typeof document === 'undefined' || !title) return;
    document.title = documentTitle(title, appName);
  }, [title, appName]);
}

export interface PageProps {
  /** the page heading, also the browser tab's title */
  title: string;
  /** a line under the heading */
  description?: ReactNode;
  /** buttons on the right of the heading (they wrap under it on phones) */
  actions?: ReactNode;
  children?: ReactNode;
}

/** A page inside the app shell: heading, optional actions, content. */
export function Page({ title, description, actions, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <div css={{ display: 'grid', gap: 20, width: '100%', maxWidth: 1280, margin: '0 auto', minWidth: 0 }}>
      <header css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: 12 }}>
        <div css={{ minWidth: 0 }}>
          <h1 css={{ margin: 0, fontSize: theme.font.size.xxl, fontWeight: theme.font.weight.bold, color: c.text, lineHeight: 1.2, overflowWrap: 'anywhere' }}>{title}</h1>
          {description && <p css={{ margin: '6px 0 0', color: c.muted, fontSize: theme.font.size.md, lineHeight: 1.5 }}>{description}</p>}
        </div>
        {actions && <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>{actions}</div>}
      </header>
      {children}
    </div>
  );
}

const cardStyle = css({
  background: c.surface,
  border: `1px solid ${c.border}`,
  borderRadius: theme.radii.lg,
  boxShadow: theme.shadows.sm,
  minWidth: 0,
});

export interface CardProps {
  title?: ReactNode;
  /** buttons or links in the card's header */
  actions?: ReactNode;
  children?: ReactNode;
  /** remove the inner padding (tables, lists that touch the edges) */
  flush?: boolean;
  className?: string;
}

/** A surface that groups related content, with an optional titled header. */
export function Card({ title, actions, children, flush, className }: CardProps) {
  const headingId = useId();
  return (
    <section css={cardStyle} className={className} aria-labelledby={title ? headingId : undefined}>
      {(title || actions) && (
        <header
          css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'space-between', gap: 8, padding: '14px 18px', borderBottom: `1px solid ${c.border}` }}
        >
          {title && (
            <h2 id={headingId} css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold, color: c.text }}>
              {title}
            </h2>
          )}
          {actions && <div css={{ display: 'flex', gap: 8, flexWrap: 'wrap' }}>{actions}</div>}
        </header>
      )}
      <div css={{ padding: flush ? 0 : 18, color: c.text, fontSize: theme.font.size.md, lineHeight: 1.5 }}>{children}</div>
    </section>
  );
}

export interface StatCardProps {
  label: ReactNode;
  value: ReactNode;
  icon?: IconName;
  /** a small line under the value (a limit, a change) */
  hint?: ReactNode;
}

/** One number with its label: coins, servers, minutes AFK. */
export function StatCard({ label, value, icon, hint }: StatCardProps) {
  return (
    <div css={[cardStyle, css({ display: 'flex', gap: 14, alignItems: 'center', padding: 16 })]}>
      {icon && (
        <span css={{ display: 'inline-flex', padding: 10, borderRadius: theme.radii.md, background: c.primarySoft, color: c.primaryHover }}>
          <Icon name={icon} size={22} />
        </span>
      )}
      <div css={{ minWidth: 0 }}>
        <div css={{ color: c.muted, fontSize: theme.font.size.sm }}>{label}</div>
        <div
          css={{ color: c.text, fontSize: theme.font.size.xl, fontWeight: theme.font.weight.bold, lineHeight: 1.3, overflowWrap: 'anywhere', fontVariantNumeric: 'tabular-nums' }}
        >
          {value}
        </div>
        {hint && <div css={{ color: c.subtle, fontSize: theme.font.size.xs, marginTop: 2 }}>{hint}</div>}
      </div>
    </div>
  );
}

export interface GridProps {
  /** the narrowest a column may get, in px (default 240); on a narrow phone columns take the full width */
  min?: number;
  /** gap between cells in px (default 16) */
  gap?: number;
  children?: ReactNode;
  className?: string;
}

/** A responsive grid: as many columns of at least `min` px as fit. */
export function Grid({ min = 240, gap = 16, children, className }: GridProps) {
  return (
    <div className={className} css={{ display: 'grid', gap, gridTemplateColumns: `repeat(auto-fill, minmax(min(100%, ${min}px), 1fr))`, minWidth: 0 }}>
      {children}
    </div>
  );
}

/** The app's logo (setting app_logo) or a monogram, with its name (setting app_name). */
export function AppMark({ size = 40 }: { size?: number }) {
  const appName = useSetting('app_name');
  const logo = useSetting('app_logo');
  const name = typeof appName === 'string' && appName.trim() ? appName.trim() : 'Orepanel';
  return (
    <div css={{ display: 'flex', alignItems: 'center', gap: 10, minWidth: 0 }}>
      {typeof logo === 'string' && logo.trim() ? (
        <img src={logo} alt="" width={size} height={size} css={{ borderRadius: theme.radii.md, objectFit: 'cover' }} />
      ) : (
        <span
          aria-hidden
          css={{
            width: size,
            height: size,
            display: 'inline-grid',
            placeItems: 'center',
            borderRadius: theme.radii.md,
            background: `linear-gradient(135deg, ${c.primary}, #9b6dff)`,
            color: '#fff',
            fontWeight: theme.font.weight.bold,
            fontSize: size * 0.45,
          }}
        >
          {name.charAt(0).toUpperCase()}
        </span>
      )}
      <span css={{ fontWeight: theme.font.weight.bold, fontSize: theme.font.size.xl, color: c.text, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
        {name}
      </span>
    </div>
  );
}

// 100dvh where known (phones' collapsing toolbars), 100vh as the fallback
const fullPage = css({ minHeight: ['100vh', '100dvh'] });

export interface AuthLayoutProps {
  /** the card's heading, also the browser tab's title */
  title: string;
  subtitle?: ReactNode;
  children?: ReactNode;
  /** under the card: links such as "No account? Register" */
  footer?: ReactNode;
}

/** A centred card with the app's name and logo, for the login, register and other auth pages. */
export function AuthLayout({ title, subtitle, children, footer }: AuthLayoutProps) {
  useDocumentTitle(title);
  return (
    <main
      css={[
        fullPage,
        css({
          display: 'grid',
          placeItems: 'center',
          padding: '32px 16px',
          background: `radial-gradient(1200px 600px at 50% -10%, ${c.primarySoft}, transparent 70%), ${c.background}`,
        }),
      ]}
    >
      <div css={{ width: '100%', maxWidth: 420, display: 'grid', gap: 20 }}>
        <div css={{ display: 'flex', justifyContent: 'center' }}>
          <AppMark />
        </div>
        <div css={[cardStyle, css({ padding: '24px 20px', boxShadow: theme.shadows.lg, [theme.breakpoints.sm]: { padding: '32px 28px' } })]}>
          <h1 css={{ margin: 0, fontSize: theme.font.size.xl, fontWeight: theme.font.weight.bold, color: c.text }}>{title}</h1>
          {subtitle && <p css={{ margin: '6px 0 0', color: c.muted, fontSize: theme.font.size.md, lineHeight: 1.5 }}>{subtitle}</p>}
          <div css={{ marginTop: 20 }}>{children}</div>
        </div>
        {footer && <div css={{ textAlign: 'center', color: c.muted, fontSize: theme.font.size.md }}>{footer}</div>}
      </div>
    </main>
  );
}

export interface ErrorLayoutProps {
  /** the big code: 403, 404, 500 */
  code: string | number;
  /** the heading, also the browser tab's title */
  title: string;
  text?: ReactNode;
  /** buttons: back to the dashboard, try again */
  actions?: ReactNode;
}

/** A full-page error: big code, title, text and ways out. */
export function ErrorLayout({ code, title, text, actions }: ErrorLayoutProps) {
  useDocumentTitle(title);
  return (
    <main css={[fullPage, css({ display: 'grid', placeItems: 'center', padding: '32px 16px', background: c.background, textAlign: 'center' })]}>
      <div css={{ maxWidth: 520, display: 'grid', gap: 14, justifyItems: 'center' }}>
        <p
          aria-hidden
          css={{
            margin: 0,
            fontSize: 'clamp(64px, 22vw, 120px)',
            fontWeight: 800,
            lineHeight: 1,
            letterSpacing: '-0.04em',
            background: `linear-gradient(135deg, ${c.primaryHover}, #b18cff)`,
            WebkitBackgroundClip: 'text',
            backgroundClip: 'text',
            color: 'transparent',
          }}
        >
          {code}
        </p>
        <h1 css={{ margin: 0, fontSize: theme.font.size.xxl, color: c.text }}>{title}</h1>
        {text && <div css={{ margin: 0, color: c.muted, fontSize: theme.font.size.lg, lineHeight: 1.6 }}>{text}</div>}
        {actions && <div css={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 10, marginTop: 8 }}>{actions}</div>}
      </div>
    </main>
  );
}
