// The gift rules (reference: min 1, max 100 coins, fee 10 % paid by the sender on top), shared by the
// API and the page, so the fee the page shows while typing is the fee the server charges.

export interface GiftRules {
  /** smallest gift in coins */
  min: number;
  /** largest gift in coins */
  max: number;
  /** the fee as a percentage of the gift, paid by the sender on top of it */
  feePercent: number;
}

/**
 * The fee on a gift: `feePercent` of the amount, rounded UP to a whole coin, so a fee is never
 * rounded away by splitting a gift into small ones. Computed in hundredths of a percent with
 * integers only (no floating-point drift: 10 % of 30 is 3, not 3.0000000000000004 → 4).
 */
export function giftFee(amount: number, feePercent: number): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) return 0;
  const basisPoints = Math.round(Math.min(Math.max(feePercent, 0), 100) * 100);
  return Math.floor((amount * basisPoints + 9999) / 10000);
}

export type GiftAmountProblem = 'whole' | 'min' | 'max';

/** Why `amount` cannot be gifted under `rules`, or null when it can. */
export function giftAmountProblem(amount: number, rules: GiftRules): GiftAmountProblem | null {
  if (!Number.isSafeInteger(amount) || amount < 1) return 'whole';
  if (amount < rules.min) return 'min';
  if (amount > rules.max) return 'max';
  return null;
}
