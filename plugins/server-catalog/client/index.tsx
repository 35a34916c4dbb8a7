// The server-catalog plugin: /mc-admin/locations, /mc-admin/egg-categories and /mc-admin/eggs, each
// with its create, edit and delete pages. Setup only hands the kernel lazy loaders; the kernel
// guards every route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'server-catalog',
  setup(ctx) {
    ctx.routes.provide('LocationsPage', () => import('./locations/LocationsPage'));
    ctx.routes.provide('LocationCreatePage', () => import('./locations/LocationCreatePage'));
    ctx.routes.provide('LocationEditPage', () => import('./locations/LocationEditPage'));
    ctx.routes.provide('LocationDeletePage', () => import('./locations/LocationDeletePage'));
    ctx.routes.provide('CategoriesPage', () => import('./categories/CategoriesPage'));
    ctx.routes.provide('CategoryCreatePage', () => import('./categories/CategoryCreatePage'));
    ctx.routes.provide('CategoryEditPage', () => import('./categories/CategoryEditPage'));
    ctx.routes.provide('CategoryDeletePage', () => import('./categories/CategoryDeletePage'));
    ctx.routes.provide('EggsPage', () => import('./eggs/EggsPage'));
    ctx.routes.provide('EggCreatePage', () => import('./eggs/EggCreatePage'));
    ctx.routes.provide('EggEditPage', () => import('./eggs/EggEditPage'));
    ctx.routes.provide('EggDeletePage', () => import('./eggs/EggDeletePage'));
  },
});
