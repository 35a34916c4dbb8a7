import { css } from '@emotion/react';
import type { MouseEvent, ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { useFormStatus } from './form-context';
import { Icon, type IconName } from './icons';
import { Spinner } from './feedback';
import { theme } from './theme';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

const c = theme.colors;

const base = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  gap: 8,
  border: '1px solid transparent',
  borderRadius: theme.radii.md,
  fontFamily: 'inherit',
  fontWeight: theme.font.weight.semibold,
  lineHeight: 1.2,
  textDecoration: 'none',
  whiteSpace: 'nowrap',
  cursor: 'pointer',
  userSelect: 'none',
  transition: 'background-color .15s, border-color .15s, color .15s, box-shadow .15s',
  '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
  '&:disabled, &[aria-disabled="true"]': { opacity: 0.55, cursor: 'not-allowed' },
});

const sizes: Record<ButtonSize, ReturnType<typeof css>> = {
  sm: css({ minHeight: 32, padding: '6px 12px', fontSize: theme.font.size.sm }),
  md: css({ minHeight: 40, padding: '9px 16px', fontSize: theme.font.size.md }),
  lg: css({ minHeight: 48, padding: '12px 20px', fontSize: theme.font.size.lg }),
};

const variants: Record<ButtonVariant, ReturnType<typeof css>> = {
  primary: css({ background: c.primary, color: c.primaryText, '&:hover:not(:disabled)': { background: c.primaryHover } }),
  secondary: css({ background: c.surfaceRaised, color: c.text, borderColor: c.border, '&:hover:not(:disabled)': { background: c.surfaceHover, borderColor: c.borderStrong } }),
  // on the lighter hover fill white would fall to 2.8:1, so the text turns dark there
  danger: css({ background: c.dangerStrong, color: '#fff', '&:hover:not(:disabled)': { background: c.danger, color: c.background } }),
  ghost: css({ background: 'transparent', color: c.muted, '&:hover:not(:disabled)': { background: c.surfaceRaised, color: c.text } }),
};

export interface ButtonProps {
  /** primary (default) for the main action, secondary, danger for destructive actions, ghost for quiet ones */
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** default `button`; a `submit` button inside a {@link Form} shows the form's progress by itself */
  type?: 'button' | 'submit' | 'reset';
  /** shows a spinner and disables the button */
  loading?: boolean;
  disabled?: boolean;
  onClick?: (event: MouseEvent<HTMLElement>) => void;
  /** renders a router link to this path instead of a button */
  to?: string;
  /** with `to`: replace the history entry */
  replace?: boolean;
  /** with `to`: load the address as a new page, not through the router (a server path such as an OAuth start) */
  reloadDocument?: boolean;
  /** an icon before the text */
  icon?: IconName;
  /** takes the whole width of its container */
  fullWidth?: boolean;
  children?: ReactNode;
  /** needed when the button shows only an icon */
  'aria-label'?: string;
  /** marks the current item of a set (the current page of a Pagination) */
  'aria-current'?: 'page' | 'step' | 'true';
  title?: string;
  name?: string;
  value?: string;
  className?: string;
}

/** The panel's button (or a link that looks like one, with `to`). */
export function Button({
  variant = 'primary',
  size = 'md',
  type = 'button',
  loading,
  disabled,
  onClick,
  to,
  replace,
  reloadDocument,
  icon,
  fullWidth,
  children,
  className,
  name,
  value,
  ...labels
}: ButtonProps) {
  const form = useFormStatus();
  const busy = loading ?? (type === 'submit' && form?.submitting === true);
  const styles = [base, sizes[size], variants[variant], fullWidth && css({ width: '100%' })];
  const content = (
    <>
      {busy ? <Spinner size={size === 'sm' ? 14 : 16} /> : icon ? <Icon name={icon} size={size === 'sm' ? 16 : 18} /> : null}
      {children}
    </>
  );
  if (to !== undefined) {
    const inert = disabled || busy;
    return (
      <Link
        to={to}
        replace={replace}
        reloadDocument={reloadDocument}
        css={styles}
        className={className}
        aria-disabled={inert || undefined}
        tabIndex={inert ? -1 : undefined}
        onClick={(event) => {
          if (inert) event.preventDefault();
          else onClick?.(event);
        }}
        {...labels}
      >
        {content}
      </Link>
    );
  }
  return (
    <button type={type} css={styles} className={className} name={name} value={value} disabled={disabled || busy} aria-busy={busy || undefined} onClick={onClick} {...labels}>
      {content}
    </button>
  );
}
