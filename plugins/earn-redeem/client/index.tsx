// The earn-redeem plugin: /earn/redeem for users and /mc-admin/redeem-codes for administrators.
// Setup only hands the kernel lazy loaders; the kernel guards every route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-redeem',
  setup(ctx) {
    ctx.routes.provide('RedeemPage', () => import('./RedeemPage'));
    ctx.routes.provide('RedeemCodesPage', () => import('./admin/RedeemCodesPage'));
    ctx.routes.provide('RedeemCodeCreatePage', () => import('./admin/RedeemCodeCreatePage'));
    ctx.routes.provide('RedeemCodeEditPage', () => import('./admin/RedeemCodeEditPage'));
    ctx.routes.provide('RedeemCodeDeletePage', () => import('./admin/RedeemCodeDeletePage'));
  },
});
