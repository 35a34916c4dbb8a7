// What a referral code looks like, for the server (making and reading codes) and the page (the link).
// Codes are upper-case letters and digits without the ones people mix up (0/O, 1/I/L); a typed or
// pasted code is read case-insensitively.

export const REFERRAL_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const REFERRAL_CODE_LENGTH = 8;
/** codes are read up to this length (longer text cannot be a code) */
const MAX_READ_LENGTH = 16;
const READABLE = /^[A-Z0-9]{4,16}$/;

/** The code `typed` names (trimmed, upper-cased), or null when it cannot be a code. */
export function normalizeReferralCode(typed: string): string | null {
  const code = typed.trim().toUpperCase();
  return code.length <= MAX_READ_LENGTH && READABLE.test(code) ? code : null;
}

/** The registration address that carries `code` (the register page reads ?ref=). */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/auth/register?ref=${encodeURIComponent(code)}`;
}
