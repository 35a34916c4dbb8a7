// spec §3 "Application settings": the cached copy grouped as the spec lists it — General, Company,
// Server defaults, Feature flags, Debug info (with the debug object) — and whatever else the panel's
// plugins publish, under Other.
import type { PublicSettings, SettingsDebugInfo } from '@orepanel/sdk';

export type SettingsGroupId = 'general' | 'company' | 'server' | 'features' | 'debug' | 'other';

export const SETTINGS_GROUPS: readonly { id: Exclude<SettingsGroupId, 'other'>; keys: readonly string[] }[] = [
  { id: 'general', keys: ['app_name', 'app_version', 'app_lang', 'app_timezone', 'app_url', 'currency', 'currency_symbol'] },
  { id: 'company', keys: ['company_name', 'company_address', 'company_city', 'company_state', 'company_country', 'company_zip', 'company_vat'] },
  {
    id: 'server',
    keys: ['default_cpu', 'default_ram', 'default_disk', 'default_ports', 'default_databases', 'default_backups', 'default_server_slots', 'server_renew_days', 'server_renew_cost'],
  },
  {
    id: 'features',
    keys: [
      'afk_enabled',
      'allow_coins_sharing',
      'allow_public_profiles',
      'allow_servers',
      'allow_tickets',
      'code_redemption_enabled',
      'credits_recharge_enabled',
      'early_supporters_enabled',
      'leaderboard_enabled',
      'referrals_enabled',
      'server_renew_enabled',
      'store_enabled',
      'zero_trust_enabled',
    ],
  },
  { id: 'debug', keys: ['debug_debug', 'debug_version', 'debug_os', 'debug_os_kernel', 'debug_name', 'debug_telemetry'] },
];

/** A row of the Settings tab: the key, and its value (undefined: the copy does not have it). */
export interface SettingRow {
  key: string;
  value: string | number | boolean | null | undefined;
}

/** The settings in the spec's groups; keys the spec does not list go to `other`, sorted. */
export function groupSettings(settings: PublicSettings, debug: SettingsDebugInfo | null): { id: SettingsGroupId; rows: SettingRow[] }[] {
  const listed = new Set(SETTINGS_GROUPS.flatMap((g) => g.keys));
  const groups: { id: SettingsGroupId; rows: SettingRow[] }[] = SETTINGS_GROUPS.map((g) => ({ id: g.id, rows: g.keys.map((key) => ({ key, value: settings[key] })) }));
  const debugGroup = groups.find((g) => g.id === 'debug');
  debugGroup?.rows.push(
    { key: 'debug.useRedis', value: debug?.useRedis },
    { key: 'debug.rateLimit.enabled', value: debug?.rateLimit.enabled },
    { key: 'debug.rateLimit.limit', value: debug?.rateLimit.limit },
  );
  const other = Object.keys(settings)
    .filter((key) => !listed.has(key))
    .sort()
    .map((key) => ({ key, value: settings[key] }));
  if (other.length > 0) groups.push({ id: 'other', rows: other });
  return groups;
}
