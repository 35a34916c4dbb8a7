// The earn-referrals plugin: /earn/referrals, the user's code and link, whom they referred and what
// it earned them. Setup only hands the kernel a lazy loader; the kernel guards the route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-referrals',
  setup(ctx) {
    ctx.routes.provide('ReferralsPage', () => import('./ReferralsPage'));
  },
});
