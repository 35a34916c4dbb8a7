// The groups the admin settings screen shows its settings in (spec §3's headings, then the core's
// own keys). The screen holds the core's settings and the panel-wide settings plugins declare with a
// `group` (their feature flags, limits and defaults); a plugin's other settings are on its own
// configuration screen (/api/admin/plugins/:id/config).
import type { ManifestSetting } from '../../sdk/types';

export interface SettingGroup {
  id: string;
  label: string;
}

export const SETTING_GROUPS: readonly SettingGroup[] = [
  { id: 'general', label: 'General' },
  { id: 'company', label: 'Company' },
  { id: 'server_defaults', label: 'Server defaults' },
  { id: 'features', label: 'Features' },
  { id: 'security', label: 'Security' },
  { id: 'mail', label: 'Mail' },
  { id: 'pterodactyl', label: 'Pterodactyl' },
  { id: 'appearance', label: 'Appearance' },
  { id: 'ads', label: 'Advertising' },
];

/** the anti-abuse settings (reference names: block_vpn, block_alts) */
const SECURITY_KEYS = /^(block_vpn$|block_alts$|vpn_check_|alt_)/;

/** The group of a core setting, by its key. */
export function groupOfSetting(key: string, type: string): string {
  if (key.startsWith('company_')) return 'company';
  if (key.startsWith('default_') && key !== 'default_bg') return 'server_defaults';
  if (key.startsWith('rate_limit') || key.startsWith('security_') || key === 'force_2fa') return 'security';
  if (SECURITY_KEYS.test(key)) return 'security';
  if (key.startsWith('smtp_')) return 'mail';
  if (key.startsWith('pterodactyl_')) return 'pterodactyl';
  if (key === 'custom_css' || key === 'custom_js') return 'appearance';
  if (key.startsWith('google_ads_')) return 'ads';
  if (type === 'boolean') return 'features';
  return 'general';
}

/** Whether a declared setting belongs on the settings screen (else on its plugin's configuration screen). */
export function onSettingsScreen(owner: string, def: ManifestSetting): boolean {
  return owner === 'core' || def.group !== undefined;
}

/**
 * The settings screen: its groups in order, each with its settings (core first, then plugins in load
 * order; the feature switches by key, as spec §3 lists them). A group id the core does not have is a
 * plugin's own group, shown after the core's under the name of the plugin that first declares it.
 */
export function settingsScreen(
  declarations: readonly { def: ManifestSetting; owner: string }[],
  pluginName: (id: string) => string,
): { group: SettingGroup; settings: ManifestSetting[] }[] {
  const groups = new Map(SETTING_GROUPS.map((group) => [group.id, { group, settings: [] as ManifestSetting[] }]));
  for (const { def, owner } of declarations) {
    if (!onSettingsScreen(owner, def)) continue;
    const id = def.group ?? groupOfSetting(def.key, def.type);
    if (!groups.has(id)) groups.set(id, { group: { id, label: pluginName(owner) }, settings: [] });
    groups.get(id)!.settings.push(def);
  }
  groups.get('features')?.settings.sort((a, b) => a.key.localeCompare(b.key));
  return [...groups.values()].filter((g) => g.settings.length > 0);
}
