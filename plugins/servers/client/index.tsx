// The servers plugin's pages: create, update, renew and delete a server (/server/...), the dashboard
// widget with the user's servers and queue entries, and the admin screens for every server and the
// creation queue. Setup only hands the kernel lazy loaders, so each page is its own chunk.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'servers',
  setup(ctx) {
    ctx.routes.provide('ServerCreatePage', () => import('./create/ServerCreatePage'));
    ctx.routes.provide('ServerUpdatePage', () => import('./ServerUpdatePage'));
    ctx.routes.provide('ServerRenewPage', () => import('./ServerRenewPage'));
    ctx.routes.provide('ServerDeletePage', () => import('./ServerDeletePage'));
    ctx.routes.provide('AdminServersPage', () => import('./admin/AdminServersPage'));
    ctx.routes.provide('AdminQueuePage', () => import('./admin/AdminQueuePage'));
    ctx.routes.provide('AdminQueueCreatePage', () => import('./admin/AdminQueueCreatePage'));
    ctx.routes.provide('AdminQueueEntryPage', () => import('./admin/AdminQueueEntryPage'));
    ctx.routes.provide('AdminQueueDeletePage', () => import('./admin/AdminQueueDeletePage'));
    ctx.routes.provide('AdminQueueLogsPage', () => import('./admin/AdminQueueLogsPage'));
    ctx.slots.provide('ServersWidget', () => import('./widget/ServersWidget'));
  },
});
