// /mc-admin/settings: every core setting from the API (spec §3 and the core's own), in its group.
// Viewing needs admin.settings.view; saving admin.settings.edit, and a root-only setting admin.root
// (the API says per setting whether the caller may edit it). Plugins' settings are on their config
// pages (/mc-admin/plugins/{identifier}/config).
import { http, Page, useApi, useHasPermission, useTranslation, ADMIN_PERMISSIONS, ResourceState, SettingsForm, type SettingsSection } from '@orepanel/sdk';
import { useState } from 'react';
import { OwnSwitchesNote } from './OwnSwitchesNote';
import { PanelConnectionTest } from './PanelConnectionTest';
import { settingsUrl, type SettingGroup } from './settings-api';

export default function SettingsPage() {
  const { t, i18n } = useTranslation('admin-settings');
  const loaded = useApi<{ groups: SettingGroup[] }>(settingsUrl.settings());
  const [saved, setSaved] = useState<SettingGroup[] | null>(null);
  const groups = saved ?? loaded.data?.groups;
  const mayEdit = useHasPermission(ADMIN_PERMISSIONS.settingsEdit);
  const [tab, setTab] = useState<string | undefined>(undefined);

  // a group the catalogue knows gets its translated name; another (a newer server's) its API label
  const sections = (list: SettingGroup[]): SettingsSection[] =>
    list.map((g) => ({ id: g.id, label: i18n.exists(`settings.groups.${g.id}`, { ns: 'admin-settings' }) ? t(`settings.groups.${g.id}`) : g.label, settings: g.settings }));

  return (
    <Page title={t('settings.title')} description={t('settings.description')}>
      <ResourceState data={groups} loading={loaded.loading} error={loaded.error} reload={loaded.reload}>
        {(current) => (
          <SettingsForm
            key={JSON.stringify(current.map((g) => g.settings.map((s) => [s.key, s.value])))}
            label={t('settings.title')}
            sections={sections(current)}
            mayEdit={mayEdit}
            activeSection={tab}
            onSectionChange={setTab}
            sectionExtra={(id, unsaved) => (id === 'pterodactyl' ? <PanelConnectionTest unsaved={unsaved} /> : id === 'features' ? <OwnSwitchesNote /> : null)}
            onSave={async (values) => {
              const answer = await http.patch<{ groups: SettingGroup[] }>(settingsUrl.settings(), { values });
              setSaved(answer.groups);
            }}
          />
        )}
      </ResourceState>
    </Page>
  );
}
