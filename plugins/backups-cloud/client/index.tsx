// The off-site backups screen (/mc-admin/cloud-backups): one page, loaded when first opened.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'backups-cloud',
  setup(ctx) {
    ctx.routes.provide('CloudBackupsPage', () => import('./CloudBackupsPage'));
  },
});
