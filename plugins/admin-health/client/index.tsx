// The health page (/mc-admin/health): the parts the panel depends on, measured when asked.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-health',
  setup(ctx) {
    ctx.routes.provide('HealthPage', () => import('./HealthPage'));
  },
});
