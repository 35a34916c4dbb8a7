// Stripe Checkout through Stripe's HTTP API (https://docs.stripe.com/api/checkout/sessions/create):
// a form-encoded POST /v1/checkout/sessions with the secret key as a bearer token. The order's id
// goes into client_reference_id and metadata so the webhook can find the order, and into the
// Idempotency-Key header so a retried request never opens a second session for one order.
import { apiUrl, isRecord, PaymentProviderError, providerRequest, stringField } from './provider-http';

export interface CheckoutSessionRequest {
  orderId: string;
  amountMinor: number;
  /** ISO 4217 (sent lower case, as Stripe writes it) */
  currency: string;
  /** the line's name on Stripe's page, e.g. "500 coins" */
  productName: string;
  successUrl: string;
  cancelUrl: string;
  customerEmail: string | null;
}

export interface CheckoutSession {
  id: string;
  /** Stripe's hosted payment page */
  url: string;
}

/** Stripe's error body: { error: { type, code?, message, param? } }. */
function stripeErrorText(status: number, body: unknown): string {
  const error = isRecord(body) ? body.error : null;
  const type = stringField(error, 'type') ?? 'unknown';
  const message = stringField(error, 'message') ?? 'no message';
  const param = stringField(error, 'param');
  return `Stripe answered HTTP ${status} (${type}${param ? `, param ${param}` : ''}): ${message}`;
}

export class StripeApi {
  constructor(
    private readonly baseUrl: string,
    private readonly secretKey: string,
  ) {}

  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const form = new URLSearchParams({
      mode: 'payment',
      success_url: request.successUrl,
      cancel_url: request.cancelUrl,
      client_reference_id: request.orderId,
      'metadata[order_id]': request.orderId,
      'line_items[0][quantity]': '1',
      'line_items[0][price_data][currency]': request.currency.toLowerCase(),
      'line_items[0][price_data][unit_amount]': String(request.amountMinor),
      'line_items[0][price_data][product_data][name]': request.productName,
    });
    if (request.customerEmail) form.set('customer_email', request.customerEmail);
    const answer = await providerRequest('stripe', apiUrl(this.baseUrl, '/v1/checkout/sessions'), {
      method: 'POST',
      headers: {
        authorization: `Bearer ${this.secretKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': `checkout-${request.orderId}`,
      },
      body: form.toString(),
    });
    if (answer.status !== 200) throw new PaymentProviderError('stripe', answer.status, stripeErrorText(answer.status, answer.body));
    const id = stringField(answer.body, 'id');
    const url = stringField(answer.body, 'url');
    if (!id || !url) throw new PaymentProviderError('stripe', answer.status, 'Stripe answered a Checkout Session without id or url');
    return { id, url };
  }
}
