// The users admin screens: the list, an account's edit screen (its coins, ban and review flags cards)
// and its deletion. Every route is guarded by the kernel from plugin.json (admin role + permission)
// before any of these chunks is fetched; the server checks every call again.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-users',
  setup(ctx) {
    ctx.routes.provide('UsersPage', () => import('./UsersPage'));
    ctx.routes.provide('UserEditPage', () => import('./UserEditPage'));
    ctx.routes.provide('UserDeletePage', () => import('./UserDeletePage'));
  },
});
