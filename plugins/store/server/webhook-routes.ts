// The providers' webhooks — the only way a Stripe payment is credited. Both routes read the body as
// raw text (a signature covers the exact bytes sent; parsed and re-serialised JSON would not match),
// check that the provider sent it, and only then act. They carry no feature flag on purpose: a
// payment made before an administrator switched buying coins off is still credited.
//   Stripe:  POST /api/store/webhooks/stripe  (Stripe-Signature, HMAC-SHA256, 300 s tolerance)
//   PayPal:  POST /api/store/webhooks/paypal  (checked by PayPal's verify-webhook-signature API)
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { CreditOrders } from './credit-orders';
import { readCreditsConfig } from './credits-config';
import { PaypalApi, readCaptureResource } from './paypal-api';
import { captureAndSettle, settleCapture } from './paypal-payments';
import { isRecord, PaymentProviderError, stringField } from './provider-http';
import { checkStripeSignature } from './stripe-signature';

export const STRIPE_WEBHOOK_PATH = '/api/store/webhooks/stripe';
export const PAYPAL_WEBHOOK_PATH = '/api/store/webhooks/paypal';

/** Stripe events that mean "this Checkout Session is paid" (the second for delayed methods such as SEPA debit). */
const STRIPE_PAID_EVENTS = new Set(['checkout.session.completed', 'checkout.session.async_payment_succeeded']);

const received = { type: 'object', required: ['received'], properties: { received: { type: 'boolean' } } } as const;

const PAYPAL_HEADERS = ['paypal-transmission-id', 'paypal-transmission-time', 'paypal-transmission-sig', 'paypal-cert-url', 'paypal-auth-algo'] as const;

function parseEvent(raw: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(raw);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

export async function registerWebhookRoutes(app: FastifyInstance, ctx: ServerPluginContext, orders: CreditOrders): Promise<void> {
  const { httpError, log } = ctx;

  // a scope of its own, so only these two routes see the raw body
  await app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    const rawBody = { type: 'string', minLength: 2, maxLength: 512 * 1024 } as const;

    scope.post<{ Body: string }>('/store/webhooks/stripe', { schema: { body: rawBody, response: { 200: received } } }, async (request) => {
      const { stripe } = (await readCreditsConfig(ctx.settings)).keys;
      // a 5xx makes Stripe deliver again later, once an administrator has entered the secret
      if (!stripe.webhookSecret) throw httpError(503, 'WEBHOOK_NOT_CONFIGURED', 'Stripe webhooks are not set up on this panel.');
      const problem = checkStripeSignature(request.body, header(request, 'stripe-signature'), stripe.webhookSecret, Math.floor(Date.now() / 1000));
      if (problem) {
        log.warn({ problem, ip: request.ip }, 'refused a Stripe webhook whose signature does not hold');
        throw httpError(400, 'INVALID_SIGNATURE', problem === 'stale' ? 'The signature is too old.' : 'The signature does not match.');
      }
      const event = parseEvent(request.body);
      if (!event) throw httpError(400, 'INVALID_PAYLOAD', 'The event is not a JSON object.');
      const type = stringField(event, 'type');
      const session = isRecord(event.data) ? event.data.object : null;
      if (!type || !STRIPE_PAID_EVENTS.has(type) || !isRecord(session)) return { received: true };

      const sessionId = stringField(session, 'id');
      const orderId = stringField(session.metadata, 'order_id') ?? stringField(session, 'client_reference_id');
      const order = orderId ? await orders.byPublicId(orderId) : null;
      if (!sessionId || !order || order.provider !== 'stripe' || (order.provider_ref !== null && order.provider_ref !== sessionId)) {
        // another shop on the same Stripe account, or a test event: not ours to credit
        log.info({ event: stringField(event, 'id'), sessionId, orderId }, 'Stripe event for no order of this panel');
        return { received: true };
      }
      const paymentStatus = stringField(session, 'payment_status') ?? 'unknown';
      // checkout.session.completed of a delayed method says "unpaid": the money comes with a later event
      if (paymentStatus !== 'paid') {
        await orders.noteProviderStatus(order, paymentStatus);
        return { received: true };
      }
      const currency = stringField(session, 'currency')?.toUpperCase();
      if (session.amount_total !== order.amount_minor || currency !== order.currency) {
        log.error({ order: order.public_id, sessionId, amount: session.amount_total, currency }, 'Stripe charged another amount than the order sells; not credited');
        await orders.noteProviderStatus(order, 'amount_mismatch');
        return { received: true };
      }
      await orders.credit(order, sessionId, paymentStatus);
      return { received: true };
    });

    scope.post<{ Body: string }>('/store/webhooks/paypal', { schema: { body: rawBody, response: { 200: received } } }, async (request) => {
      const { paypal } = (await readCreditsConfig(ctx.settings)).keys;
      if (!paypal.webhookId || !paypal.apiUrl || !paypal.clientId || !paypal.clientSecret) {
        throw httpError(503, 'WEBHOOK_NOT_CONFIGURED', 'PayPal webhooks are not set up on this panel.');
      }
      const values = PAYPAL_HEADERS.map((name) => header(request, name));
      const [transmissionId, transmissionTime, transmissionSig, certUrl, authAlgo] = values;
      if (!transmissionId || !transmissionTime || !transmissionSig || !certUrl || !authAlgo) {
        throw httpError(400, 'INVALID_SIGNATURE', 'The PayPal transmission headers are missing.');
      }
      const event = parseEvent(request.body);
      if (!event) throw httpError(400, 'INVALID_PAYLOAD', 'The event is not a JSON object.');
      const api = new PaypalApi(paypal.apiUrl, paypal.clientId, paypal.clientSecret);
      let genuine: boolean;
      try {
        genuine = await api.verifyWebhookSignature(paypal.webhookId, { transmissionId, transmissionTime, transmissionSig, certUrl, authAlgo }, request.body);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error({ err: error }, 'PayPal could not verify a webhook; it will deliver again');
        throw httpError(502, 'PAYMENT_PROVIDER_ERROR', 'The webhook could not be verified right now.');
      }
      if (!genuine) {
        log.warn({ ip: request.ip, transmissionId }, 'refused a PayPal webhook PayPal did not vouch for');
        throw httpError(400, 'INVALID_SIGNATURE', 'The signature does not match.');
      }

      const type = stringField(event, 'event_type');
      const resource = event.resource;
      let outcome: string | null = null;
      try {
        if (type === 'CHECKOUT.ORDER.APPROVED') {
          // the buyer approved but may never come back to our page: capture now
          const paypalOrderId = stringField(resource, 'id');
          const order = paypalOrderId ? await orders.byProviderRef('paypal', paypalOrderId) : null;
          if (order && order.status !== 'credited') outcome = await captureAndSettle(api, orders, log, order);
        } else if (type === 'PAYMENT.CAPTURE.COMPLETED' || type === 'PAYMENT.CAPTURE.DENIED' || type === 'PAYMENT.CAPTURE.DECLINED') {
          const capture = readCaptureResource(resource);
          const order = capture?.orderId ? await orders.byProviderRef('paypal', capture.orderId) : capture?.customId ? await orders.byPublicId(capture.customId) : null;
          if (capture && order && order.provider === 'paypal' && order.provider_ref) outcome = await settleCapture(orders, log, order, order.provider_ref, capture);
        }
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error({ err: error }, 'PayPal request failed while handling a webhook; it will deliver again');
        throw httpError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment could not be settled right now.');
      }
      if (outcome === null) log.info({ type, event: stringField(event, 'id') }, 'PayPal event needs nothing from this panel');
      return { received: true };
    });
  });
}
