// The roles admin screens: the list, create, edit, delete and a role's permissions. Every route is
// guarded by the kernel from plugin.json (admin role + permission) before any chunk is fetched.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'admin-roles',
  setup(ctx) {
    ctx.routes.provide('RolesPage', () => import('./RolesPage'));
    ctx.routes.provide('RoleCreatePage', () => import('./RoleCreatePage'));
    ctx.routes.provide('RoleEditPage', () => import('./RoleEditPage'));
    ctx.routes.provide('RoleDeletePage', () => import('./RoleDeletePage'));
    ctx.routes.provide('RolePermissionsPage', () => import('./RolePermissionsPage'));
  },
});
