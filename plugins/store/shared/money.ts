// Money for buying coins: amounts are integers in the currency's minor unit (cents for EUR), never
// floating point, so 0.1 + 0.2 never decides how many coins somebody gets. Shared by the page (what
// the user will get) and the server (what is charged and credited), so the two always agree.

// ISO 4217 minor-unit exponents that are not 2 (what Stripe and PayPal expect amounts in).
const ZERO_DECIMAL = new Set(['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF']);
const THREE_DECIMAL = new Set(['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND']);

/** Digits after the decimal point of `currency` (EUR 2, JPY 0, KWD 3). */
export function currencyExponent(currency: string): number {
  const code = currency.trim().toUpperCase();
  if (ZERO_DECIMAL.has(code)) return 0;
  if (THREE_DECIMAL.has(code)) return 3;
  return 2;
}

/**
 * A typed amount ("5", "5.5", "5,50") in minor units, or null when it is not a plain non-negative
 * number with at most `exponent` decimals (or too large to count exactly).
 */
export function parseMoney(text: string, exponent: number, options: { allowComma?: boolean } = {}): number | null {
  const trimmed = text.trim();
  const pattern = options.allowComma === false ? /^(\d+)(?:\.(\d+))?$/ : /^(\d+)(?:[.,](\d+))?$/;
  const match = pattern.exec(trimmed);
  if (!match) return null;
  const [, whole, fraction = ''] = match;
  if (fraction.length > exponent) return null;
  const minor = BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction.padEnd(exponent, '0') || '0');
  return minor <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(minor) : null;
}

/** Minor units as a decimal text ("5.50"), the form PayPal's amounts and the page use. */
export function formatMinor(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`formatMinor: ${minor} is not a whole non-negative amount`);
  if (exponent === 0) return String(minor);
  const text = String(minor).padStart(exponent + 1, '0');
  return `${text.slice(0, -exponent)}.${text.slice(-exponent)}`;
}

/** Whole coins an amount buys at `coinsPerUnit` coins per currency unit (rounded down). */
export function coinsForAmount(amountMinor: number, coinsPerUnit: number, exponent: number): number {
  const coins = (BigInt(amountMinor) * BigInt(coinsPerUnit)) / 10n ** BigInt(exponent);
  return coins <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(coins) : Number.MAX_SAFE_INTEGER;
}

/** What GET /api/user/store/credits answers: how buying coins works on this panel. */
export interface CreditsOptions {
  currency: string;
  currency_symbol: string;
  /** digits after the decimal point of the currency */
  exponent: number;
  coins_per_unit: number;
  /** the smallest and largest payment, in minor units */
  min_amount_minor: number;
  max_amount_minor: number;
  /** the payment providers an administrator set up */
  providers: PaymentProvider[];
}

export const PAYMENT_PROVIDERS = ['stripe', 'paypal'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export type CreditOrderStatus = 'created' | 'open' | 'credited' | 'failed';

/** One purchase of coins as the buyer sees it. */
export interface CreditOrderView {
  id: string;
  provider: PaymentProvider;
  status: CreditOrderStatus;
  amount_minor: number;
  currency: string;
  coins: number;
  created_at: string;
  credited_at: string | null;
}

export interface CheckoutResponse {
  order: CreditOrderView;
  /** the provider's payment page */
  redirect_url: string;
}
