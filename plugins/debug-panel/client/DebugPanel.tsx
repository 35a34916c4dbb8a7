// The developer debug panel (spec §2): bottom right, a full-width sheet on a phone; tabs Network,
// Errors, Console, App, Storage, Settings, with counts. Not modal: the page stays usable behind it.
// The kernel opens and closes it (Ctrl+I, the launcher, Escape) and gives the focus back; the tab
// strip follows the WAI-ARIA tabs pattern. Only the open tab renders (a list of 200 requests
// re-rendering behind a hidden tab would slow the page it is meant to watch).
import { theme, useTranslation, type OverlayProps } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { LogTab } from './LogTab';
import { NetworkTab } from './NetworkTab';
import { useRecorded } from './recorded';
import { SettingsTab } from './SettingsTab';
import { readStorage, StorageTab, storageCount, type StorageView } from './StorageTab';
import { TerminalTab } from './TerminalTab';

const c = theme.colors;

export const TAB_IDS = ['network', 'errors', 'console', 'app', 'storage', 'settings'] as const;
export type TabId = (typeof TAB_IDS)[number];

/** The tab shown when the panel opens again: the one left open. */
let lastTab: TabId = 'network';

export default function DebugPanel({ onClose }: OverlayProps) {
  const { t } = useTranslation('debug-panel');
  const recorded = useRecorded();
  const [tab, setTab] = useState<TabId>(lastTab);
  const strip = useRef<HTMLDivElement>(null);
  // storage is read, not recorded: counted when the panel opens, then by its tab when it reads again
  const [storageEntries, setStorageEntries] = useState(() => storageCount(readStorage()));
  const countStorage = useCallback((view: StorageView) => setStorageEntries(storageCount(view)), []);

  useEffect(() => {
    lastTab = tab;
  }, [tab]);
  // the focus starts on the open tab, so the arrow keys and Tab work at once
  useEffect(() => {
    strip.current?.querySelector<HTMLButtonElement>('[aria-selected="true"]')?.focus();
  }, []);

  const counts: Partial<Record<TabId, number>> = {
    network: recorded.network.length,
    errors: recorded.errors.length,
    console: recorded.console.length,
    storage: storageEntries,
  };

  const onKey = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: TAB_IDS.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    const next = TAB_IDS[(moves[event.key] + TAB_IDS.length) % TAB_IDS.length];
    setTab(next);
    strip.current?.querySelector<HTMLButtonElement>(`#debug-panel-tab-${next}`)?.focus();
  };

  let content: ReactNode;
  switch (tab) {
    case 'network':
      content = <NetworkTab entries={recorded.network} dropped={recorded.dropped.network} />;
      break;
    case 'errors':
      content = <LogTab key="errors" list="errors" entries={recorded.errors} dropped={recorded.dropped.errors} />;
      break;
    case 'console':
      content = <LogTab key="console" list="console" entries={recorded.console} dropped={recorded.dropped.console} />;
      break;
    case 'app':
      content = <TerminalTab />;
      break;
    case 'storage':
      content = <StorageTab onRead={countStorage} />;
      break;
    case 'settings':
      content = <SettingsTab />;
      break;
  }

  return (
    <section
      role="dialog"
      aria-modal="false"
      aria-labelledby="debug-panel-title"
      data-testid="debug-panel"
      css={{
        display: 'grid',
        gridTemplateRows: 'auto auto minmax(0, 1fr)',
        width: 'min(880px, calc(100vw - 32px))',
        height: 'min(600px, calc(100dvh - 32px))',
        margin: 16,
        background: c.surface,
        color: c.text,
        border: `1px solid ${c.borderStrong}`,
        borderRadius: theme.radii.lg,
        boxShadow: theme.shadows.lg,
        overflow: 'hidden',
        fontSize: theme.font.size.sm,
        // a phone: a sheet over the lower part of the screen, the whole width
        '@media (max-width: 599px)': { width: '100vw', height: '85dvh', margin: 0, borderRadius: `${theme.radii.xl} ${theme.radii.xl} 0 0`, borderBottom: 0 },
      }}
    >
      <header css={{ display: 'flex', alignItems: 'center', gap: 8, padding: '8px 8px 8px 16px', borderBottom: `1px solid ${c.border}` }}>
        <h2 id="debug-panel-title" css={{ margin: 0, fontSize: theme.font.size.md, fontWeight: theme.font.weight.semibold, flex: 1, minWidth: 0 }}>
          {t('title')}
          <span css={{ marginLeft: 8, color: c.muted, fontWeight: theme.font.weight.normal, fontSize: theme.font.size.xs }}>{t('shortcutHint')}</span>
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label={t('close')}
          title={t('close')}
          css={{
            width: 32,
            height: 32,
            display: 'grid',
            placeItems: 'center',
            border: 0,
            borderRadius: theme.radii.sm,
            background: 'transparent',
            color: c.text,
            cursor: 'pointer',
            fontSize: 18,
            '&:hover': { background: c.surfaceHover },
            '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing },
          }}
        >
          ✕
        </button>
      </header>
      <div
        ref={strip}
        role="tablist"
        aria-label={t('tabsLabel')}
        css={{ display: 'flex', gap: 2, overflowX: 'auto', padding: '0 8px', borderBottom: `1px solid ${c.border}`, scrollbarWidth: 'thin' }}
      >
        {TAB_IDS.map((id, index) => {
          const selected = id === tab;
          const count = counts[id];
          return (
            <button
              key={id}
              id={`debug-panel-tab-${id}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls="debug-panel-tabpanel"
              tabIndex={selected ? 0 : -1}
              onClick={() => setTab(id)}
              onKeyDown={(event) => onKey(event, index)}
              css={{
                flex: 'none',
                display: 'inline-flex',
                alignItems: 'center',
                gap: 6,
                padding: '8px 10px',
                marginBottom: -1,
                border: 0,
                borderBottom: `2px solid ${selected ? c.primary : 'transparent'}`,
                background: 'transparent',
                color: selected ? c.text : c.muted,
                font: 'inherit',
                fontWeight: selected ? theme.font.weight.semibold : theme.font.weight.medium,
                cursor: 'pointer',
                whiteSpace: 'nowrap',
                '&:hover': { color: c.text },
                '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: theme.radii.sm },
              }}
            >
              {t(`tabs.${id}`)}
              {count !== undefined ? (
                <span
                  data-count={id}
                  css={{
                    minWidth: 20,
                    padding: '0 6px',
                    borderRadius: theme.radii.full,
                    background: id === 'errors' && count > 0 ? c.dangerSoft : c.surfaceRaised,
                    color: id === 'errors' && count > 0 ? c.danger : c.muted,
                    fontSize: theme.font.size.xs,
                    textAlign: 'center',
                  }}
                >
                  {count}
                </span>
              ) : null}
            </button>
          );
        })}
      </div>
      <div id="debug-panel-tabpanel" role="tabpanel" aria-labelledby={`debug-panel-tab-${tab}`} css={{ overflow: 'auto', minHeight: 0 }}>
        {content}
      </div>
    </section>
  );
}
