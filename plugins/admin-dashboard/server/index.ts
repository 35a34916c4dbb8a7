// The admin-dashboard plugin's API: /api/admin/dashboard/*, the data of /mc-admin's components,
// each behind its component's permission. Read-only: it owns no table and changes nothing.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { registerDashboardRoutes } from './dashboard-routes';

export default defineServerPlugin({
  id: 'admin-dashboard',
  register(app, ctx) {
    registerDashboardRoutes(app, ctx);
  },
});
