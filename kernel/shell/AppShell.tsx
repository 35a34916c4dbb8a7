// The app shell around every `layout: "app"` page (spec §2 App shell): sidebar, top bar, the page, and
// the floating gear that opens the interface customisation panel. A lazy kernel chunk: the login page
// never needs it.
import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router-dom';
import { Slot, useSlotEntries } from '../../sdk/client/slots';
import { uiStore } from '../../sdk/client/stores/ui';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';
import { RealtimeBanner } from './RealtimeBanner';
import { SIDEBAR_COMPACT_WIDTH, SIDEBAR_WIDTH, Sidebar } from './Sidebar';
import { TopBar } from './TopBar';

const CustomizationPanel = lazy(() => import('./customization/CustomizationPanel'));
const c = theme.colors;

function CustomizationGear() {
  const { t } = useTranslation('kernel');
  const open = uiStore((s) => s.settingsPanelOpen);
  const setOpen = uiStore((s) => s.setSettingsPanelOpen);
  const gear = useRef<HTMLButtonElement>(null);
  return (
    <>
      <button
        ref={gear}
        type="button"
        data-testid="customization-gear"
        aria-label={t('customize.open')}
        aria-expanded={open}
        aria-haspopup="dialog"
        onClick={() => setOpen(!open)}
        css={{
          position: 'fixed',
          right: 16,
          bottom: 16,
          zIndex: 45,
          display: 'grid',
          placeItems: 'center',
          width: 48,
          height: 48,
          border: `1px solid ${c.borderStrong}`,
          borderRadius: '50%',
          background: c.primary,
          color: c.primaryText,
          boxShadow: theme.shadows.md,
          cursor: 'pointer',
          '& svg': { transition: 'transform var(--op-transition-duration, .22s) ease' },
          '&:hover svg': { transform: 'rotate(60deg)' },
        }}
      >
        <Icon name="gear" size={22} />
      </button>
      {open && (
        <Suspense fallback={null}>
          <CustomizationPanel onClose={() => setOpen(false)} ignore={gear} />
        </Suspense>
      )}
    </>
  );
}

export default function AppShell() {
  const { t } = useTranslation('kernel');
  const [menuOpen, setMenuOpen] = useState(false);
  const location = useLocation();
  const compact = uiStore((s) => s.settings.sidebar.compactMode);
  const backgroundEffects = uiStore((s) => s.settings.performance.backgroundEffects);
  const closeMenu = useCallback(() => setMenuOpen(false), []);
  useEffect(() => setMenuOpen(false), [location.key]);

  return (
    <div
      data-testid="app-shell"
      css={{
        minHeight: '100vh',
        background: backgroundEffects ? `radial-gradient(1200px 600px at 100% -10%, ${c.primarySoft}, transparent 60%), ${c.background}` : c.background,
        backgroundAttachment: 'fixed',
      }}
    >
      <a href="#op-main" css={{ position: 'absolute', left: -9999, top: 8, zIndex: 100, padding: '8px 12px', background: c.surface, color: c.text, '&:focus': { left: 8 } }}>
        {t('shell.skipToContent')}
      </a>
      <Sidebar open={menuOpen} onClose={closeMenu} />
      <div css={{ minWidth: 0, [theme.breakpoints.md]: { marginLeft: compact ? SIDEBAR_COMPACT_WIDTH : SIDEBAR_WIDTH } }}>
        <TopBar menuOpen={menuOpen} onMenu={() => setMenuOpen(true)} />
        <main id="op-main" tabIndex={-1} css={{ padding: '16px 12px 88px', outline: 'none', [theme.breakpoints.sm]: { padding: '24px 24px 96px' } }}>
          <RealtimeBanner />
          <ShellBanners />
          <Outlet />
        </main>
      </div>
      <CustomizationGear />
    </div>
  );
}

/**
 * The `shell.banner` slot: notices a plugin shows above every page (a pinned warning, planned
 * maintenance). Each contribution decides itself whether it has anything to show; nothing is drawn
 * (no gap, no loader) while none is contributed.
 */
export function ShellBanners() {
  const entries = useSlotEntries('shell.banner');
  if (entries.length === 0) return null;
  return (
    <div css={{ display: 'grid', gap: 8, marginBottom: 16, '&:empty': { display: 'none' } }}>
      <Slot name="shell.banner" loading={false} />
    </div>
  );
}
