// The sidebar: the installed plugins' nav items by section (spec §2 App shell), the current route
// highlighted, then the sections plugins add through the `nav.sections` slot (the redirect links
// plugin's external links, for one: when it is disabled they are gone with it). On phones it is a
// drawer opened by the top bar's menu button. Its look follows the `sidebar` interface settings
// (glass, opacity, glow, compact mode, section dividers, animation).
import { keyframes, type Keyframes } from '@emotion/react';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router-dom';
import { isPluginOffered, pluginComponentLoader, registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { isSettingEnabled, settingsStore } from '../../sdk/client/stores/settings';
import { Slot } from '../../sdk/client/slots';
import { NOTIFICATION_KEYFRAMES, notificationAnimation, notificationSurface } from '../../sdk/client/notification-look';
import { ANIMATION_STYLES, uiStore, useMotionReduced, type AnimationStyle } from '../../sdk/client/stores/ui';
import { Icon } from '../../sdk/client/ui/icons';
import { AppMark } from '../../sdk/client/ui/layout';
import { SidebarSection, sidebarItemStyle, sidebarLabelStyle, type SidebarSectionSlotProps } from '../../sdk/client/ui/sidebar';
import { theme } from '../../sdk/client/ui/theme';
import { LanguagePicker } from './LanguagePicker';
import { navBadgeStore } from './nav-badges';
import { buildNavGroups, type NavGroup } from './nav-model';

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

function useNavGroups(): NavGroup[] {
  const manifests = registryStore((s) => s.manifests);
  // offered plugins show their nav items before their client is installed (it installs on the first visit)
  const offered = registryStore((s) => s.offered);
  const failed = registryStore((s) => s.failed);
  const permissions = sessionStore((s) => s.permissions);
  const role = sessionStore((s) => s.role);
  const settings = settingsStore((s) => s.settings);
  return useMemo(
    () =>
      buildNavGroups(manifests, new Set(offered.filter((id) => isPluginOffered({ offered, failed }, id))), {
        permissions,
        role,
        settings,
        isFlagEnabled: isSettingEnabled,
      }),
    [manifests, offered, failed, permissions, role, settings],
  );
}

/** Above this a pill says 99+: the sidebar keeps its width. */
export const NAV_BADGE_MAX = 99;

const preloaded = new Set<string>();

/**
 * spec §9 preloadCritical: the page behind a menu link starts loading (its plugin installed, its page
 * file fetched) as soon as the link is pointed at or focused, so the click finds it ready. Only links
 * the menu shows are preloaded — the guards let their holder through — and a failed preload is the
 * same failure a click would have met (reported once, retried from the page).
 */
export function preloadPage(pluginId: string, route: string): void {
  if (!uiStore.getState().settings.performance.preloadCritical) return;
  const key = `${pluginId}:${route}`;
  if (preloaded.has(key)) return;
  const component = registryStore
    .getState()
    .manifests.find((m) => m.id === pluginId)
    ?.routes?.find((r) => r.path === route)?.component;
  if (!component) return;
  preloaded.add(key);
  pluginComponentLoader('route', pluginId, component)().catch(() => preloaded.delete(key));
}

/** The notification animations as emotion keyframes (inserted with the first count that uses one). */
const BADGE_KEYFRAMES = Object.fromEntries(ANIMATION_STYLES.map((style) => [style, keyframes(NOTIFICATION_KEYFRAMES[style])])) as Record<AnimationStyle, Keyframes>;

/**
 * The count pill of a nav item: nothing at 0 or while unknown; its accessible name says the count. Its
 * look follows the `notifications` interface settings (glass, opacity, glow, showBackground), and a new
 * count comes in with their animation.
 */
export function NavBadge({ badge, compact }: { badge: string; compact: boolean }) {
  const { t } = useTranslation('kernel');
  const count = navBadgeStore((s) => s.counts[badge] ?? 0);
  const look = uiStore((s) => s.settings.notifications);
  const still = useMotionReduced();
  if (count <= 0) return null;
  const surface = notificationSurface(look, c.primary);
  return (
    <span
      // a new count is a new element: the animation plays again
      key={count}
      role="img"
      aria-label={t('shell.navBadge', { count })}
      data-nav-badge={badge}
      data-animation={still ? 'none' : look.animation}
      css={{
        ...surface,
        // the pill's own accent stays readable on its border when it has no background
        color: look.showBackground ? c.primaryText : c.primaryHover,
        animation: notificationAnimation(look, still, 'in', BADGE_KEYFRAMES[look.animation]),
        marginLeft: 'auto',
        flexShrink: 0,
        minWidth: compact ? 18 : 20,
        height: compact ? 18 : 20,
        padding: '0 6px',
        display: 'inline-grid',
        placeItems: 'center',
        borderRadius: theme.radii.full,
        fontSize: theme.font.size.xs,
        fontWeight: theme.font.weight.semibold,
        lineHeight: 1,
        fontVariantNumeric: 'tabular-nums',
      }}
    >
      {count > NAV_BADGE_MAX ? `${NAV_BADGE_MAX}+` : count}
    </span>
  );
}

export function Sidebar({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('kernel');
  const groups = useNavGroups();
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
            <SidebarSection key={group.section} section={group.section} title={group.title && t(group.title.key, { ns: group.title.namespace })} first={index === 0}>
              {group.items.map((item) => (
                <NavLink
                  key={item.key}
                  to={item.route}
                  // a route that is the parent of another item (/mc-admin vs /mc-admin/users) is
                  // active on its own page only, so one item is highlighted at a time
                  end={parentRoutes.has(item.route)}
                  data-nav-route={item.route}
                  onPointerEnter={() => preloadPage(item.pluginId, item.route)}
                  onFocus={() => preloadPage(item.pluginId, item.route)}
                  css={sidebarItemStyle(look.compactMode)}
                >
                  <Icon name={item.icon} size={look.compactMode ? 16 : 18} />
                  <span css={sidebarLabelStyle}>{t(item.label, { ns: item.pluginId })}</span>
                  {item.badge && <NavBadge badge={item.badge} compact={look.compactMode} />}
                </NavLink>
              ))}
            </SidebarSection>
          ))}
          {/* sections plugins add (each reads its own data); nothing shows while their code loads */}
          <Slot name="nav.sections" props={{ first: groups.length === 0 } satisfies SidebarSectionSlotProps} loading={false} />
        </div>
        {/* phones: the top bar has no room for the language picker */}
        <div css={{ marginTop: 'auto', padding: '12px 16px 20px', [theme.breakpoints.sm]: { display: 'none' } }}>
          <LanguagePicker />
        </div>
      </nav>
    </>
  );
}
