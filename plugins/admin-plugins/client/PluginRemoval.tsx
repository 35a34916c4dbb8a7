// Removing a third-party plugin (root administrators; it must be disabled first): its folder goes,
// and its tables go too only when the administrator ticks the box — by default they stay, so a
// reinstall finds its data.
import { Alert, Button, Card, Checkbox, http, useErrorText, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';
import { pluginsUrl, type AdminPlugin } from './plugins-api';

export interface PluginRemovalProps {
  plugin: AdminPlugin;
  onCancel: () => void;
  onRemoved: (text: string) => void;
}

export function PluginRemoval({ plugin, onCancel, onRemoved }: PluginRemovalProps) {
  const { t } = useTranslation('admin-plugins');
  const errorText = useErrorText();
  const [dropTables, setDropTables] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function remove() {
    setBusy(true);
    setError(null);
    try {
      const answer = await http.post<{ id: string; dropped_tables: string[] }>(pluginsUrl.remove(plugin.id), { drop_tables: dropTables });
      onRemoved(
        answer.dropped_tables.length > 0 ? t('remove.doneDropped', { name: plugin.name, tables: answer.dropped_tables.join(', ') }) : t('remove.doneKept', { name: plugin.name }),
      );
    } catch (failure) {
      setError(errorText(failure));
      setBusy(false);
    }
  }

  return (
    <Card title={t('remove.title', { name: plugin.name })}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={{ margin: 0 }}>{t('remove.text')}</p>
        <Checkbox
          name="drop_tables"
          checked={dropTables}
          onChange={setDropTables}
          label={t('remove.dropTables')}
          hint={plugin.asks.tables.length > 0 ? t('remove.dropTablesHint', { tables: plugin.asks.tables.join(', ') }) : t('remove.noTables')}
        />
        {error && <Alert tone="error">{error}</Alert>}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button variant="danger" loading={busy} onClick={() => void remove()}>
            {t(dropTables ? 'remove.confirmDrop' : 'remove.confirm')}
          </Button>
          <Button variant="ghost" disabled={busy} onClick={onCancel}>
            {t('common.cancel')}
          </Button>
        </div>
      </div>
    </Card>
  );
}
