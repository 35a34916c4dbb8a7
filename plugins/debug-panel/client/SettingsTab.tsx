// Settings: the cached application settings (spec §3: the panel reads a locally cached copy), in the
// spec's groups, with the debug object. "Ask the server" shows the server's answer of now instead —
// for an administrator that is also where the server's operating system shows (it is never cached
// for everyone).
import { http, theme, useSettings, useSettingsDebugInfo, useTranslation, type PublicSettings, type SettingsDebugInfo } from '@orepanel/sdk';
import { useState } from 'react';
import { EmptyNote, monoText, SectionTitle, Toolbar, ToolButton } from './parts';
import { groupSettings, type SettingRow } from './settings-groups';

const c = theme.colors;

function shown(row: SettingRow, t: (key: string) => string): string {
  if (row.value === undefined) return t('settings.absent');
  // the server tells its operating system only to an administrator's own request
  if (row.value === '' && (row.key === 'debug_os' || row.key === 'debug_os_kernel')) return t('settings.administratorsOnly');
  if (row.value === '') return t('settings.emptyValue');
  return typeof row.value === 'string' ? row.value : JSON.stringify(row.value);
}

type Fresh = { settings: PublicSettings; debug: SettingsDebugInfo | null };

export function SettingsTab() {
  const { t } = useTranslation('debug-panel');
  const cached = useSettings();
  const cachedDebug = useSettingsDebugInfo();
  const [fresh, setFresh] = useState<Fresh | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'failed'>('idle');

  const ask = async () => {
    setState('loading');
    try {
      const answer = await http.get<Record<string, unknown>>('/api/system/settings', { cache: 'no-store' });
      const settings: PublicSettings = {};
      for (const [key, value] of Object.entries(answer)) {
        if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) settings[key] = value as PublicSettings[string];
      }
      setFresh({ settings, debug: (answer.debug as SettingsDebugInfo | undefined) ?? null });
      setState('idle');
    } catch {
      setState('failed');
    }
  };

  const groups = groupSettings(fresh?.settings ?? cached, fresh ? fresh.debug : cachedDebug);
  return (
    <div>
      <Toolbar>
        <ToolButton onClick={() => void ask()}>{state === 'loading' ? t('settings.asking') : t('settings.ask')}</ToolButton>
        {fresh ? <ToolButton onClick={() => setFresh(null)}>{t('settings.showCached')}</ToolButton> : null}
        <span css={{ color: state === 'failed' ? c.danger : c.muted, fontSize: theme.font.size.xs }} aria-live="polite">
          {state === 'failed' ? t('settings.askFailed') : fresh ? t('settings.fromServer') : t('settings.fromCache')}
        </span>
      </Toolbar>
      <div css={{ padding: '0 12px 16px' }}>
        {Object.keys(cached).length === 0 && !fresh ? <EmptyNote>{t('settings.noCache')}</EmptyNote> : null}
        {groups.map((group) => (
          <section key={group.id} aria-label={t(`settings.groups.${group.id}`)}>
            <SectionTitle>{t(`settings.groups.${group.id}`)}</SectionTitle>
            <dl css={{ ...monoText, margin: 0, display: 'grid', gridTemplateColumns: 'minmax(120px, 40%) 1fr', gap: '2px 12px' }}>
              {group.rows.map((row) => (
                <div key={row.key} css={{ display: 'contents' }}>
                  <dt css={{ color: c.muted, overflowWrap: 'anywhere' }}>{row.key}</dt>
                  <dd css={{ margin: 0, overflowWrap: 'anywhere', color: row.value === undefined ? c.muted : c.text }}>{shown(row, t)}</dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </div>
  );
}
