// The error pages: 403 (spec §6: where a failed permission check ends), 500, the not-found page for
// any path no route matches, and /ws (spec §2: lost connection) for every realtime connection.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'errors',
  setup(ctx) {
    ctx.routes.provide('ForbiddenPage', () => import('./ForbiddenPage'));
    ctx.routes.provide('ServerErrorPage', () => import('./ServerErrorPage'));
    ctx.routes.provide('NotFoundPage', () => import('./NotFoundPage'));
    ctx.routes.provide('ConnectionLostPage', () => import('./ConnectionLostPage'));
  },
});
