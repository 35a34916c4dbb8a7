// The core application settings: every spec §3 key plus the core's own, with the reference
// defaults (shared/research/reference-behaviour.md). `public` is explicit for each: only public keys
// reach browsers through GET /api/system/settings; a secret is never public. `rootOnly` marks what
// only admin.root may change: code served to every browser, and every address that decides where
// links, requests and the secrets sent with them go (a script in custom_js, or an attacker's
// app_url in reset links, would otherwise turn admin.settings.edit into admin.root).
import { LANGUAGES, type ManifestSetting } from '../../sdk/types';

/** Cloudflare's token check (https://developers.cloudflare.com/turnstile/get-started/server-side-validation/) */
export const TURNSTILE_SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

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
  flag('credits_recharge_enabled', false, 'Buying credits'),
  flag('early_supporters_enabled', false, 'Early supporters'),
  flag('leaderboard_enabled', true, 'Leaderboard'),
  flag('referrals_enabled', true, 'Referrals'),
  flag('server_renew_enabled', false, 'Server renewal'),
  flag('store_enabled', false, 'Store'),
  flag('zero_trust_enabled', false, 'Zero trust'),
  // security (reference: force_2fa false): a user without 2FA is sent to set it up (user_info.two_fa_required)
  flag('force_2fa', false, 'Require two-factor authentication for every account'),
  // security: Cloudflare Turnstile (reference: captcha off by default). Register, login and forgot
  // password then need a token the server checks with siteverify. The site key is public (the widget
  // needs it), the secret key write-only; the verify address is a setting so tests use a stand-in.
  flag('captcha_enabled', false, 'Require a captcha (Cloudflare Turnstile) to register, log in and reset a password'),
  str('turnstile_site_key', '', true, 'Turnstile site key'),
  { key: 'turnstile_secret_key', type: 'string', default: '', public: false, secret: true, label: 'Turnstile secret key' },
  { key: 'turnstile_verify_url', type: 'url', default: TURNSTILE_SITEVERIFY_URL, public: false, secret: false, label: 'Turnstile siteverify address', rootOnly: true },
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
  str('google_ads_client_id', '', false, 'Google AdSense client id (ca-pub-…)'),
  // sign-in with Discord / GitHub (reference: discord_*, github_*; the auth plugin's oauth.ts). The
  // login page shows a provider's button when it is on and has a client id (both public: the id is
  // in the authorize address anyway); the secret is write-only. The addresses are settings so a
  // GitHub Enterprise server — or a local stand-in in tests — can take the real services' place.
  flag('discord_enabled', false, 'Sign-in and account linking with Discord'),
  str('discord_client_id', '', true, 'Discord application client id'),
  { key: 'discord_client_secret', type: 'string', default: '', public: false, secret: true, label: 'Discord application client secret' },
  {
    key: 'discord_base_url',
    type: 'url',
    default: 'https://discord.com',
    public: false,
    secret: false,
    label: 'Discord address (authorize, token and user endpoints)',
    rootOnly: true,
  },
  flag('github_enabled', false, 'Sign-in and account linking with GitHub'),
  str('github_client_id', '', true, 'GitHub OAuth app client id'),
  { key: 'github_client_secret', type: 'string', default: '', public: false, secret: true, label: 'GitHub OAuth app client secret' },
  { key: 'github_base_url', type: 'url', default: 'https://github.com', public: false, secret: false, label: 'GitHub address (authorize and token endpoints)', rootOnly: true },
  { key: 'github_api_url', type: 'url', default: 'https://api.github.com', public: false, secret: false, label: 'GitHub API address (user endpoint)', rootOnly: true },
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
