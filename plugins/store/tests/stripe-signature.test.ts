// Stripe-Signature: HMAC-SHA256 of `t.payload` with the endpoint secret, any of several v1 values,
// within a tolerance either side of now.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkStripeSignature, STRIPE_SIGNATURE_TOLERANCE_SECONDS } from '../server/stripe-signature';

const secret = 'whsec_test_secret';
const payload = '{"id":"evt_1","type":"checkout.session.completed"}';
const now = 1_750_000_000;
const v1 = (t: number, body = payload, key = secret) => createHmac('sha256', key).update(`${t}.${body}`).digest('hex');

describe('Stripe webhook signatures', () => {
  it('accepts a matching v1 within the tolerance, also among other signatures (secret rotation)', () => {
    expect(checkStripeSignature(payload, `t=${now},v1=${v1(now)}`, secret, now)).toBeNull();
    expect(checkStripeSignature(payload, `t=${now},v1=${v1(now, payload, 'whsec_old')},v1=${v1(now)},v0=abc`, secret, now)).toBeNull();
    expect(checkStripeSignature(payload, `t=${now - STRIPE_SIGNATURE_TOLERANCE_SECONDS},v1=${v1(now - STRIPE_SIGNATURE_TOLERANCE_SECONDS)}`, secret, now)).toBeNull();
  });

  it('refuses what Stripe did not sign, or signed too long ago', () => {
    expect(checkStripeSignature(payload, undefined, secret, now)).toBe('missing');
    expect(checkStripeSignature(payload, `v1=${v1(now)}`, secret, now)).toBe('malformed');
    expect(checkStripeSignature(payload, `t=${now}`, secret, now)).toBe('malformed');
    expect(checkStripeSignature(payload, `t=${now},v1=nothex`, secret, now)).toBe('malformed');
    expect(checkStripeSignature(payload, `t=${now},v1=${v1(now, payload, 'whsec_other')}`, secret, now)).toBe('mismatch');
    expect(checkStripeSignature(`${payload} `, `t=${now},v1=${v1(now)}`, secret, now)).toBe('mismatch');
    // the timestamp is signed too: changing it breaks the signature
    expect(checkStripeSignature(payload, `t=${now + 1},v1=${v1(now)}`, secret, now)).toBe('mismatch');
    const old = now - STRIPE_SIGNATURE_TOLERANCE_SECONDS - 1;
    expect(checkStripeSignature(payload, `t=${old},v1=${v1(old)}`, secret, now)).toBe('stale');
    expect(checkStripeSignature(payload, `t=${now + 3600},v1=${v1(now + 3600)}`, secret, now)).toBe('stale');
  });
});
