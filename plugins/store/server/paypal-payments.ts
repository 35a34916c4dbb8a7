// Settling PayPal orders. The money moves when we capture an approved order; PayPal's answer to our
// authenticated capture call (or a webhook PayPal's verify API vouched for) is the confirmation
// coins are credited on — never the buyer's return to our page by itself. A capture can also come
// back PENDING (e.g. an e-check): then PAYMENT.CAPTURE.COMPLETED arrives later by webhook. Both
// paths credit with the key `paypal:<PayPal order id>`, so whichever comes second moves nothing.
import type { FastifyBaseLogger } from 'fastify';
import { currencyExponent, parseMoney } from '../shared/money';
import type { CreditOrder, CreditOrders } from './credit-orders';
import type { PaypalApi, PaypalCapture } from './paypal-api';

export type PaypalSettlement = 'credited' | 'pending' | 'not-approved' | 'failed' | 'mismatch';

/** Does the captured amount equal what the order sells (same currency, same minor units)? */
export function captureMatches(order: CreditOrder, capture: PaypalCapture): boolean {
  const paid = parseMoney(capture.value, currencyExponent(order.currency), { allowComma: false });
  return capture.currency.toUpperCase() === order.currency && paid === order.amount_minor;
}

/** Credits, waits or fails the order by what PayPal says about its capture. */
export async function settleCapture(
  orders: CreditOrders,
  log: FastifyBaseLogger,
  order: CreditOrder,
  paypalOrderId: string,
  capture: PaypalCapture | null,
): Promise<PaypalSettlement> {
  if (order.status === 'credited') return 'credited';
  if (!capture) {
    await orders.noteProviderStatus(order, 'NO_CAPTURE');
    return 'pending';
  }
  if (capture.status === 'COMPLETED') {
    if (!captureMatches(order, capture)) {
      log.error({ order: order.public_id, paypalOrderId, capture }, 'PayPal captured another amount than the order sells; not credited');
      await orders.noteProviderStatus(order, 'AMOUNT_MISMATCH');
      return 'mismatch';
    }
    await orders.credit(order, paypalOrderId, capture.status);
    return 'credited';
  }
  if (capture.status === 'DECLINED' || capture.status === 'FAILED') {
    await orders.failed(order, capture.status);
    return 'failed';
  }
  await orders.noteProviderStatus(order, capture.status);
  return 'pending';
}

/** Captures the order's approved PayPal order and settles it. */
export async function captureAndSettle(api: PaypalApi, orders: CreditOrders, log: FastifyBaseLogger, order: CreditOrder): Promise<PaypalSettlement> {
  if (order.status === 'credited') return 'credited';
  if (!order.provider_ref) return 'not-approved';
  const state = await api.captureOrder(order.provider_ref, `capture-${order.public_id}`);
  if (!state) return 'not-approved';
  if (state.id !== order.provider_ref) {
    log.error({ order: order.public_id, asked: order.provider_ref, answered: state.id }, 'PayPal answered a capture for another order; not credited');
    return 'mismatch';
  }
  return settleCapture(orders, log, order, state.id, state.capture);
}
