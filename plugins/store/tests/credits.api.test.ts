// Buying coins with money on every dialect, against local stand-ins of Stripe and PayPal
// (tests/fixtures/stripe-api.ts, paypal-api.ts). The "must show": coins are credited only
// from the provider's own confirmation, exactly once per payment — the same webhook delivered three
// times credits once; a forged signature or a stale timestamp is refused and credits nothing; bad
// input is a 4xx that changes nothing; a switched-off feature answers FEATURE_DISABLED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoreTables } from '../server/tables';
import { startPaypalStandIn, type PaypalStandIn, type PaypalWebhookDelivery } from '../../../tests/fixtures/paypal-api';
import { startStripeStandIn, type StripeStandIn } from '../../../tests/fixtures/stripe-api';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const PANEL_URL = 'https://panel.example.com';

describe.each(testDialects())('buying coins on %s', (dialect) => {
  let panel: TestPanel;
  let stripe: StripeStandIn;
  let paypal: PaypalStandIn;

  const settings = () => panel.services.settings;
  const db = () => panel.services.database.db.withTables<StoreTables>();

  beforeAll(async () => {
    [panel, stripe, paypal] = await Promise.all([startPanel(dialect, { jobs: false }), startStripeStandIn(), startPaypalStandIn()]);
    const values: Record<string, string | number | boolean> = {
      app_url: PANEL_URL,
      credits_recharge_enabled: true,
      stripe_enabled: true,
      stripe_secret_key: stripe.secretKey,
      stripe_webhook_secret: stripe.webhookSecret,
      stripe_api_url: stripe.url,
      paypal_enabled: true,
      paypal_client_id: paypal.clientId,
      paypal_client_secret: paypal.clientSecret,
      paypal_webhook_id: paypal.webhookId,
      paypal_api_url: paypal.url,
    };
    for (const [key, value] of Object.entries(values)) await settings().set(key, value);
  });
  afterAll(async () => {
    await Promise.all([panel?.close(), stripe?.close(), paypal?.close()]);
  });

  /** Runs `body` with some settings changed, then puts them back. */
  const withSettings = async (changes: Record<string, string | number | boolean>, body: () => Promise<void>) => {
    const before: Record<string, unknown> = {};
    for (const key of Object.keys(changes)) before[key] = await settings().get(key);
    for (const [key, value] of Object.entries(changes)) await settings().set(key, value);
    try {
      await body();
    } finally {
      for (const [key, value] of Object.entries(before)) await settings().set(key, value as string | number | boolean);
    }
  };

  const coins = async (userId: number) => Number((await db().selectFrom('users').select('coins').where('id', '=', userId).executeTakeFirstOrThrow()).coins);
  const creditEntries = (userId: number) =>
    db().selectFrom('wallet_ledger').select(['delta', 'kind', 'idempotency_key', 'reference']).where('user_id', '=', userId).where('kind', 'like', 'credits.%').execute();
  const orderCount = async () =>
    Number(
      (
        await db()
          .selectFrom('store_credit_orders')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const checkout = (user: SignedInUser, payload: Record<string, unknown>) =>
    panel.app.inject({ method: 'POST', url: '/api/user/store/credits/checkout', headers: { cookie: user.cookie }, payload });
  const getOrder = (user: SignedInUser, id: string) => panel.app.inject({ method: 'GET', url: `/api/user/store/credits/orders/${id}`, headers: { cookie: user.cookie } });
  const capture = (user: SignedInUser, id: string) => panel.app.inject({ method: 'POST', url: `/api/user/store/credits/orders/${id}/capture`, headers: { cookie: user.cookie } });

  const stripeWebhook = (payload: string, signature: string | null) =>
    panel.app.inject({
      method: 'POST',
      url: '/api/store/webhooks/stripe',
      headers: { 'content-type': 'application/json; charset=utf-8', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      payload,
    });
  const paypalWebhook = (delivery: PaypalWebhookDelivery) =>
    panel.app.inject({ method: 'POST', url: '/api/store/webhooks/paypal', headers: delivery.headers, payload: delivery.body });

  /** A buyer who started a Stripe payment of `amountMinor`: the order and the Stripe session. */
  const stripeOrder = async (amountMinor = 550) => {
    const user = await userWithRole(panel, 1);
    const res = await checkout(user, { provider: 'stripe', amount_minor: amountMinor });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order as { id: string; coins: number };
    const session = [...stripe.sessions.values()].find((s) => s.metadata.order_id === order.id);
    if (!session) throw new Error('no Stripe session for the order');
    return { user, order, session, redirect: res.json().redirect_url as string };
  };

  const paypalOrder = async (amountMinor = 550) => {
    const user = await userWithRole(panel, 1);
    const res = await checkout(user, { provider: 'paypal', amount_minor: amountMinor });
    expect(res.statusCode, res.body).toBe(201);
    const order = res.json().order as { id: string; coins: number };
    const remote = [...paypal.orders.values()].find((o) => o.custom_id === order.id);
    if (!remote) throw new Error('no PayPal order for the order');
    return { user, order, remote, redirect: res.json().redirect_url as string };
  };

  it('tells the page the currency, coins per unit, limits and the providers that are set up', async () => {
    const user = await userWithRole(panel, 1);
    const res = await panel.app.inject({ method: 'GET', url: '/api/user/store/credits', headers: { cookie: user.cookie } });
    expect(res.json()).toEqual({
      currency: 'EUR',
      currency_symbol: '€',
      exponent: 2,
      coins_per_unit: 100,
      min_amount_minor: 100,
      max_amount_minor: 50_000,
      providers: ['stripe', 'paypal'],
    });
    // a provider switched off, or missing a key, is not offered
    await withSettings({ stripe_enabled: false, paypal_client_secret: '' }, async () => {
      const off = await panel.app.inject({ method: 'GET', url: '/api/user/store/credits', headers: { cookie: user.cookie } });
      expect(off.json().providers).toEqual([]);
    });
    await withSettings({ currency: 'JPY', credits_coins_per_unit: 3 }, async () => {
      const yen = await panel.app.inject({ method: 'GET', url: '/api/user/store/credits', headers: { cookie: user.cookie } });
      expect(yen.json()).toMatchObject({ currency: 'JPY', exponent: 0, coins_per_unit: 3, min_amount_minor: 1, max_amount_minor: 500 });
    });
  });

  describe('Stripe Checkout', () => {
    it('opens a Checkout Session for the order and sends the buyer there; nothing is credited yet', async () => {
      const { user, order, session, redirect } = await stripeOrder(550);
      // 5.50 EUR at 100 coins per euro, in integer minor units
      expect(order).toMatchObject({ provider: 'stripe', status: 'open', amount_minor: 550, currency: 'EUR', coins: 550, credited_at: null });
      expect(redirect).toBe(session.url);
      const sent = stripe.requests.find((r) => r.form['metadata[order_id]'] === order.id);
      expect(sent?.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
      expect(sent?.headers['idempotency-key']).toBe(`checkout-${order.id}`);
      expect(sent?.form).toMatchObject({
        mode: 'payment',
        client_reference_id: order.id,
        'line_items[0][quantity]': '1',
        'line_items[0][price_data][currency]': 'eur',
        'line_items[0][price_data][unit_amount]': '550',
        success_url: `${PANEL_URL}/store/add-credits?order=${order.id}`,
        cancel_url: `${PANEL_URL}/store/add-credits?cancelled=${order.id}`,
        customer_email: user.email,
      });
      expect(await coins(user.id)).toBe(0);
      expect((await getOrder(user, order.id)).json()).toMatchObject({ id: order.id, status: 'open' });
    });

    it('the same webhook delivered three times (and three more at once) credits once', async () => {
      const { user, order, session } = await stripeOrder(1234);
      stripe.pay(session.id);
      const payload = stripe.event('checkout.session.completed', session.id);
      for (let i = 0; i < 3; i++) {
        const res = await stripeWebhook(payload, stripe.sign(payload));
        expect([res.statusCode, res.json()]).toEqual([200, { received: true }]);
      }
      const burst = await Promise.all(Array.from({ length: 3 }, () => stripeWebhook(payload, stripe.sign(payload))));
      expect(burst.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      // a later "async payment succeeded" about the same session is the same payment
      const late = stripe.event('checkout.session.async_payment_succeeded', session.id);
      expect((await stripeWebhook(late, stripe.sign(late))).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(1234);
      expect(await creditEntries(user.id)).toEqual([{ delta: expect.anything(), kind: 'credits.stripe', idempotency_key: `stripe:${session.id}`, reference: order.id }]);
      expect(Number((await creditEntries(user.id))[0].delta)).toBe(1234);
      const view = (await getOrder(user, order.id)).json();
      expect(view).toMatchObject({ status: 'credited' });
      expect(view.credited_at).toEqual(expect.any(String));
    });

    it('refuses a forged, tampered or missing signature (4xx) and credits nothing', async () => {
      const { user, order, session } = await stripeOrder(700);
      stripe.pay(session.id);
      const payload = stripe.event('checkout.session.completed', session.id);
      const now = Math.floor(Date.now() / 1000);
      const tampered = payload.replace('"amount_total":700', '"amount_total":7000');
      expect(tampered).not.toBe(payload);
      const forged = [stripe.sign(payload, { secret: 'whsec_not_the_endpoint_secret' }), `t=${now}`, `t=${now},v1=${'0'.repeat(64)}`, 'garbage'];
      for (const signature of forged) {
        const res = await stripeWebhook(payload, signature);
        expect([res.statusCode, res.json().error.code], signature).toEqual([400, 'INVALID_SIGNATURE']);
      }
      // signed, then the body changed (a bigger amount)
      const swapped = await stripeWebhook(tampered, stripe.sign(payload));
      expect([swapped.statusCode, swapped.json().error.code]).toEqual([400, 'INVALID_SIGNATURE']);
      const unsigned = await stripeWebhook(payload, null);
      expect([unsigned.statusCode, unsigned.json().error.code]).toEqual([400, 'INVALID_SIGNATURE']);
      expect(await coins(user.id)).toBe(0);
      expect((await getOrder(user, order.id)).json().status).toBe('open');
    });

    it('refuses a stale (or future) timestamp, even with a correct signature', async () => {
      const { user, session } = await stripeOrder(800);
      stripe.pay(session.id);
      const payload = stripe.event('checkout.session.completed', session.id);
      const now = Math.floor(Date.now() / 1000);
      for (const timestamp of [now - 301, now - 86_400, now + 600]) {
        const res = await stripeWebhook(payload, stripe.sign(payload, { timestamp }));
        expect([res.statusCode, res.json().error.code]).toEqual([400, 'INVALID_SIGNATURE']);
      }
      expect(await coins(user.id)).toBe(0);
      // within the tolerance it is accepted: the timestamp was the only problem
      expect((await stripeWebhook(payload, stripe.sign(payload, { timestamp: now - 200 }))).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(800);
    });

    it('credits a delayed payment only when Stripe says it is paid', async () => {
      const { user, session } = await stripeOrder(900);
      stripe.pay(session.id, { delayed: true });
      const completed = stripe.event('checkout.session.completed', session.id);
      expect((await stripeWebhook(completed, stripe.sign(completed))).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(0);
      stripe.settle(session.id);
      const succeeded = stripe.event('checkout.session.async_payment_succeeded', session.id);
      expect((await stripeWebhook(succeeded, stripe.sign(succeeded))).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(900);
    });

    it('does not credit a genuine event whose amount differs from the order, nor one for no order of ours', async () => {
      const { user, order, session } = await stripeOrder(1000);
      stripe.pay(session.id);
      const cheaper = stripe.event('checkout.session.completed', session.id, { amount_total: 100 });
      expect((await stripeWebhook(cheaper, stripe.sign(cheaper))).statusCode).toBe(200);
      const otherCurrency = stripe.event('checkout.session.completed', session.id, { currency: 'usd' });
      expect((await stripeWebhook(otherCurrency, stripe.sign(otherCurrency))).statusCode).toBe(200);
      const foreign = stripe.event('checkout.session.completed', session.id, {
        id: 'cs_test_someone_else',
        metadata: { order_id: 'co_not_ours_at_all' },
        client_reference_id: null,
      });
      expect((await stripeWebhook(foreign, stripe.sign(foreign))).statusCode).toBe(200);
      const unrelated = stripe.event('payment_intent.created', session.id);
      expect((await stripeWebhook(unrelated, stripe.sign(unrelated))).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(0);
      expect((await getOrder(user, order.id)).json().status).toBe('open');
      const notJson = 'not json';
      expect((await stripeWebhook(notJson, stripe.sign(notJson))).statusCode).toBe(400);
    });

    it('a provider that refuses the request (wrong key, outage) is a 502; the order fails and nothing is credited', async () => {
      const user = await userWithRole(panel, 1);
      await withSettings({ stripe_secret_key: 'sk_test_wrong' }, async () => {
        const res = await checkout(user, { provider: 'stripe', amount_minor: 500 });
        expect([res.statusCode, res.json().error.code]).toEqual([502, 'PAYMENT_PROVIDER_ERROR']);
        expect(res.body).not.toContain('sk_test');
      });
      stripe.setFailure('api_error');
      try {
        const res = await checkout(user, { provider: 'stripe', amount_minor: 500 });
        expect(res.statusCode).toBe(502);
      } finally {
        stripe.setFailure(null);
      }
      const rows = await db().selectFrom('store_credit_orders').select('status').where('user_id', '=', user.id).orderBy('id').execute();
      expect(rows.map((r) => r.status)).toEqual(['failed', 'failed']);
      expect(await coins(user.id)).toBe(0);
    });

    it('refuses webhooks while no signing secret is set (503: Stripe delivers again later)', async () => {
      await withSettings({ stripe_webhook_secret: '' }, async () => {
        const payload = '{"type":"checkout.session.completed"}';
        const res = await stripeWebhook(payload, stripe.sign(payload));
        expect([res.statusCode, res.json().error.code]).toEqual([503, 'WEBHOOK_NOT_CONFIGURED']);
      });
    });
  });

  describe('PayPal', () => {
    it('creates an order at PayPal with the amount as PayPal writes it and sends the buyer to approve it', async () => {
      const { order, remote, redirect } = await paypalOrder(550);
      expect(remote).toMatchObject({ intent: 'CAPTURE', status: 'PAYER_ACTION_REQUIRED', amount: { currency_code: 'EUR', value: '5.50' }, reference_id: order.id });
      expect(remote.return_url).toBe(`${PANEL_URL}/store/add-credits?order=${order.id}&provider=paypal`);
      expect(remote.cancel_url).toBe(`${PANEL_URL}/store/add-credits?cancelled=${order.id}`);
      expect(redirect).toBe(`${paypal.url}/checkoutnow?token=${remote.id}`);
      const create = paypal.calls.find((c) => c.path === '/v2/checkout/orders' && JSON.stringify(c.body).includes(order.id));
      expect(create?.headers['paypal-request-id']).toBe(`create-${order.id}`);
    });

    it('credits on PayPal’s capture confirmation, once — capture repeated, webhooks delivered three times', async () => {
      const { user, order, remote } = await paypalOrder(1999);
      const early = await capture(user, order.id);
      expect([early.statusCode, early.json().error.code]).toEqual([409, 'PAYMENT_NOT_APPROVED']);
      expect(await coins(user.id)).toBe(0);
      paypal.approve(remote.id);
      const captured = await capture(user, order.id);
      expect(captured.statusCode).toBe(200);
      expect(captured.json()).toMatchObject({ status: 'credited', coins: 1999 });
      expect((await capture(user, order.id)).json()).toMatchObject({ status: 'credited' });
      const delivery = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', remote.id);
      for (let i = 0; i < 3; i++) expect((await paypalWebhook(delivery)).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(1999);
      expect(await creditEntries(user.id)).toEqual([expect.objectContaining({ kind: 'credits.paypal', idempotency_key: `paypal:${remote.id}`, reference: order.id })]);
    });

    it('a pending capture is credited once, when the verified PAYMENT.CAPTURE.COMPLETED webhook arrives', async () => {
      const { user, order, remote } = await paypalOrder(1500);
      paypal.setCaptureOutcome('PENDING');
      try {
        paypal.approve(remote.id);
        expect((await capture(user, order.id)).json()).toMatchObject({ status: 'open' });
        expect(await coins(user.id)).toBe(0);
      } finally {
        paypal.setCaptureOutcome('COMPLETED');
      }
      paypal.completeCapture(remote.id);
      const delivery = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', remote.id);
      const results = await Promise.all(Array.from({ length: 3 }, () => paypalWebhook(delivery)));
      expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(await coins(user.id)).toBe(1500);
      expect(await creditEntries(user.id)).toHaveLength(1);
    });

    it('captures from the CHECKOUT.ORDER.APPROVED webhook when the buyer never comes back', async () => {
      const { user, order, remote } = await paypalOrder(300);
      paypal.approve(remote.id);
      const approved = paypal.webhook('CHECKOUT.ORDER.APPROVED', remote.id);
      for (let i = 0; i < 3; i++) expect((await paypalWebhook(approved)).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(300);
      expect((await getOrder(user, order.id)).json().status).toBe('credited');
      // the buyer's page asks to capture afterwards: nothing more
      expect((await capture(user, order.id)).json().status).toBe('credited');
      expect(await creditEntries(user.id)).toHaveLength(1);
    });

    it('refuses a webhook PayPal does not vouch for (forged, altered, unsigned) and credits nothing', async () => {
      const { user, order, remote } = await paypalOrder(400);
      paypal.setCaptureOutcome('PENDING');
      try {
        paypal.approve(remote.id);
        expect((await capture(user, order.id)).json().status).toBe('open');
      } finally {
        paypal.setCaptureOutcome('COMPLETED');
      }
      paypal.completeCapture(remote.id);
      const genuine = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', remote.id);
      const altered = { ...genuine, body: genuine.body.replace('"value":"4.00"', '"value":"40.00"') };
      expect(altered.body).not.toBe(genuine.body);
      const forgedSig = { ...genuine, headers: { ...genuine.headers, 'paypal-transmission-sig': Buffer.from('forged').toString('base64') } };
      const { ['paypal-transmission-sig']: _dropped, ...unsignedHeaders } = genuine.headers;
      for (const delivery of [altered, forgedSig, { ...genuine, headers: unsignedHeaders }]) {
        const res = await paypalWebhook(delivery);
        expect([res.statusCode, res.json().error.code]).toEqual([400, 'INVALID_SIGNATURE']);
      }
      // a webhook id this panel does not have: PayPal says FAILURE
      await withSettings({ paypal_webhook_id: 'SOMEONEELSE' }, async () => {
        expect((await paypalWebhook(genuine)).statusCode).toBe(400);
      });
      expect(await coins(user.id)).toBe(0);
      expect((await paypalWebhook(genuine)).statusCode).toBe(200);
      expect(await coins(user.id)).toBe(400);
    });

    it('a declined payment is a 409 and credits nothing; a Stripe order cannot be captured', async () => {
      const { user, order, remote } = await paypalOrder(600);
      paypal.approve(remote.id);
      paypal.setCaptureOutcome('INSTRUMENT_DECLINED');
      try {
        const res = await capture(user, order.id);
        expect([res.statusCode, res.json().error.code]).toEqual([409, 'PAYMENT_DECLINED']);
      } finally {
        paypal.setCaptureOutcome('COMPLETED');
      }
      expect(await coins(user.id)).toBe(0);
      const { user: stripeBuyer, order: stripeOrderView } = await stripeOrder(600);
      const wrong = await capture(stripeBuyer, stripeOrderView.id);
      expect([wrong.statusCode, wrong.json().error.code]).toEqual([400, 'NOT_A_PAYPAL_PAYMENT']);
    });
  });

  it('bad input is a 4xx that starts no payment', async () => {
    const user = await userWithRole(panel, 1);
    const before = await orderCount();
    const cases: [Record<string, unknown>, number, string][] = [
      [{}, 400, 'VALIDATION_ERROR'],
      [{ provider: 'bitcoin', amount_minor: 500 }, 400, 'VALIDATION_ERROR'],
      [{ provider: 'stripe', amount_minor: 5.5 }, 400, 'VALIDATION_ERROR'],
      [{ provider: 'stripe', amount_minor: 'lots' }, 400, 'VALIDATION_ERROR'],
      [{ provider: 'stripe', amount_minor: -500 }, 400, 'VALIDATION_ERROR'],
      [{ provider: 'stripe', amount_minor: 99 }, 400, 'AMOUNT_OUT_OF_RANGE'],
      [{ provider: 'paypal', amount_minor: 50_001 }, 400, 'AMOUNT_OUT_OF_RANGE'],
    ];
    for (const [payload, status, code] of cases) {
      const res = await checkout(user, payload);
      expect([res.statusCode, res.json().error.code], JSON.stringify(payload)).toEqual([status, code]);
    }
    await withSettings({ stripe_enabled: false }, async () => {
      const res = await checkout(user, { provider: 'stripe', amount_minor: 500 });
      expect([res.statusCode, res.json().error.code, res.json().error.field]).toEqual([400, 'PROVIDER_UNAVAILABLE', 'provider']);
    });
    // more coins than one wallet movement may carry is refused before anybody pays
    await withSettings({ credits_coins_per_unit: 1_000_000, credits_max_amount: 2000 }, async () => {
      const res = await checkout(user, { provider: 'stripe', amount_minor: 100_100 });
      expect([res.statusCode, res.json().error.code]).toEqual([400, 'AMOUNT_OUT_OF_RANGE']);
    });
    await withSettings({ app_url: '' }, async () => {
      const res = await checkout(user, { provider: 'stripe', amount_minor: 500 });
      expect([res.statusCode, res.json().error.code]).toEqual([503, 'PUBLIC_URL_NOT_SET']);
    });
    expect(await orderCount()).toBe(before);
    expect(await coins(user.id)).toBe(0);
    // orders are private: another user's is "not found", and a made-up id is a 4xx
    const { order } = await stripeOrder(500);
    expect((await getOrder(user, order.id)).statusCode).toBe(404);
    expect((await capture(user, order.id)).statusCode).toBe(404);
    expect((await getOrder(user, 'not-an-order')).statusCode).toBe(400);
  });

  it('limits how many payments one account starts per hour', async () => {
    const user = await userWithRole(panel, 1);
    for (let i = 0; i < 10; i++) expect((await checkout(user, { provider: 'stripe', amount_minor: 500 })).statusCode).toBe(201);
    const res = await checkout(user, { provider: 'stripe', amount_minor: 500 });
    expect([res.statusCode, res.json().error.code]).toEqual([429, 'TOO_MANY_PAYMENTS']);
  });

  it('answers FEATURE_DISABLED while credits_recharge_enabled is off, but still credits payments already made', async () => {
    const { user, order, session } = await stripeOrder(250);
    await withSettings({ credits_recharge_enabled: false }, async () => {
      const calls = [
        panel.app.inject({ method: 'GET', url: '/api/user/store/credits', headers: { cookie: user.cookie } }),
        checkout(user, { provider: 'stripe', amount_minor: 500 }),
        getOrder(user, order.id),
        capture(user, order.id),
      ];
      for (const res of await Promise.all(calls)) expect([res.statusCode, res.json().error.code]).toEqual([403, 'FEATURE_DISABLED']);
      stripe.pay(session.id);
      const payload = stripe.event('checkout.session.completed', session.id);
      expect((await stripeWebhook(payload, stripe.sign(payload))).statusCode).toBe(200);
    });
    expect(await coins(user.id)).toBe(250);
  });
});
