// The dashboard plugin: the customer's home page. Other plugins add to it through the
// `dashboard.announcements` and `dashboard.widgets` slots.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'dashboard',
  setup(ctx) {
    ctx.routes.provide('DashboardPage', () => import('./DashboardPage'));
  },
});
