// The core application settings: every spec §3 key plus the core's own, with the reference
// defaults (shared/research/reference-behaviour.md). `public` is explicit for each: only public keys
// reach browsers through GET /api/system/settings; a secret is never public.
import { LANGUAGES, type ManifestSetting } from '../../sdk/types';

const str = (key: string, def: string, isPublic: boolean, label: string): ManifestSetting => ({ key, type: 'string', default: def, public: isPublic, secret: false, label });
const num = (key: string, def: number, label: string, min = 0): ManifestSetting => ({ key, type: 'number', default: def, public: true, secret: false, label, min });
const flag = (key: string, def: boolean, label: string): ManifestSetting => ({ key, type: 'boolean', default: def, public: true, secret: false, label });

export const CORE_SETTINGS: readonly ManifestSetting[] = [
  // spec §3 General
  str('app_name', 'Orepanel', true, 'Application name'),
  { key: 'app_lang', type: 'select', default: 'en', options: [...LANGUAGES], public: true, secret: false, label: 'Default language' },
  str('app_timezone', 'UTC', true, 'Time zone'),
  { key: 'app_url', type: 'url', default: '', public: true, secret: false, label: 'Public address of the panel' },
  str('currency', 'EUR', true, 'Currency code'),
  str('currency_symbol', '€', true, 'Currency symbol'),
  { key: 'app_logo', type: 'url', default: '', public: true, secret: false, label: 'Logo address' },
  { key: 'seo_description', type: 'text', default: '', public: true, secret: false, label: 'Description for search engines' },
  { key: 'default_bg', type: 'url', default: '', public: true, secret: false, label: 'Default background image address' },
  // spec §3 Company
  str('company_name', '', true, 'Company name'),
  str('company_address', '', true, 'Company address'),
  str('company_city', '', true, 'Company city'),
  str('company_state', '', true, 'Company state'),
  str('company_country', '', true, 'Company country'),
  str('company_zip', '', true, 'Company postal code'),
  str('company_vat', '', true, 'Company VAT number'),
  // spec §3 Server defaults: the resources every new account starts with
  num('default_cpu', 100, 'CPU (%) given at sign-up'),
  num('default_ram', 1024, 'Memory (MiB) given at sign-up'),
  num('default_disk', 1024, 'Disk (MiB) given at sign-up'),
  num('default_ports', 2, 'Ports given at sign-up'),
  num('default_databases', 1, 'Databases given at sign-up'),
  num('default_backups', 5, 'Backups given at sign-up'),
  num('default_server_slots', 1, 'Server slots given at sign-up'),
  num('server_renew_days', 30, 'Days a renewal adds', 1),
  num('server_renew_cost', 100, 'Coins a renewal costs'),
  // spec §3 Feature flags
  flag('afk_enabled', true, 'AFK rewards'),
  flag('allow_coins_sharing', true, 'Coin gifts between users'),
  flag('allow_public_profiles', true, 'Public profiles'),
  flag('allow_servers', true, 'Server creation'),
  flag('allow_tickets', true, 'Support tickets'),
  flag('code_redemption_enabled', true, 'Redeem codes'),
  flag('credits_recharge_enabled', false, 'Buying credits'),
  flag('early_supporters_enabled', false, 'Early supporters'),
  flag('leaderboard_enabled', true, 'Leaderboard'),
  flag('referrals_enabled', true, 'Referrals'),
  flag('server_renew_enabled', false, 'Server renewal'),
  flag('store_enabled', false, 'Store'),
  flag('zero_trust_enabled', false, 'Zero trust'),
  // security (reference: force_2fa false): a user without 2FA is sent to set it up (user_info.two_fa_required)
  flag('force_2fa', false, 'Require two-factor authentication for every account'),
  // served by their own endpoints (GET /api/system/custom.css|custom.js|ga-ads), not in the public map
  { key: 'custom_css', type: 'text', default: '', public: false, secret: false, label: 'Custom CSS added to every page' },
  { key: 'custom_js', type: 'text', default: '', public: false, secret: false, label: 'Custom JavaScript added to every page' },
  str('google_ads_client_id', '', false, 'Google AdSense client id (ca-pub-…)'),
];

/** A setting is served to browsers only when declared public and not secret. */
export function isPublicSetting(setting: ManifestSetting): boolean {
  return setting.public === true && setting.secret !== true;
}
