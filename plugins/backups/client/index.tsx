// The backups screen (/mc-admin/backups): one page, everything on it happens in place or in dialogs.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'backups',
  setup(ctx) {
    ctx.routes.provide('BackupsPage', () => import('./BackupsPage'));
  },
});
