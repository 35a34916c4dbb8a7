// /store/add-credits API: how buying coins works here, start a payment (an order row, then the
// provider's payment page), read an order, and — for PayPal — capture the order the buyer approved.
// Nothing here credits coins on the buyer's word: Stripe payments are credited by the webhook
// (webhook-routes.ts), PayPal ones by PayPal's answer to our own capture call.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerPluginContext, SessionUser } from '@orepanel/sdk/server';
import { coinsForAmount, formatMinor, PAYMENT_PROVIDERS, type CheckoutResponse, type CreditOrderView, type CreditsOptions, type PaymentProvider } from '../shared/money';
import { orderView, type CreditOrder, type CreditOrders } from './credit-orders';
import { availableProviders, readCreditsConfig, type CreditsConfig } from './credits-config';
import { PaypalApi } from './paypal-api';
import { captureAndSettle } from './paypal-payments';
import { PaymentProviderError } from './provider-http';
import { signedInUser } from './signed-in-user';
import { StripeApi } from './stripe-api';

/** At most this many payments started per user and hour: each one opens a session at the provider. */
export const ORDERS_PER_HOUR = 10;
/** The wallet's limit for one movement (server/wallet MAX_MOVEMENT). */
export const MAX_COINS_PER_PAYMENT = 1_000_000_000;

const orderSchema = {
  type: 'object',
  required: ['id', 'provider', 'status', 'amount_minor', 'currency', 'coins', 'created_at', 'credited_at'],
  properties: {
    id: { type: 'string' },
    provider: { type: 'string' },
    status: { type: 'string' },
    amount_minor: { type: 'integer' },
    currency: { type: 'string' },
    coins: { type: 'integer' },
    created_at: { type: 'string' },
    credited_at: { type: ['string', 'null'] },
  },
} as const;

const orderParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', pattern: '^co_[A-Za-z0-9_-]{10,36}$' } },
} as const;

interface CheckoutBody {
  provider: PaymentProvider;
  amount_minor: number;
}

export function registerCreditsRoutes(app: FastifyInstance, ctx: ServerPluginContext, orders: CreditOrders): void {
  const { httpError } = ctx;
  const flag = 'credits_recharge_enabled';

  /** The signed-in user's own order; someone else's is as absent as a made-up id. */
  const ownOrder = async (request: FastifyRequest<{ Params: { id: string } }>): Promise<CreditOrder> => {
    const user = await signedInUser(ctx, request);
    const order = await orders.byPublicId(request.params.id);
    if (!order || order.user_id !== user.id) throw httpError(404, 'ORDER_NOT_FOUND', 'There is no such payment.');
    return order;
  };

  const providerFailed = (error: unknown): never => {
    if (error instanceof PaymentProviderError) {
      ctx.log.error({ provider: error.provider, status: error.status, err: error }, 'payment provider request failed');
      throw httpError(502, 'PAYMENT_PROVIDER_ERROR', 'The payment provider did not accept the request. Please try again later.');
    }
    throw error;
  };

  app.get(
    '/user/store/credits',
    {
      config: { auth: true, flag },
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['currency', 'currency_symbol', 'exponent', 'coins_per_unit', 'min_amount_minor', 'max_amount_minor', 'providers'],
            properties: {
              currency: { type: 'string' },
              currency_symbol: { type: 'string' },
              exponent: { type: 'integer' },
              coins_per_unit: { type: 'integer' },
              min_amount_minor: { type: 'integer' },
              max_amount_minor: { type: 'integer' },
              providers: { type: 'array', items: { type: 'string' } },
            },
          },
        },
      },
    },
    async (): Promise<CreditsOptions> => {
      const config = await readCreditsConfig(ctx.settings);
      return {
        currency: config.currency,
        currency_symbol: config.currencySymbol,
        exponent: config.exponent,
        coins_per_unit: config.coinsPerUnit,
        min_amount_minor: config.minAmountMinor,
        max_amount_minor: config.maxAmountMinor,
        providers: availableProviders(config),
      };
    },
  );

  /** Opens the provider's payment for `order`: its id there and where the buyer pays. */
  const openAtProvider = async (config: CreditsConfig, order: CreditOrder, user: SessionUser, base: string) => {
    const appName = String((await ctx.settings.get('app_name')) ?? 'Orepanel');
    const description = `${order.coins} coins – ${appName}`;
    const back = `${base}/store/add-credits?order=${encodeURIComponent(order.public_id)}`;
    const cancel = `${base}/store/add-credits?cancelled=${encodeURIComponent(order.public_id)}`;
    if (order.provider === 'stripe' && config.stripe) {
      const session = await new StripeApi(config.stripe.apiUrl, config.stripe.secretKey).createCheckoutSession({
        orderId: order.public_id,
        amountMinor: order.amount_minor,
        currency: order.currency,
        productName: description,
        successUrl: back,
        cancelUrl: cancel,
        customerEmail: user.email,
      });
      return { providerRef: session.id, redirectUrl: session.url };
    }
    if (order.provider === 'paypal' && config.paypal) {
      const created = await new PaypalApi(config.paypal.apiUrl, config.paypal.clientId, config.paypal.clientSecret).createOrder({
        orderId: order.public_id,
        value: formatMinor(order.amount_minor, config.exponent),
        currency: order.currency,
        description,
        // PayPal adds token=<its order id>&PayerID=…; the page then asks us to capture
        returnUrl: `${back}&provider=paypal`,
        cancelUrl: cancel,
        brandName: appName,
      });
      return { providerRef: created.id, redirectUrl: created.approveUrl };
    }
    throw new Error(`provider ${order.provider} is not set up`);
  };

  app.post<{ Body: CheckoutBody }>(
    '/user/store/credits/checkout',
    {
      config: { auth: true, flag },
      schema: {
        body: {
          type: 'object',
          required: ['provider', 'amount_minor'],
          additionalProperties: false,
          properties: {
            provider: { type: 'string', enum: [...PAYMENT_PROVIDERS] },
            amount_minor: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
          },
        },
        response: { 201: { type: 'object', required: ['order', 'redirect_url'], properties: { order: orderSchema, redirect_url: { type: 'string' } } } },
      },
    },
    async (request, reply): Promise<CheckoutResponse> => {
      const user = await signedInUser(ctx, request);
      const { provider, amount_minor: amountMinor } = request.body;
      const config = await readCreditsConfig(ctx.settings);
      if (!availableProviders(config).includes(provider)) throw httpError(400, 'PROVIDER_UNAVAILABLE', 'This payment method is not available.', 'provider');
      if (amountMinor < config.minAmountMinor || amountMinor > config.maxAmountMinor) {
        const range = `${formatMinor(config.minAmountMinor, config.exponent)}–${formatMinor(config.maxAmountMinor, config.exponent)} ${config.currency}`;
        throw httpError(400, 'AMOUNT_OUT_OF_RANGE', `The amount must be within ${range}.`, 'amount_minor');
      }
      // at least one whole currency unit at at least one coin per unit: never zero coins
      const coins = coinsForAmount(amountMinor, config.coinsPerUnit, config.exponent);
      // refused now, not after the buyer paid: the wallet would refuse to credit it
      if (coins > MAX_COINS_PER_PAYMENT) throw httpError(400, 'AMOUNT_OUT_OF_RANGE', `One payment may buy at most ${MAX_COINS_PER_PAYMENT} coins.`, 'amount_minor');
      let base: string;
      try {
        // never the request's Host header: return addresses must point at the real panel
        base = await ctx.mail.publicUrl(request);
      } catch {
        throw httpError(503, 'PUBLIC_URL_NOT_SET', 'Payments need the panel’s public address (app_url) to be set by an administrator.');
      }
      if ((await orders.startedSince(user.id, new Date(Date.now() - 3_600_000))) >= ORDERS_PER_HOUR) {
        throw httpError(429, 'TOO_MANY_PAYMENTS', 'You started too many payments in the last hour. Please wait a while.');
      }
      const order = await orders.create({ userId: user.id, provider, amountMinor, currency: config.currency, coins });
      try {
        const { providerRef, redirectUrl } = await openAtProvider(config, order, user, base);
        const opened = await orders.opened(order, providerRef);
        reply.code(201);
        return { order: orderView(opened), redirect_url: redirectUrl };
      } catch (error) {
        await orders.failed(order, error instanceof PaymentProviderError ? `HTTP_${error.status}` : null);
        return providerFailed(error);
      }
    },
  );

  app.get<{ Params: { id: string } }>(
    '/user/store/credits/orders/:id',
    { config: { auth: true, flag }, schema: { params: orderParams, response: { 200: orderSchema } } },
    async (request): Promise<CreditOrderView> => orderView(await ownOrder(request)),
  );

  app.post<{ Params: { id: string } }>(
    '/user/store/credits/orders/:id/capture',
    { config: { auth: true, flag }, schema: { params: orderParams, response: { 200: orderSchema } } },
    async (request): Promise<CreditOrderView> => {
      const order = await ownOrder(request);
      if (order.provider !== 'paypal') throw httpError(400, 'NOT_A_PAYPAL_PAYMENT', 'Only PayPal payments are captured here.');
      if (order.status === 'failed') throw httpError(409, 'PAYMENT_FAILED', 'This payment did not go through.');
      const { paypal } = (await readCreditsConfig(ctx.settings)).keys;
      if (!paypal.apiUrl || !paypal.clientId || !paypal.clientSecret) throw httpError(503, 'PROVIDER_UNAVAILABLE', 'PayPal is not set up on this panel.');
      const settlement = await captureAndSettle(new PaypalApi(paypal.apiUrl, paypal.clientId, paypal.clientSecret), orders, ctx.log, order).catch((error: unknown) => {
        // 422 on capture: PayPal refused the payment itself (e.g. INSTRUMENT_DECLINED)
        if (error instanceof PaymentProviderError && error.status === 422) throw httpError(409, 'PAYMENT_DECLINED', 'PayPal declined this payment. Please try another way to pay.');
        return providerFailed(error);
      });
      if (settlement === 'not-approved') throw httpError(409, 'PAYMENT_NOT_APPROVED', 'The payment has not been approved on PayPal yet.');
      const fresh = await orders.byPublicId(order.public_id);
      return orderView(fresh ?? order);
    },
  );
}
