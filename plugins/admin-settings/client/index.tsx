// The panel's settings screen. Its route is guarded by the kernel from plugin.json (admin role +
// permission) before the chunk is fetched; the server checks every change again.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-settings',
  setup(ctx) {
    ctx.routes.provide('SettingsPage', () => import('./SettingsPage'));
  },
});
