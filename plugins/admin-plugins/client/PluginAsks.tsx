// What a plugin asks for, from its plugin.json, in its row: the permissions it adds, its pages, its
// settings, its own tables and whether it runs code on the server. Read before enabling it (a new
// third-party plugin arrives disabled and shows this open).
import { theme, useTranslation } from '@orepanel/sdk';
import type { PluginAsks as Asks } from './plugins-api';

const c = theme.colors;

export function PluginAsks({ asks, open }: { asks: Asks; open: boolean }) {
  const { t } = useTranslation('admin-plugins');
  const none = t('asks.none');
  const list = (items: string[]) => (items.length > 0 ? items.join(', ') : none);
  const rows: [string, string][] = [
    [t('asks.permissions'), list(asks.permissions.map((p) => (p.description ? `${p.name} (${p.description})` : p.name)))],
    [t('asks.pages'), list(asks.pages.map((p) => (p.permission ? `${p.path} (${p.permission})` : p.path)))],
    [t('asks.settings'), list(asks.settings)],
    [t('asks.tables'), list(asks.tables)],
    [t('asks.server'), asks.server ? t('asks.serverYes') : t('asks.serverNo')],
  ];
  return (
    <details open={open} css={{ fontSize: theme.font.size.sm, fontWeight: 400, color: c.muted, minWidth: 0 }}>
      <summary css={{ cursor: 'pointer', color: c.text, '&:focus-visible': { outline: 'none', boxShadow: theme.focusRing, borderRadius: 4 } }}>{t('asks.title')}</summary>
      <dl css={{ display: 'grid', gridTemplateColumns: 'minmax(90px, max-content) minmax(0, 1fr)', gap: '2px 12px', margin: '6px 0 0' }}>
        {rows.map(([label, value]) => (
          <div key={label} css={{ display: 'contents' }}>
            <dt css={{ color: c.subtle }}>{label}</dt>
            <dd css={{ margin: 0, overflowWrap: 'anywhere', fontFamily: value === none ? undefined : theme.font.mono }}>{value}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}
