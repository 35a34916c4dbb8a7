// The sidebar: the installed plugins' nav items by section (spec §2 App shell), the current route
// highlighted, then the administrator's redirect links (external, in a new tab). On phones it is a
// drawer opened by the top bar's menu button. Its look follows the `sidebar` interface settings
// (glass, opacity, glow, compact mode, section dividers, animation).
import { keyframes } from '@emotion/react';
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { isSettingEnabled, settingsStore } from '../../sdk/client/stores/settings';
import { uiStore, type SidebarSettings } from '../../sdk/client/stores/ui';
import { VisuallyHidden } from '../../sdk/client/ui/feedback';
import { Icon } from '../../sdk/client/ui/icons';
import { AppMark } from '../../sdk/client/ui/layout';
import { theme } from '../../sdk/client/ui/theme';
import { LanguagePicker } from './LanguagePicker';
import { buildNavGroups, type NavGroup } from './nav-model';
import { useRedirectLinks } from './redirect-links';

const c = theme.colors;
export const SIDEBAR_WIDTH = 248;
export const SIDEBAR_COMPACT_WIDTH = 208;

/** rgba() of a #rrggbb colour with an alpha. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha})`;
}

const drawerIn = {
  fade: keyframes({ from: { opacity: 0 }, to: { opacity: 1 } }),
  slide: keyframes({ from: { transform: 'translateX(-100%)' }, to: { transform: 'none' } }),
  scale: keyframes({ from: { opacity: 0, transform: 'scale(.96)' }, to: { opacity: 1, transform: 'none' } }),
  bounce: keyframes({
    '0%': { transform: 'translateX(-100%)' },
    '70%': { transform: 'translateX(8px)' },
    '100%': { transform: 'none' },
  }),
};

const labelStyle = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/** One sidebar entry: a page of the panel (NavLink) or a redirect link (a plain anchor). */
function navItemStyle(compact: boolean) {
  return {
    display: 'flex',
    alignItems: 'center',
    gap: 10,
    minHeight: compact ? 34 : 40,
    padding: compact ? '4px 10px' : '8px 12px',
    borderRadius: theme.radii.md,
    color: c.muted,
    textDecoration: 'none',
    fontSize: compact ? theme.font.size.sm : theme.font.size.md,
    fontWeight: theme.font.weight.medium,
    '&:hover': { background: c.surfaceHover, color: c.text },
    '&.active': {
      background: c.primarySoft,
      color: c.text,
      boxShadow: `inset 3px 0 0 ${c.primary}`,
    },
  } as const;
}

/** A titled group of entries, divided from the one before it when the interface settings say so. */
function NavSectionBlock({ label, first, look, children }: { label: string; first: boolean; look: SidebarSettings; children: ReactNode }) {
  return (
    <section
      aria-label={label}
      css={{
        display: 'grid',
        gap: 2,
        paddingTop: first ? 0 : look.compactMode ? 6 : 10,
        borderTop: !first && look.showSectionDividers ? `1px solid ${c.border}` : undefined,
      }}
    >
      <h2
        css={{
          margin: '4px 10px',
          fontSize: theme.font.size.xs,
          fontWeight: theme.font.weight.semibold,
          letterSpacing: '.06em',
          textTransform: 'uppercase',
          color: c.subtle,
        }}
      >
        {label}
      </h2>
      {children}
    </section>
  );
}

function useNavGroups(): NavGroup[] {
  const manifests = registryStore((s) => s.manifests);
  const installed = registryStore((s) => s.installed);
  const permissions = sessionStore((s) => s.permissions);
  const role = sessionStore((s) => s.role);
  const settings = settingsStore((s) => s.settings);
  return useMemo(
    () => buildNavGroups(manifests, new Set(installed), { permissions, role, settings, isFlagEnabled: isSettingEnabled }),
    [manifests, installed, permissions, role, settings],
  );
}

export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('kernel');
  const groups = useNavGroups();
  const links = useRedirectLinks();
  const parentRoutes = useMemo(() => {
    const routes = groups.flatMap((g) => g.items.map((i) => i.route));
    return new Set(routes.filter((r) => routes.some((other) => other !== r && other.startsWith(`${r}/`))));
  }, [groups]);
  const look = uiStore((s) => s.settings.sidebar);
  const panel = useRef<HTMLElement>(null);

  // phones: Escape closes the drawer, and focus moves into it when it opens
  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, onClose]);

  const width = look.compactMode ? SIDEBAR_COMPACT_WIDTH : SIDEBAR_WIDTH;
  return (
    <>
      {open && (
        <div aria-hidden="true" onClick={onClose} css={{ position: 'fixed', inset: 0, background: 'rgba(3,6,12,.6)', zIndex: 39, [theme.breakpoints.md]: { display: 'none' } }} />
      )}
      <nav
        ref={panel}
        id="op-sidebar"
        aria-label={t('shell.navigation')}
        data-open={open}
        css={{
          position: 'fixed',
          top: 0,
          bottom: 0,
          left: 0,
          zIndex: 40,
          width,
          maxWidth: '85vw',
          display: 'flex',
          flexDirection: 'column',
          background: withAlpha(c.surface, look.opacity),
          backdropFilter: look.glassEffect ? 'blur(14px) saturate(1.2)' : undefined,
          borderRight: `1px solid ${c.border}`,
          boxShadow: look.borderGlow ? `1px 0 0 ${withAlpha(c.primary, 0.25)}, 8px 0 32px ${withAlpha(c.primary, 0.08)}` : undefined,
          transform: open ? 'none' : 'translateX(-105%)',
          // closed on a phone: out of the tab order as well as off screen
          visibility: open ? 'visible' : 'hidden',
          animation: open ? `${drawerIn[look.animation]} var(--op-transition-duration, .22s) ease-out` : undefined,
          overflowY: 'auto',
          [theme.breakpoints.md]: { transform: 'none', animation: 'none', visibility: 'visible' },
        }}
      >
        <div css={{ display: 'flex', alignItems: 'center', gap: 10, padding: look.compactMode ? '14px 14px' : '18px 18px' }}>
          <div css={{ minWidth: 0, flex: 1 }}>
            <AppMark size={look.compactMode ? 28 : 32} />
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t('shell.closeMenu')}
            css={{
              marginLeft: 'auto',
              display: 'inline-grid',
              placeItems: 'center',
              width: 36,
              height: 36,
              border: 0,
              borderRadius: theme.radii.md,
              background: 'transparent',
              color: c.muted,
              cursor: 'pointer',
              [theme.breakpoints.md]: { display: 'none' },
            }}
          >
            <Icon name="close" size={18} />
          </button>
        </div>
        <div css={{ display: 'grid', gap: look.compactMode ? 4 : 8, padding: look.compactMode ? '0 8px 16px' : '0 12px 20px' }}>
          {groups.map((group, index) => (
            <NavSectionBlock key={group.section} label={t(`nav.sections.${group.section}`)} first={index === 0} look={look}>
              {group.items.map((item) => (
                <NavLink
                  key={item.key}
                  to={item.route}
                  // a route that is the parent of another item (/mc-admin vs /mc-admin/users) is
                  // active on its own page only, so one item is highlighted at a time
                  end={parentRoutes.has(item.route)}
                  data-nav-route={item.route}
                  css={navItemStyle(look.compactMode)}
                >
                  <Icon name={item.icon} size={look.compactMode ? 16 : 18} />
                  <span css={labelStyle}>{t(item.label, { ns: item.pluginId })}</span>
                </NavLink>
              ))}
            </NavSectionBlock>
          ))}
          {links.length > 0 && (
            <NavSectionBlock label={t('nav.sections.links')} first={groups.length === 0} look={look}>
              {links.map((link) => (
                // an address outside the panel: a new tab, and no window.opener for the other site
                <a key={link.id} href={link.url} target="_blank" rel="noopener noreferrer" data-redirect-link={link.id} css={navItemStyle(look.compactMode)}>
                  <Icon name={link.icon} size={look.compactMode ? 16 : 18} />
                  <span css={labelStyle}>{link.name}</span>
                  <VisuallyHidden>{` (${t('shell.opensInNewTab')})`}</VisuallyHidden>
                  <Icon name="external" size={14} style={{ marginLeft: 'auto', flex: 'none', opacity: 0.7 }} />
                </a>
              ))}
            </NavSectionBlock>
          )}
        </div>
        {/* phones: the top bar has no room for the language picker */}
        <div css={{ marginTop: 'auto', padding: '12px 16px 20px', [theme.breakpoints.sm]: { display: 'none' } }}>
          <LanguagePicker />
        </div>
      </nav>
    </>
  );
}
