// The profile dropdown of the top bar: avatar (or initials), name, role, and the account actions.
// Its look follows the `profileDropdown` interface settings (spec §9).
import { keyframes } from '@emotion/react';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { logout } from '../../sdk/client/session';
import { isPluginOffered, registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { uiStore } from '../../sdk/client/stores/ui';
import { VisuallyHidden } from '../../sdk/client/ui/feedback';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';
import { Avatar, initialsOf } from '../../sdk/client/ui/user-identity';
import { withAlpha } from './Sidebar';

const c = theme.colors;

const RADII = { none: '0', sm: '6px', md: '10px', lg: '14px', xl: '18px', '2xl': '24px', full: '28px' } as const;

const appear = {
  fade: keyframes({ from: { opacity: 0 }, to: { opacity: 1 } }),
  slide: keyframes({ from: { opacity: 0, transform: 'translateY(-8px)' }, to: { opacity: 1, transform: 'none' } }),
  scale: keyframes({ from: { opacity: 0, transform: 'scale(.95)' }, to: { opacity: 1, transform: 'none' } }),
  bounce: keyframes({ '0%': { opacity: 0, transform: 'scale(.9)' }, '70%': { opacity: 1, transform: 'scale(1.03)' }, '100%': { transform: 'none' } }),
};

export function UserMenu() {
  const { t } = useTranslation('kernel');
  const user = sessionStore((s) => s.user);
  const look = uiStore((s) => s.settings.profileDropdown);
  const hasAccountPage = registryStore((s) => s.manifests.some((m) => isPluginOffered(s, m.id) && (m.routes ?? []).some((r) => r.path === '/account')));
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const initials = initialsOf(user?.first_name, user?.last_name, user?.username);
  const name = user ? [user.first_name, user.last_name].filter(Boolean).join(' ') || user.username : '';
  const menuItem = {
    display: 'flex',
    alignItems: 'center',
    gap: 10,
    width: '100%',
    padding: '10px 14px',
    border: 0,
    background: 'transparent',
    color: c.text,
    font: 'inherit',
    fontSize: theme.font.size.md,
    textDecoration: 'none',
    cursor: 'pointer',
    textAlign: 'left' as const,
    '&:hover, &:focus-visible': { background: c.surfaceHover },
  };

  return (
    <div ref={root} css={{ position: 'relative' }}>
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        data-testid="user-menu"
        onClick={() => setOpen((v) => !v)}
        css={{
          display: 'inline-flex',
          alignItems: 'center',
          gap: 8,
          height: 40,
          padding: '0 6px',
          border: `1px solid transparent`,
          borderRadius: theme.radii.full,
          background: 'transparent',
          color: c.text,
          cursor: 'pointer',
          '&:hover': { background: c.surfaceHover },
        }}
      >
        <Avatar src={user?.avatar} initials={initials} size={30} />
        <span
          css={{
            display: 'none',
            maxWidth: 140,
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            fontSize: theme.font.size.sm,
            [theme.breakpoints.sm]: { display: 'inline' },
          }}
        >
          {user?.username ?? ''}
        </span>
        {/* named by its visible text (the username) plus what it is: an aria-label would hide the
            username from speech input, which calls the button by what it shows (WCAG 2.5.3) */}
        <VisuallyHidden>{t('shell.userMenu')}</VisuallyHidden>
      </button>
      {open && (
        <div
          id={menuId}
          role="menu"
          css={{
            position: 'absolute',
            right: 0,
            top: 'calc(100% + 8px)',
            zIndex: 50,
            width: 260,
            maxWidth: 'calc(100vw - 24px)',
            overflow: 'hidden',
            borderRadius: RADII[look.borderRadius],
            border: `1px solid ${look.borderGlow ? withAlpha(c.primary, 0.45) : c.border}`,
            background: look.showBackground ? withAlpha(c.surfaceRaised, look.backgroundOpacity) : 'transparent',
            backdropFilter: look.backdropBlur || look.glassEffect ? 'blur(14px) saturate(1.2)' : undefined,
            boxShadow: look.borderGlow ? `${theme.shadows.lg}, 0 0 24px ${withAlpha(c.primary, 0.18)}` : theme.shadows.lg,
            animation: `${appear[look.animationStyle]} var(--op-transition-duration, .2s) ease-out`,
          }}
        >
          <div
            css={{
              display: 'flex',
              alignItems: 'center',
              gap: 12,
              padding: 14,
              borderBottom: `1px solid ${c.border}`,
              backgroundImage:
                look.showUserBackground && user?.background ? `linear-gradient(rgba(11,15,23,.55), rgba(11,15,23,.85)), url("${encodeURI(user.background)}")` : undefined,
              backgroundSize: 'cover',
              backgroundPosition: 'center',
            }}
          >
            <Avatar src={user?.avatar} initials={initials} size={40} />
            <div css={{ minWidth: 0 }}>
              <div css={{ fontWeight: theme.font.weight.semibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{name}</div>
              <div css={{ color: c.muted, fontSize: theme.font.size.sm, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{user?.email}</div>
              {user?.role_name && <div css={{ color: c.primaryHover, fontSize: theme.font.size.xs, marginTop: 2 }}>{user.role_name}</div>}
            </div>
          </div>
          {hasAccountPage && (
            <Link role="menuitem" to="/account" css={menuItem} onClick={() => setOpen(false)}>
              <Icon name="user" size={18} />
              {t('shell.account')}
            </Link>
          )}
          <button
            type="button"
            role="menuitem"
            data-testid="logout"
            css={{ ...menuItem, color: c.danger }}
            onClick={() => {
              setOpen(false);
              void logout();
            }}
          >
            <Icon name="logout" size={18} />
            {t('shell.logout')}
          </button>
        </div>
      )}
    </div>
  );
}
