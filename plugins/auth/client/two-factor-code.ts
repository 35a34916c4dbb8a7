// What the two-factor forms accept: a 6-digit code from the authenticator app, or a recovery code
// (xxxxx-xxxxx); spaces are allowed, as the server ignores them (plugins/auth/server/two-factor.ts).
export const TWO_FA_CODE_MAX_LENGTH = 24;
const CODE_PATTERN = /^[0-9A-Za-z -]{6,24}$/;

/** The code as sent: trimmed; null when it cannot be one. */
export function normaliseTwoFactorCode(input: string): string | null {
  const code = input.trim();
  return CODE_PATTERN.test(code) && code.replace(/[\s-]/g, '').length >= 6 ? code : null;
}

/** A base32 secret in groups of four, easier to type into an app by hand. */
export function groupSecret(secret: string): string {
  return secret.replace(/\s/g, '').replace(/(.{4})(?=.)/g, '$1 ');
}

/** spec §2: /auth/2fa/setup/disband sends the browser to this server path. */
export const TWO_FA_KILL_PATH = '/api/auth/2fa/setup/kill';
