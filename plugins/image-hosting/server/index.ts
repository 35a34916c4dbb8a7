// The image-hosting plugin's API: customers' hosted images (uploads from the page or ShareX, a quota,
// optional coins per upload), the public viewer link with its abuse report, and the administrators'
// reports queue.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { ImageHost } from './host';
import { registerReportRoutes } from './report-routes';
import { IMAGE_HOSTING_MIGRATIONS, type ImageHostingTables } from './tables';
import { registerUserRoutes } from './user-routes';
import { registerViewerRoutes } from './viewer';

export default defineServerPlugin({
  id: 'image-hosting',
  migrations: IMAGE_HOSTING_MIGRATIONS,
  // per client address (window: the core's rate_limit_auth_window_seconds); uploads are limited per account per minute in host.ts
  rateLimitPolicies: {
    'image-hosting.report': { scopes: [{ by: 'ip', setting: 'rate_limit_image_hosting_reports_per_ip' }] },
  },
  register(app, ctx) {
    const host = new ImageHost(ctx, ctx.db.withTables<ImageHostingTables>());
    registerUserRoutes(app, ctx, host);
    registerViewerRoutes(app, ctx, host);
    registerReportRoutes(app, ctx, host);
    // an account's images go with it (foreign keys): their files must not stay behind in the store
    ctx.events.on('user.deleting', async ({ userId }) => {
      await host.removeFilesOfUser(userId);
    });
  },
});
