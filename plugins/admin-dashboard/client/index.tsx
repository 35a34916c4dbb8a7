// The admin dashboard (/mc-admin): each component shows only with its own permission.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-dashboard',
  setup(ctx) {
    ctx.routes.provide('AdminDashboardPage', () => import('./AdminDashboardPage'));
  },
});
