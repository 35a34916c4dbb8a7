// The profiles plugin: /profile/{uuid} (with the 3D skin viewer) and /lookup. Setup only hands the
// kernel lazy loaders, so skinview3d is fetched only when a profile is opened.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'profiles',
  setup(ctx) {
    ctx.routes.provide('ProfilePage', () => import('./ProfilePage'));
    ctx.routes.provide('LookupPage', () => import('./LookupPage'));
  },
});
