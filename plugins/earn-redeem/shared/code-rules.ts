// What a redeem code may be, shared by the API's checks and the forms, so the two never disagree.
// Codes are compared without regard to case (people retype them from a video or a Discord post):
// the stored key is the lower-cased code, unique; the code as the administrator typed it is shown.

/** letters, digits, - and _ (no spaces or look-alike Unicode: a code is read aloud and retyped) */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

export const REDEEM_CODE_LIMITS = {
  codeMinLength: 3,
  codeMaxLength: 64,
  /** coins one redemption gives */
  maxCoins: 1_000_000,
  /** redemptions a code allows in total */
  maxUses: 1_000_000,
} as const;

/** The comparison key of a code as someone typed it (surrounding spaces dropped), or null when it cannot be a code. */
export function codeKey(input: string): string | null {
  const code = input.trim();
  return CODE_PATTERN.test(code) ? code.toLowerCase() : null;
}

/** Why a code is not redeemable right now, in the order the API checks them. */
export type CodeState = 'active' | 'disabled' | 'expired' | 'used_up';

export interface CodeStateInput {
  enabled: boolean;
  uses: number;
  redeemed: number;
  /** ISO-8601, or null for a code that never expires */
  expires_at: string | null;
}

export function codeState(code: CodeStateInput, now: Date): CodeState {
  if (!code.enabled) return 'disabled';
  if (code.expires_at !== null && Date.parse(code.expires_at) <= now.getTime()) return 'expired';
  if (code.redeemed >= code.uses) return 'used_up';
  return 'active';
}
