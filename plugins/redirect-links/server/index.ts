// The redirect-links plugin's API: administrators manage the links (/api/admin/redirect-links) and
// the navigation reads them (/api/redirect-links). The table is the plugin's (see tables.ts for how
// it came over from the core).
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerAdminRoutes } from './admin-routes';
import { RedirectLinkStore } from './link-store';
import { registerNavRoutes } from './nav-routes';
import { REDIRECT_LINK_MIGRATIONS, type RedirectLinkTables } from './tables';

export default defineServerPlugin({
  id: 'redirect-links',
  migrations: REDIRECT_LINK_MIGRATIONS,
  register(app, ctx) {
    const links = new RedirectLinkStore(ctx.db.withTables<RedirectLinkTables>(), ctx.dialect);
    registerNavRoutes(app, links);
    registerAdminRoutes(app, ctx, links);
  },
});
