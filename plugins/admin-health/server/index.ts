// The admin-health plugin's API: GET /api/admin/health, what /mc-admin/health shows. It measures
// through the core's read-only facades (ctx.system, ctx.mail, ctx.jobs, ctx.pterodactyl) and owns
// nothing else.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerHealthRoute } from './health-route';

export default defineServerPlugin({
  id: 'admin-health',
  register(app, ctx) {
    registerHealthRoute(app, ctx);
  },
});
