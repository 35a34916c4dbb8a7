// The store plugin's API: resource packs bought with coins (reference paths GET /api/user/store/items,
// POST /api/user/store/purchase; flag store_enabled) and coins bought with money through Stripe
// Checkout or PayPal (/api/user/store/credits/…; flag credits_recharge_enabled), credited only from
// the providers' own confirmation (/api/store/webhooks/stripe|paypal, PayPal captures).
import { defineServerPlugin } from '@orepanel/sdk/server';
import { CreditOrders } from './credit-orders';
import { registerCreditsRoutes } from './credits-routes';
import { registerPurchaseRoutes } from './purchase-routes';
import { STORE_MIGRATIONS, type StoreTables } from './tables';
import { registerWebhookRoutes } from './webhook-routes';

export default defineServerPlugin({
  id: 'store',
  migrations: STORE_MIGRATIONS,
  async register(app, ctx) {
    const orders = new CreditOrders(ctx.db.withTables<StoreTables>(), ctx.wallet, async (order) => {
      await ctx.audit.record(null, {
        action: 'store.credits.credited',
        actorUserId: null,
        targetUserId: order.user_id,
        details: { order: order.public_id, provider: order.provider, coins: order.coins, amount_minor: order.amount_minor, currency: order.currency },
      });
    });
    registerPurchaseRoutes(app, ctx);
    registerCreditsRoutes(app, ctx, orders);
    await registerWebhookRoutes(app, ctx, orders);
  },
});
