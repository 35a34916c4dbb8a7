// The redirect links screens: the list, create, edit and delete. A change is announced so the
// navigation shows the links as they are now.
import { definePlugin } from '@orepanel/sdk';
import { connectLinkEvents } from './link-events';

export default definePlugin({
  id: 'redirect-links',
  setup(ctx) {
    ctx.routes.provide('RedirectLinksPage', () => import('./RedirectLinksPage'));
    ctx.routes.provide('RedirectLinkCreatePage', () => import('./RedirectLinkCreatePage'));
    ctx.routes.provide('RedirectLinkEditPage', () => import('./RedirectLinkEditPage'));
    ctx.routes.provide('RedirectLinkDeletePage', () => import('./RedirectLinkDeletePage'));
    // the sidebar's "Links" section (the kernel renders the nav.sections slot)
    ctx.slots.provide('RedirectLinksNav', () => import('./RedirectLinksNav'));
    connectLinkEvents(ctx.events);
  },
});
