// The earn-afk plugin: the AFK page (/earn/afk) and the lost-connection page (/ws). Setup only hands
// the kernel lazy loaders, so each page is its own chunk, fetched when first shown.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'earn-afk',
  setup(ctx) {
    ctx.routes.provide('AfkPage', () => import('./AfkPage'));
    ctx.routes.provide('ConnectionLostPage', () => import('./ConnectionLostPage'));
  },
});
