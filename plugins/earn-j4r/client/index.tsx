// The earn-j4r plugin: /earn/j4r for users, and the guild list on its configuration page
// (/mc-admin/plugins/earn-j4r/config) as a slot of the admin plugin's page.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-j4r',
  setup(ctx) {
    ctx.routes.provide('J4rPage', () => import('./J4rPage'));
    ctx.slots.provide('J4rGuildsConfig', () => import('./config/J4rGuildsConfig'));
  },
});
