// How buying coins is set up, read from the settings each time (an administrator's change applies
// at once): the currency (core settings), coins per currency unit and the payment limits (whole
// currency units, turned into minor units here), and each provider with its keys. A provider counts
// as set up only when it is switched on and has what it needs to be paid AND to confirm payments.
import type { PluginSettings } from '@orepanel/sdk/server';
import { currencyExponent, type PaymentProvider } from '../shared/money';
import { wholeSetting } from './store-rules';

export interface StripeSetup {
  apiUrl: string;
  secretKey: string;
  webhookSecret: string;
}

export interface PaypalSetup {
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** empty: webhooks are refused (captures still confirm payments) */
  webhookId: string;
}

export interface CreditsConfig {
  currency: string;
  currencySymbol: string;
  exponent: number;
  coinsPerUnit: number;
  minAmountMinor: number;
  maxAmountMinor: number;
  /** set up for new payments (switched on and complete), else null */
  stripe: StripeSetup | null;
  paypal: PaypalSetup | null;
  /**
   * The keys as they are, switched on or not: payments already made are still confirmed and
   * credited after an administrator switches a provider (or buying coins) off.
   */
  keys: { stripe: StripeSetup; paypal: PaypalSetup };
}

const KEYS = [
  'currency',
  'currency_symbol',
  'credits_coins_per_unit',
  'credits_min_amount',
  'credits_max_amount',
  'stripe_enabled',
  'stripe_secret_key',
  'stripe_webhook_secret',
  'stripe_api_url',
  'paypal_enabled',
  'paypal_client_id',
  'paypal_client_secret',
  'paypal_webhook_id',
  'paypal_api_url',
] as const;

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export async function readCreditsConfig(settings: PluginSettings): Promise<CreditsConfig> {
  const v = await settings.getMany(KEYS);
  const currency = /^[A-Za-z]{3}$/.test(text(v.currency)) ? text(v.currency).toUpperCase() : 'EUR';
  const exponent = currencyExponent(currency);
  const unit = 10 ** exponent;
  const minUnits = wholeSetting(v.credits_min_amount, 1, 1);
  const maxUnits = Math.max(wholeSetting(v.credits_max_amount, 500, 1), minUnits);
  const stripe: StripeSetup = { apiUrl: text(v.stripe_api_url), secretKey: text(v.stripe_secret_key), webhookSecret: text(v.stripe_webhook_secret) };
  const paypal: PaypalSetup = {
    apiUrl: text(v.paypal_api_url),
    clientId: text(v.paypal_client_id),
    clientSecret: text(v.paypal_client_secret),
    webhookId: text(v.paypal_webhook_id),
  };
  return {
    currency,
    currencySymbol: text(v.currency_symbol) || currency,
    exponent,
    coinsPerUnit: Math.min(wholeSetting(v.credits_coins_per_unit, 100, 1), 1_000_000),
    minAmountMinor: Math.min(minUnits, 100_000) * unit,
    maxAmountMinor: Math.min(maxUnits, 100_000) * unit,
    stripe: v.stripe_enabled === true && stripe.apiUrl && stripe.secretKey && stripe.webhookSecret ? stripe : null,
    paypal: v.paypal_enabled === true && paypal.apiUrl && paypal.clientId && paypal.clientSecret ? paypal : null,
    keys: { stripe, paypal },
  };
}

export function availableProviders(config: CreditsConfig): PaymentProvider[] {
  const list: PaymentProvider[] = [];
  if (config.stripe) list.push('stripe');
  if (config.paypal) list.push('paypal');
  return list;
}
