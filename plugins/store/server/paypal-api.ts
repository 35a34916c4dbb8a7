// PayPal's REST API (Orders v2, https://developer.paypal.com/docs/api/orders/v2/): an OAuth2
// client-credentials token, create an order (the buyer approves it on PayPal's page), capture it
// (the money moves), read it back, and ask PayPal whether a webhook delivery is genuine
// (POST /v1/notifications/verify-webhook-signature). Requests that change something carry a
// PayPal-Request-Id derived from our order, so a retry never creates or captures twice.
import { createHash } from 'node:crypto';
import { apiUrl, isRecord, PaymentProviderError, providerRequest, stringField } from './provider-http';

/** What the buyer approved and what was captured, as far as the store needs it. */
export interface PaypalOrderState {
  id: string;
  /** CREATED, PAYER_ACTION_REQUIRED, APPROVED, COMPLETED, VOIDED… */
  status: string;
  /** our order id (purchase_units[0].custom_id) */
  customId: string | null;
  capture: PaypalCapture | null;
}

export interface PaypalCapture {
  id: string;
  /** COMPLETED, PENDING, DECLINED, FAILED… */
  status: string;
  currency: string;
  /** as PayPal writes it: "5.00" */
  value: string;
}

export interface PaypalOrderRequest {
  orderId: string;
  /** the amount as PayPal writes it ("5.00") */
  value: string;
  currency: string;
  description: string;
  returnUrl: string;
  cancelUrl: string;
  brandName: string;
}

/** The webhook transmission headers PayPal signs a delivery with. */
export interface PaypalTransmission {
  authAlgo: string;
  certUrl: string;
  transmissionId: string;
  transmissionSig: string;
  transmissionTime: string;
}

/** PayPal's error body: { name, message, details: [{ issue, description }], debug_id } (OAuth: { error, error_description }). */
export function paypalIssue(body: unknown): string | null {
  const details = isRecord(body) && Array.isArray(body.details) ? body.details : [];
  return stringField(details[0], 'issue') ?? stringField(body, 'name') ?? stringField(body, 'error');
}

function paypalErrorText(status: number, body: unknown): string {
  const message = stringField(body, 'message') ?? stringField(body, 'error_description') ?? 'no message';
  return `PayPal answered HTTP ${status} (${paypalIssue(body) ?? 'unknown'}; debug id ${stringField(body, 'debug_id') ?? '-'}): ${message}`;
}

function readCapture(value: unknown): PaypalCapture | null {
  const amount = isRecord(value) ? value.amount : null;
  const id = stringField(value, 'id');
  const status = stringField(value, 'status');
  const currency = stringField(amount, 'currency_code');
  const amountValue = stringField(amount, 'value');
  return id && status && currency && amountValue ? { id, status, currency, value: amountValue } : null;
}

function readOrder(body: unknown): PaypalOrderState {
  const id = stringField(body, 'id');
  const status = stringField(body, 'status');
  if (!id || !status) throw new PaymentProviderError('paypal', 200, 'PayPal answered an order without id or status');
  const unit = isRecord(body) && Array.isArray(body.purchase_units) ? body.purchase_units[0] : null;
  const payments = isRecord(unit) ? unit.payments : null;
  const captures = isRecord(payments) && Array.isArray(payments.captures) ? payments.captures : [];
  return { id, status, customId: stringField(unit, 'custom_id'), capture: readCapture(captures[0]) };
}

/** A capture as a PAYMENT.CAPTURE.* webhook carries it, with the order it belongs to. */
export function readCaptureResource(resource: unknown): (PaypalCapture & { orderId: string | null; customId: string | null }) | null {
  const capture = readCapture(resource);
  if (!capture) return null;
  const supplementary = isRecord(resource) ? resource.supplementary_data : null;
  const related = isRecord(supplementary) ? supplementary.related_ids : null;
  return { ...capture, orderId: stringField(related, 'order_id'), customId: stringField(resource, 'custom_id') };
}

interface CachedToken {
  token: string;
  expiresAt: number;
}

// tokens live about nine hours; one per API address and credentials, shared by every request
const tokens = new Map<string, CachedToken>();

export class PaypalApi {
  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
  ) {}

  private get cacheKey(): string {
    return createHash('sha256').update(`${this.baseUrl}\n${this.clientId}\n${this.clientSecret}`).digest('hex');
  }

  private async accessToken(): Promise<string> {
    const cached = tokens.get(this.cacheKey);
    if (cached && cached.expiresAt > Date.now()) return cached.token;
    const answer = await providerRequest('paypal', apiUrl(this.baseUrl, '/v1/oauth2/token'), {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
      },
      body: 'grant_type=client_credentials',
    });
    const token = stringField(answer.body, 'access_token');
    if (answer.status !== 200 || !token) throw new PaymentProviderError('paypal', answer.status, paypalErrorText(answer.status, answer.body));
    const lifetime = isRecord(answer.body) && typeof answer.body.expires_in === 'number' ? answer.body.expires_in : 300;
    // renewed a minute early, so a token never expires between our check and PayPal's
    tokens.set(this.cacheKey, { token, expiresAt: Date.now() + Math.max(lifetime - 60, 0) * 1000 });
    return token;
  }

  private async call(method: 'GET' | 'POST', path: string, body?: string, requestId?: string) {
    const headers: Record<string, string> = { authorization: `Bearer ${await this.accessToken()}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (requestId) headers['paypal-request-id'] = requestId;
    const answer = await providerRequest('paypal', apiUrl(this.baseUrl, path), { method, headers, body });
    // a token PayPal revoked early: forget it, the next request fetches a new one
    if (answer.status === 401) tokens.delete(this.cacheKey);
    return answer;
  }

  /** Creates the order; returns PayPal's order id and the page where the buyer approves it. */
  async createOrder(request: PaypalOrderRequest): Promise<{ id: string; approveUrl: string }> {
    const body = {
      intent: 'CAPTURE',
      purchase_units: [
        {
          reference_id: request.orderId,
          custom_id: request.orderId,
          description: request.description,
          amount: { currency_code: request.currency.toUpperCase(), value: request.value },
        },
      ],
      payment_source: {
        paypal: {
          experience_context: {
            brand_name: request.brandName.slice(0, 127),
            user_action: 'PAY_NOW',
            shipping_preference: 'NO_SHIPPING',
            return_url: request.returnUrl,
            cancel_url: request.cancelUrl,
          },
        },
      },
    };
    const answer = await this.call('POST', '/v2/checkout/orders', JSON.stringify(body), `create-${request.orderId}`);
    if (answer.status !== 200 && answer.status !== 201) throw new PaymentProviderError('paypal', answer.status, paypalErrorText(answer.status, answer.body));
    const id = stringField(answer.body, 'id');
    const links = isRecord(answer.body) && Array.isArray(answer.body.links) ? answer.body.links : [];
    // with payment_source the buyer's link is rel "payer-action"; the older application_context gave "approve"
    const approve = links.find((link) => ['payer-action', 'approve'].includes(stringField(link, 'rel') ?? ''));
    const approveUrl = stringField(approve, 'href');
    if (!id || !approveUrl) throw new PaymentProviderError('paypal', answer.status, 'PayPal answered an order without id or approval link');
    return { id, approveUrl };
  }

  /**
   * Captures an approved order. Resolves the order's state, or null when the buyer has not approved
   * it (yet). An order captured before (by another request) is read back instead.
   */
  async captureOrder(paypalOrderId: string, requestId: string): Promise<PaypalOrderState | null> {
    const path = `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`;
    const answer = await this.call('POST', `${path}/capture`, '{}', requestId);
    if (answer.status === 200 || answer.status === 201) return readOrder(answer.body);
    const issue = paypalIssue(answer.body);
    if (answer.status === 422 && issue === 'ORDER_NOT_APPROVED') return null;
    if (answer.status === 422 && issue === 'ORDER_ALREADY_CAPTURED') return this.getOrder(paypalOrderId);
    throw new PaymentProviderError('paypal', answer.status, paypalErrorText(answer.status, answer.body));
  }

  async getOrder(paypalOrderId: string): Promise<PaypalOrderState> {
    const answer = await this.call('GET', `/v2/checkout/orders/${encodeURIComponent(paypalOrderId)}`);
    if (answer.status !== 200) throw new PaymentProviderError('paypal', answer.status, paypalErrorText(answer.status, answer.body));
    return readOrder(answer.body);
  }

  /**
   * Asks PayPal whether a webhook delivery is genuine. `rawEvent` goes into the request exactly as it
   * arrived: PayPal checks the signature over the body it sent, and re-serialising could change it.
   */
  async verifyWebhookSignature(webhookId: string, transmission: PaypalTransmission, rawEvent: string): Promise<boolean> {
    const head = JSON.stringify({
      auth_algo: transmission.authAlgo,
      cert_url: transmission.certUrl,
      transmission_id: transmission.transmissionId,
      transmission_sig: transmission.transmissionSig,
      transmission_time: transmission.transmissionTime,
      webhook_id: webhookId,
    });
    const body = `${head.slice(0, -1)},"webhook_event":${rawEvent}}`;
    const answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', body);
    if (answer.status !== 200) throw new PaymentProviderError('paypal', answer.status, paypalErrorText(answer.status, answer.body));
    return stringField(answer.body, 'verification_status') === 'SUCCESS';
  }
}
