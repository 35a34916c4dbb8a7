// The earn-afk plugin: the AFK page (/earn/afk). Setup only hands the kernel a lazy loader, so the page
// is its own chunk, fetched when first shown. A connection that cannot be restored leads to /ws (the
// errors plugin's lost-connection page), through the sdk's realtime socket.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-afk',
  setup(ctx) {
    ctx.routes.provide('AfkPage', () => import('./AfkPage'));
  },
});
