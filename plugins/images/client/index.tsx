// The image library's screens (list, upload, delete), and the library offered to every image
// field's picker (the server catalog's forms): the sdk's picker asks this source, so the catalog
// never imports this plugin and simply shows no library while it is off.
import { definePlugin, http, provideImageLibrary } from '@orepanel/sdk';
import { imagesUrl, type LibraryImage } from './images-api';

export default definePlugin({
  id: 'images',
  setup(ctx) {
    ctx.routes.provide('ImagesPage', () => import('./ImagesPage'));
    ctx.routes.provide('ImageCreatePage', () => import('./ImageCreatePage'));
    ctx.routes.provide('ImageDeletePage', () => import('./ImageDeletePage'));
    provideImageLibrary({
      permission: 'admin.images.list',
      async list(search, signal) {
        const page = await http.get<{ data: LibraryImage[] }>(imagesUrl.images(), { query: { search, per_page: 48 }, signal });
        return page.data.map(({ id, name, url }) => ({ id, name, url }));
      },
    });
  },
});
