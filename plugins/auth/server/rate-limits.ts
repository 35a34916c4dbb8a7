// The auth plugin's rate limits (route option `config: { rateLimit }`), counted per client IP and
// per account in the window of the core's rate_limit_auth_window_seconds; the limits are this
// plugin's settings (plugin.json). The counting, the refusal and the known-browser budget are the
// core's (server/security/rate-limit-policies.ts).
//
// Lockout without locking out the owner: a login (or reset request) from a browser that has signed
// in to the account before is counted on that browser's own budget (`knownDevice`) only, so strangers
// burning the per-account and per-IP budgets slow every stranger but never the owner's browser.
import type { RateLimitPolicy } from '@orepanel/sdk/server';

export const AUTH_RATE_LIMIT_POLICIES: Readonly<Record<string, RateLimitPolicy>> = {
  // login by name or e-mail, a provider's sign-in callback, an /auth/sso token
  'auth.login': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_login_per_ip' },
      { by: 'account', setting: 'rate_limit_login_per_account' },
    ],
    account: { bodyField: 'login' },
    knownDevice: { setting: 'rate_limit_login_per_device' },
  },
  'auth.register': { scopes: [{ by: 'ip', setting: 'rate_limit_register_per_ip' }] },
  // strangers asking reset mails for an account must not stop its owner's browser from asking one;
  // the two-factor policy gets no such budget: anyone holding the password could mint known browsers
  'auth.forgot': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_forgot_per_ip' },
      { by: 'account', setting: 'rate_limit_forgot_per_account' },
    ],
    account: { bodyField: 'email' },
    knownDevice: { setting: 'rate_limit_forgot_per_device' },
  },
  'auth.2fa': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_2fa_per_ip' },
      { by: 'account', setting: 'rate_limit_2fa_per_account' },
    ],
    account: { session: true },
  },
  'auth.verify': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_verify_per_ip' },
      { by: 'account', setting: 'rate_limit_verify_per_account' },
    ],
    account: { session: true },
  },
};
