// The image host's pages: a customer's images and upload (/images), their key, ShareX file and embed
// settings (/images/config), the public report form the viewer links to, and the administrators'
// reports queue. Setup only hands the kernel lazy loaders; the kernel guards every route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'image-hosting',
  setup(ctx) {
    ctx.routes.provide('MyImagesPage', () => import('./MyImagesPage'));
    ctx.routes.provide('ImageConfigPage', () => import('./ImageConfigPage'));
    ctx.routes.provide('ReportImagePage', () => import('./ReportImagePage'));
    ctx.routes.provide('ImageReportsPage', () => import('./ImageReportsPage'));
  },
});
