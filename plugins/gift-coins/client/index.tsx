// The gift-coins plugin: /profile/:uuid/gift-coins. Setup only hands the kernel a lazy loader; the
// kernel hides the route while allow_coins_sharing is off (plugin.json).
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'gift-coins',
  setup(ctx) {
    ctx.routes.provide('GiftCoinsPage', () => import('./GiftCoinsPage'));
  },
});
