// The store plugin: /store (resource packs for coins) and /store/add-credits (coins for money).
// Setup only hands the kernel lazy loaders, so each page is its own chunk, fetched when first shown.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'store',
  setup(ctx) {
    ctx.routes.provide('StorePage', () => import('./StorePage'));
    ctx.routes.provide('AddCreditsPage', () => import('./AddCreditsPage'));
  },
});
