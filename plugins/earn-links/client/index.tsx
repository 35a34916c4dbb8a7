// The earn-links plugin: /earn/links, link for rewards. Setup only hands the kernel a lazy loader;
// the kernel guards the route (and hides it with l4r_enabled off) from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-links',
  setup(ctx) {
    ctx.routes.provide('LinksPage', () => import('./LinksPage'));
  },
});
