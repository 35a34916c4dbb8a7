// The admin API under /api/admin: a core module (it drives the plugin host and the role cache,
// which plugins cannot reach) — users, roles and permissions, settings and plugins. The switchable
// admin areas (dashboard, health, mail templates, redirect links) are plugins with their own routes. Every route carries its permission as a route option, so the route
// registry lists it and the authz matrix test checks it.
import type { FastifyInstance } from 'fastify';
import { hostPermissionCatalogue } from '../auth/permission-catalogue';
import type { AdminServices } from './admin-context';
import { registerAdminPlugins } from './plugins';
import { registerAdminRoles } from './roles';
import { errorResponses } from './schemas';
import { registerAdminSettings } from './settings';
import { registerAdminUserCoins } from './user-coins';
import { registerAdminUsers } from './users';

export type { AdminServices } from './admin-context';

const permissionList = {
  type: 'object',
  required: ['data'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          description: { type: 'string' },
          group: { type: 'string' },
          source: { type: 'string' },
          // false while its plugin is off (disabled, or waiting for one it requires): still grantable,
          // a role keeps it, its screens and routes are just not there now
          enabled: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export async function adminRoutes(app: FastifyInstance, services: AdminServices): Promise<void> {
  await app.register(
    async (scope) => {
      scope.get('/permissions', { config: { permission: 'admin.permissions.list' }, schema: { response: { 200: permissionList, ...errorResponses } } }, async () => ({
        // the core's and every loaded plugin's (a disabled plugin's grants stay meaningful), each
        // saying whether what it guards is there now (the role screen marks a switched-off plugin's)
        data: hostPermissionCatalogue(services.plugins).map((entry) => ({ ...entry, enabled: entry.source === 'core' || services.plugins.isActive(entry.source) })),
      }));
      registerAdminUsers(scope, services);
      registerAdminUserCoins(scope, services);
      registerAdminRoles(scope, services);
      registerAdminSettings(scope, services);
      registerAdminPlugins(scope, services);
    },
    { prefix: '/api/admin' },
  );
}
