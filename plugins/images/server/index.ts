// The image library's API: administrators keep named pictures (/api/admin/images) that the server
// catalog's locations, egg categories and eggs show; anyone fetches them (/api/library-images/…).
import { defineServerPlugin } from '@orepanel/sdk/server';
import { ImageLibrary } from './library';
import { registerImageRoutes } from './routes';
import { IMAGE_MIGRATIONS, type ImageTables } from './tables';
import { ImageUsage } from './usage';

export default defineServerPlugin({
  id: 'images',
  migrations: IMAGE_MIGRATIONS,
  register(app, ctx) {
    registerImageRoutes(app, ctx, new ImageLibrary(ctx.db.withTables<ImageTables>(), ctx.dialect), new ImageUsage(ctx));
  },
});
