// The gift-coins plugin's API: who a gift would go to (with the rules and the sender's balance, for
// the page's live fee), and the gift itself through ctx.wallet.transfer.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerGiftRoutes } from './gift-routes';

export default defineServerPlugin({
  id: 'gift-coins',
  register(app, ctx) {
    registerGiftRoutes(app, ctx);
  },
});
