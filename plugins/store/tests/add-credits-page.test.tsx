// @vitest-environment jsdom
// /store/add-credits: the coins an amount buys (integer arithmetic, as the server does it), starting
// a payment and leaving for the provider's page, and the way back: PayPal orders are captured by the
// server, and the page follows the order until the provider's confirmation has credited it.
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import plugin from '../client';
import { paymentRedirect } from '../client/payment-redirect';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { CreditOrderView, CreditsOptions } from '../shared/money';

afterEach(async () => {
  await cleanup();
  vi.restoreAllMocks();
});

const options: CreditsOptions = {
  currency: 'EUR',
  currency_symbol: '€',
  exponent: 2,
  coins_per_unit: 100,
  min_amount_minor: 100,
  max_amount_minor: 50_000,
  providers: ['stripe', 'paypal'],
};
const ORDER = 'co_abcdefghijklmnop';
const order = (status: CreditOrderView['status'], provider: CreditOrderView['provider'] = 'stripe'): CreditOrderView => ({
  id: ORDER,
  provider,
  status,
  amount_minor: 1234,
  currency: 'EUR',
  coins: 1234,
  created_at: '2026-01-01T10:00:00.000Z',
  credited_at: status === 'credited' ? '2026-01-01T10:01:00.000Z' : null,
});

async function open(route = '/store/add-credits', http: HttpHandlers = {}, credits: CreditsOptions = options) {
  const app = await renderPlugin(plugin, {
    manifest,
    route,
    catalogues: { en },
    session: { billing: { coins: 0 } },
    http: { 'GET /api/user/store/credits': { body: credits }, 'GET /api/user/session': sessionReply({ billing: { coins: 1234 } }), ...http },
  });
  await app.findByText('Buy coins');
  return app;
}

const youGet = (app: Awaited<ReturnType<typeof open>>) => app.getByLabelText('Coins you get').textContent;

describe('add credits page', () => {
  it('shows the rate and what an amount buys; refuses amounts it cannot take', async () => {
    const app = await open();
    expect(app.getByText('100 coins for €1.00')).toBeTruthy();
    expect((app.getByLabelText('Amount (EUR)') as HTMLInputElement).value).toBe('5.00');
    expect(youGet(app)).toBe('You get 500 coins');
    await app.type(app.getByLabelText('Amount (EUR)'), '12,34');
    expect(youGet(app)).toBe('You get 1,234 coins');
    // 0.1 + 0.2 style amounts stay exact: 0.29 € is 29 coins, not 28
    await app.type(app.getByLabelText('Amount (EUR)'), '1.29');
    expect(youGet(app)).toBe('You get 129 coins');
    await app.type(app.getByLabelText('Amount (EUR)'), 'lots');
    expect(app.getByText(en.credits.invalidAmount)).toBeTruthy();
    expect((app.getByRole('button', 'Pay with Card (Stripe)') as HTMLButtonElement).disabled).toBe(true);
    await app.type(app.getByLabelText('Amount (EUR)'), '500.01');
    expect(app.getByText('The amount must be between €1.00 and €500.00.')).toBeTruthy();
    expect((app.getByRole('button', 'Pay with PayPal') as HTMLButtonElement).disabled).toBe(true);
    await app.type(app.getByLabelText('Amount (EUR)'), '1.234');
    expect(app.getByText(en.credits.invalidAmount)).toBeTruthy();
    expect(app.httpCalls.filter((c) => c.method === 'POST')).toHaveLength(0);
    app.unmount();
  });

  it('starts the payment in minor units and sends the buyer to the provider', async () => {
    const go = vi.spyOn(paymentRedirect, 'go').mockImplementation(() => undefined);
    const app = await open('/store/add-credits', {
      'POST /api/user/store/credits/checkout': { status: 201, body: { order: order('open'), redirect_url: 'https://checkout.stripe.com/c/pay/cs_test_1' } },
    });
    await app.type(app.getByLabelText('Amount (EUR)'), '12.34');
    await app.click(app.getByRole('button', 'Pay with Card (Stripe)'));
    await app.waitFor(() => expect(go).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_test_1'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ provider: 'stripe', amount_minor: 1234 });
    app.unmount();
  });

  it('shows why a payment could not start, and stays on the page', async () => {
    const go = vi.spyOn(paymentRedirect, 'go').mockImplementation(() => undefined);
    const app = await open('/store/add-credits', { 'POST /api/user/store/credits/checkout': { status: 502, body: { error: { code: 'PAYMENT_PROVIDER_ERROR', message: 'x' } } } });
    await app.click(app.getByRole('button', 'Pay with PayPal'));
    await app.findByText(en.errors.PAYMENT_PROVIDER_ERROR);
    expect(go).not.toHaveBeenCalled();
    app.unmount();
  });

  it('back from PayPal: asks the server to capture, then shows the credited coins', async () => {
    const app = await open(`/store/add-credits?order=${ORDER}&provider=paypal&token=5O190127TN364715T&PayerID=X`, {
      [`POST /api/user/store/credits/orders/${ORDER}/capture`]: { body: order('credited', 'paypal') },
    });
    await app.findByText('Payment received');
    expect(app.getByText('1,234 coins were added to your balance.')).toBeTruthy();
    expect(app.httpCalls.filter((c) => c.path.endsWith('/capture'))).toHaveLength(1);
    app.unmount();
  });

  it('back from Stripe: waits for the webhook’s confirmation, following the order', async () => {
    let reads = 0;
    const app = await open(`/store/add-credits?order=${ORDER}`, {
      [`GET /api/user/store/credits/orders/${ORDER}`]: () => ({ body: order(++reads < 2 ? 'open' : 'credited') }),
    });
    await app.findByText('Waiting for Card (Stripe) to confirm your payment…');
    await app.findByText('Payment received', { timeout: 5000 });
    expect(app.httpCalls.some((c) => c.path.endsWith('/capture'))).toBe(false);
    app.unmount();
  });

  it('tells a failed or cancelled payment apart, and when no provider is set up', async () => {
    const failed = await open(`/store/add-credits?order=${ORDER}`, { [`GET /api/user/store/credits/orders/${ORDER}`]: { body: order('failed') } });
    await failed.findByText(en.credits.return.failed);
    failed.unmount();
    const cancelled = await open(`/store/add-credits?cancelled=${ORDER}`);
    expect(cancelled.getByText(en.credits.cancelled)).toBeTruthy();
    cancelled.unmount();
    const none = await renderPlugin(plugin, {
      manifest,
      route: '/store/add-credits',
      catalogues: { en },
      session: {},
      http: { 'GET /api/user/store/credits': { body: { ...options, providers: [] } } },
    });
    await none.findByText(en.credits.unavailableTitle);
    none.unmount();
  });
});
