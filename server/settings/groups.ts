// The groups the admin settings screen shows the core settings in (spec §3's headings, then the
// core's own keys).
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

/** the captcha and anti-abuse settings (reference names: block_vpn, block_alts) */
const SECURITY_KEYS = /^(captcha_|turnstile_|block_vpn$|block_alts$|vpn_check_|alt_)/;

export function groupOfSetting(key: string, type: string): string {
  if (key.startsWith('company_')) return 'company';
  if (key.startsWith('default_') && key !== 'default_bg') return 'server_defaults';
  if (key.startsWith('server_renew_') && type === 'number') return 'server_defaults';
  if (key.startsWith('rate_limit') || key.startsWith('security_') || key === 'force_2fa') return 'security';
  if (SECURITY_KEYS.test(key)) return 'security';
  // sign-in providers: with the other sign-in settings
  if (key.startsWith('discord_') || key.startsWith('github_')) return 'security';
  if (key.startsWith('smtp_')) return 'mail';
  if (key.startsWith('pterodactyl_')) return 'pterodactyl';
  if (key === 'custom_css' || key === 'custom_js') return 'appearance';
  if (key.startsWith('google_ads_')) return 'ads';
  if (type === 'boolean') return 'features';
  return 'general';
}
