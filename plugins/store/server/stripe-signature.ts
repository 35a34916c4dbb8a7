// Stripe webhook signatures (https://docs.stripe.com/webhooks#verify-manually): the Stripe-Signature
// header holds `t=<unix seconds>` and one or more `v1=<hex>`; v1 is HMAC-SHA256 of `<t>.<raw body>`
// keyed with the endpoint's signing secret. A timestamp outside the tolerance is refused too, so a
// captured delivery cannot be replayed later (Stripe's libraries use 300 seconds).
import { createHmac, timingSafeEqual } from 'node:crypto';

export const STRIPE_SIGNATURE_TOLERANCE_SECONDS = 300;

export type StripeSignatureProblem = 'missing' | 'malformed' | 'stale' | 'mismatch';

export function stripeSignature(secret: string, timestamp: number, payload: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${payload}`, 'utf8').digest('hex');
}

/** Why the delivery is not Stripe's, or null when the signature matches within the tolerance. */
export function checkStripeSignature(
  payload: string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
  toleranceSeconds = STRIPE_SIGNATURE_TOLERANCE_SECONDS,
): StripeSignatureProblem | null {
  if (!header) return 'missing';
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (name === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === null || signatures.length === 0) return 'malformed';
  // both ways: a timestamp far in the future is as suspect as an old one
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) return 'stale';
  const expected = Buffer.from(stripeSignature(secret, timestamp, payload), 'hex');
  const matches = signatures.some((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  return matches ? null : 'mismatch';
}
