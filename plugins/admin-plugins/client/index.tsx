// The plugins screen and a plugin's settings screen. A core plugin: the panel's plugins can always be
// switched back on from here.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-plugins',
  setup(ctx) {
    ctx.routes.provide('PluginsPage', () => import('./PluginsPage'));
    ctx.routes.provide('PluginConfigPage', () => import('./PluginConfigPage'));
  },
});
