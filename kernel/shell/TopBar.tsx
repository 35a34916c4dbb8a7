// The top bar of the shell: menu button (phones), the page's title, the user lookup search (when a
// plugin provides /lookup), the coins badge, the language picker and the user menu. Its look follows
// the `topNavigation` interface settings (glass, opacity, glow, search bar).
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { currentLanguage } from '../../sdk/client/i18n';
import { isPluginOffered, registryStore } from '../../sdk/client/stores/registry';
import { sessionStore } from '../../sdk/client/stores/session';
import { uiStore } from '../../sdk/client/stores/ui';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';
import { useCurrentKernelRoute, useRouteTitle } from '../router/plugin-route';
import { LanguagePicker } from './LanguagePicker';
import { withAlpha } from './Sidebar';
import { UserMenu } from './UserMenu';

const c = theme.colors;
export const TOP_BAR_HEIGHT = 60;
const LOOKUP_PATH = '/lookup';

function CoinsBadge() {
  const { t } = useTranslation('kernel');
  const coins = sessionStore((s) => s.billing?.coins);
  if (coins === undefined) return null;
  const text = new Intl.NumberFormat(currentLanguage() === 'md' ? 'ro-MD' : currentLanguage()).format(coins);
  return (
    <span
      data-testid="coins-badge"
      title={t('shell.coins')}
      css={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 6,
        height: 32,
        padding: '0 10px',
        borderRadius: theme.radii.full,
        background: c.warningSoft,
        color: c.warning,
        fontWeight: theme.font.weight.semibold,
        fontSize: theme.font.size.sm,
        whiteSpace: 'nowrap',
      }}
    >
      <Icon name="coins" size={16} />
      <span>{text}</span>
      <span css={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}>{t('shell.coins')}</span>
    </span>
  );
}

function LookupSearch() {
  const { t } = useTranslation('kernel');
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const q = query.trim();
    if (q) navigate(`${LOOKUP_PATH}?query=${encodeURIComponent(q)}`);
  };
  return (
    <form role="search" onSubmit={submit} css={{ display: 'none', [theme.breakpoints.md]: { display: 'block' } }}>
      <label
        css={{
          display: 'flex',
          alignItems: 'center',
          gap: 6,
          height: 36,
          padding: '0 10px',
          borderRadius: theme.radii.md,
          border: `1px solid ${c.border}`,
          background: c.background,
          color: c.muted,
        }}
      >
        <Icon name="search" size={16} />
        <input
          type="search"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder={t('shell.search')}
          aria-label={t('shell.search')}
          css={{ width: 180, border: 0, background: 'transparent', color: c.text, font: 'inherit', fontSize: theme.font.size.sm, outline: 'none' }}
        />
      </label>
    </form>
  );
}

export function TopBar({ menuOpen, onMenu }: { menuOpen: boolean; onMenu: () => void }) {
  const { t } = useTranslation('kernel');
  const look = uiStore((s) => s.settings.topNavigation);
  const route = useCurrentKernelRoute();
  const title = useRouteTitle(route);
  const hasLookup = registryStore((s) => s.manifests.some((m) => isPluginOffered(s, m.id) && (m.routes ?? []).some((r) => r.path === LOOKUP_PATH)));
  return (
    <header
      css={{
        position: 'sticky',
        top: 0,
        zIndex: 30,
        display: 'flex',
        alignItems: 'center',
        gap: 8,
        height: TOP_BAR_HEIGHT,
        padding: '0 12px',
        background: withAlpha(c.surface, look.opacity),
        backdropFilter: look.glass ? 'blur(14px) saturate(1.2)' : undefined,
        borderBottom: `1px solid ${c.border}`,
        boxShadow: look.glow ? `0 1px 0 ${withAlpha(c.primary, 0.2)}, 0 8px 28px ${withAlpha(c.primary, 0.06)}` : undefined,
        [theme.breakpoints.sm]: { gap: 12, padding: '0 20px' },
      }}
    >
      <button
        type="button"
        onClick={onMenu}
        aria-label={t('shell.openMenu')}
        aria-controls="op-sidebar"
        aria-expanded={menuOpen}
        data-testid="menu-button"
        css={{
          display: 'inline-grid',
          placeItems: 'center',
          flex: 'none',
          width: 40,
          height: 40,
          border: `1px solid ${c.border}`,
          borderRadius: theme.radii.md,
          background: 'transparent',
          color: c.text,
          cursor: 'pointer',
          [theme.breakpoints.md]: { display: 'none' },
        }}
      >
        <Icon name="menu" size={20} />
      </button>
      {/* the page's own <h1> (in <main>) is the document's heading; this is its echo in the bar */}
      <div
        data-testid="page-title"
        css={{
          flex: 1,
          minWidth: 0,
          margin: 0,
          fontSize: theme.font.size.lg,
          fontWeight: theme.font.weight.semibold,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
        }}
      >
        {title ?? ''}
      </div>
      {look.showSearchBar && hasLookup && <LookupSearch />}
      <CoinsBadge />
      <div css={{ display: 'none', [theme.breakpoints.sm]: { display: 'block' } }}>
        <LanguagePicker />
      </div>
      <UserMenu />
    </header>
  );
}
