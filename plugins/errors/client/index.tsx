// The error pages: 403 (spec §6: where a failed permission check ends), 500, and the not-found page
// for any path no route matches.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'errors',
  setup(ctx) {
    ctx.routes.provide('ForbiddenPage', () => import('./ForbiddenPage'));
    ctx.routes.provide('ServerErrorPage', () => import('./ServerErrorPage'));
    ctx.routes.provide('NotFoundPage', () => import('./NotFoundPage'));
  },
});
