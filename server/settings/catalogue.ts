// The core application settings: every spec §3 key plus the core's own, with the reference
// defaults (shared/research/reference-behaviour.md). `public` is explicit for each: only public keys
// reach browsers through GET /api/system/settings; a secret is never public. `rootOnly` marks what
// only admin.root may change: code served to every browser, and every address that decides where
// links, requests and the secrets sent with them go (a script in custom_js, or an attacker's
// app_url in reset links, would otherwise turn admin.settings.edit into admin.root).
//
// A feature's settings are its plugin's (plugin.json `settings`; the panel-wide ones with a `group`
// are shown on the settings screen all the same): the feature flags, the servers plugin's renewal
// price and length, the auth plugin's captcha and sign-in providers.
import { LANGUAGES, type ManifestSetting } from '../../sdk/types';

const str = (key: string, def: string, isPublic: boolean, label: string): ManifestSetting => ({ key, type: 'string', default: def, public: isPublic, secret: false, label });
const num = (key: string, def: number, label: string, min = 0): ManifestSetting => ({ key, type: 'number', default: def, public: true, secret: false, label, min });
const flag = (key: string, def: boolean, label: string): ManifestSetting => ({ key, type: 'boolean', default: def, public: true, secret: false, label });

export const CORE_SETTINGS: readonly ManifestSetting[] = [
  // spec §3 General
  str('app_name', 'Orepanel', true, 'Application name'),
  { key: 'app_lang', type: 'select', default: 'en', options: [...LANGUAGES], public: true, secret: false, label: 'Default language' },
  str('app_timezone', 'UTC', true, 'Time zone'),
  { key: 'app_url', type: 'url', default: '', public: true, secret: false, label: 'Public address of the panel', rootOnly: true },
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
  // spec §3 Server defaults: the resources every new account starts with (server_renew_days and
  // server_renew_cost are the servers plugin's)
  num('default_cpu', 100, 'CPU (%) given at sign-up'),
  num('default_ram', 1024, 'Memory (MiB) given at sign-up'),
  num('default_disk', 1024, 'Disk (MiB) given at sign-up'),
  num('default_ports', 2, 'Ports given at sign-up'),
  num('default_databases', 1, 'Databases given at sign-up'),
  num('default_backups', 5, 'Backups given at sign-up'),
  num('default_server_slots', 1, 'Server slots given at sign-up'),
  // spec §3 Feature flags: each is declared by the plugin of its feature (plugin.json, group
  // features: afk_enabled by earn-afk, store_enabled by store, allow_tickets by tickets…); these two
  // are the core's: early supporters are shown by two plugins (profiles, leaderboard through the sdk's
  // earlySupporters()), zero trust is checked by the core's sessions (server/auth/sessions.ts)
  flag('early_supporters_enabled', false, 'Early Supporter badges for the first accounts'),
  // reference: early_supporters_amount 100
  {
    key: 'early_supporters_amount',
    type: 'number',
    default: 100,
    public: false,
    secret: false,
    label: 'How many of the first accounts are early supporters',
    min: 1,
    max: 1_000_000,
  },
  flag('zero_trust_enabled', false, 'Zero trust: sessions only from the browser that signed in'),
  // security (reference: force_2fa false): a user without 2FA is sent to set it up (user_info.two_fa_required)
  flag('force_2fa', false, 'Require two-factor authentication for every account'),
  // security: anti-abuse (reference: block_vpn, block_alts false). Matching sign-ins flag the account
  // for an administrator to review; nobody is banned by a heuristic (server/security/abuse-screen.ts).
  { key: 'block_vpn', type: 'boolean', default: false, public: false, secret: false, label: 'Flag sign-ups and logins from VPN or proxy addresses for review' },
  { key: 'vpn_check_url', type: 'url', default: 'https://proxycheck.io/v2', public: false, secret: false, label: 'VPN checker address (proxycheck.io v2 API)', rootOnly: true },
  { key: 'vpn_check_api_key', type: 'string', default: '', public: false, secret: true, label: 'VPN checker API key' },
  {
    key: 'block_alts',
    type: 'boolean',
    default: false,
    public: false,
    secret: false,
    label: 'Flag accounts that share a browser or an IP address with another account for review',
  },
  {
    key: 'alt_ip_window_hours',
    type: 'number',
    default: 24,
    public: false,
    secret: false,
    label: 'Hours within which sign-ins from one IP address link accounts',
    min: 1,
    max: 8760,
  },
  {
    key: 'alt_device_window_days',
    type: 'number',
    default: 90,
    public: false,
    secret: false,
    label: 'Days within which sign-ins from one browser link accounts',
    min: 1,
    max: 400,
  },
  // served by their own endpoints (GET /api/system/custom.css|custom.js|ga-ads), not in the public map
  { key: 'custom_css', type: 'text', default: '', public: false, secret: false, label: 'Custom CSS added to every page', rootOnly: true },
  { key: 'custom_js', type: 'text', default: '', public: false, secret: false, label: 'Custom JavaScript added to every page', rootOnly: true },
  // spec §1 ads: off by default (reference: google_ads_enabled false); while off, GET /api/system/ga-ads
  // answers 404 and browsers load nothing of the provider. Public: the kernel skips the request.
  { key: 'google_ads_enabled', type: 'boolean', default: false, public: true, secret: false, label: 'Show ads to visitors' },
  str('google_ads_client_id', '', false, 'Google AdSense client id (ca-pub-…)'),
  // the host's Pterodactyl panel (ctx.pterodactyl, server/pterodactyl/): its address and an
  // application key (ptla_…) of a root admin; the key is write-only and stored sealed. The key is
  // root-only too: it is root on the game-server host (every node, server and account there), so
  // choosing it (or clearing it, which stops every build) goes with choosing where it is sent.
  { key: 'pterodactyl_base_url', type: 'url', default: '', public: false, secret: false, label: 'Pterodactyl panel address (e.g. https://panel.example.com)', rootOnly: true },
  { key: 'pterodactyl_api_key', type: 'string', default: '', public: false, secret: true, label: 'Pterodactyl application API key (ptla_…)', max: 255, rootOnly: true },
];

/** A setting is served to browsers only when declared public and not secret. */
export function isPublicSetting(setting: ManifestSetting): boolean {
  return setting.public === true && setting.secret !== true;
}
