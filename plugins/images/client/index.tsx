// The image library's screens (list, upload, delete), and its picker for other plugins' image fields
// (the sdk's slot form.image-library): the server catalog renders the slot and never imports this
// plugin, so it simply shows no library while this plugin is off.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'images',
  setup(ctx) {
    ctx.routes.provide('ImagesPage', () => import('./ImagesPage'));
    ctx.routes.provide('ImageCreatePage', () => import('./ImageCreatePage'));
    ctx.routes.provide('ImageDeletePage', () => import('./ImageDeletePage'));
    ctx.slots.provide('ImageLibrarySlot', () => import('./ImageLibrarySlot'));
  },
});
