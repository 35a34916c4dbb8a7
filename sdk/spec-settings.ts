// Spec §3 "Application settings": its groups and their keys, in the spec's order — the one list the
// settings screen's tests, the settings call's tests and the debug panel's Settings tab read.
export type SpecSettingsGroupId = 'general' | 'company' | 'server' | 'features' | 'debug';

export const SPEC_SETTINGS_GROUPS: readonly { id: SpecSettingsGroupId; keys: readonly string[] }[] = [
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

/** spec §3's feature flags, in the settings screen's order */
export const SPEC_FEATURE_FLAGS: readonly string[] = SPEC_SETTINGS_GROUPS.find((group) => group.id === 'features')?.keys ?? [];
