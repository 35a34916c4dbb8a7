// The account plugin: the signed-in user's own account page. Setup only hands the kernel a lazy
// loader, so the page is its own chunk, fetched when first shown.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'account',
  setup(ctx) {
    ctx.routes.provide('AccountPage', () => import('./AccountPage'));
  },
});
