// /mc-admin/plugins/:identifier/config: the settings the plugin declares in its plugin.json, with the
// same typed form as the core settings (secrets write-only), then whatever the plugin contributes to
// the slot admin.plugin-config.<id> — configuration a settings form cannot hold (earn-j4r's guild list).
import { Button, http, Page, Slot, useApi, useParams, useTranslation, ADMIN_PATHS, type SettingDescriptor, ResourceState, SettingsForm } from '@orepanel/sdk';
import { useState } from 'react';
import { EmptyStateCard } from '@orepanel/sdk';
import { pluginsUrl, type AdminPlugin } from './plugins-api';

interface PluginConfig {
  id: string;
  settings: SettingDescriptor[];
}

export default function PluginConfigPage() {
  const { t } = useTranslation('admin-plugins');
  const { identifier = '' } = useParams();
  const config = useApi<PluginConfig>(pluginsUrl.pluginConfig(identifier));
  const about = useApi<{ plugin: AdminPlugin }>(`${pluginsUrl.plugins()}/${encodeURIComponent(identifier)}`);
  const [saved, setSaved] = useState<SettingDescriptor[] | null>(null);
  const settings = saved ?? config.data?.settings;
  const name = about.data?.plugin.name ?? identifier;

  return (
    <Page
      title={t('pluginConfig.title', { name })}
      description={about.data?.plugin.description}
      actions={
        <Button variant="secondary" to={ADMIN_PATHS.plugins}>
          {t('pluginConfig.back')}
        </Button>
      }
    >
      <ResourceState data={settings} loading={config.loading} error={config.error} reload={config.reload}>
        {(current) =>
          current.length === 0 ? (
            <EmptyStateCard icon="settings" title={t('pluginConfig.empty')} />
          ) : (
            <SettingsForm
              key={JSON.stringify(current.map((s) => [s.key, s.value]))}
              label={t('pluginConfig.title', { name })}
              sections={[{ id: identifier, label: name, settings: current }]}
              mayEdit
              onSave={async (values) => {
                const answer = await http.patch<PluginConfig>(pluginsUrl.pluginConfig(identifier), { values });
                setSaved(answer.settings);
              }}
            />
          )
        }
      </ResourceState>
      <Slot name={`admin.plugin-config.${identifier}`} />
    </Page>
  );
}
