// The server-catalog plugin's API: what servers can be created on — locations, egg categories (the
// panel's nests) and eggs, each linked to its Pterodactyl object — managed by administrators, imported
// from the panel, and offered to the servers plugin as the server-catalog.catalog service.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { SERVER_CATALOG } from '../contract';
import { registerCatalogRoutes } from './catalog-routes';
import { serverCatalog } from './catalog-service';
import { CatalogSync } from './catalog-sync';
import { registerCategoryRoutes } from './category-routes';
import { EggCategories } from './egg-categories';
import { registerEggRoutes } from './egg-routes';
import { Eggs } from './eggs';
import { registerLocationRoutes } from './location-routes';
import { Locations } from './locations';
import { PanelLinks } from './panel-links';
import { CATALOG_MIGRATIONS, type CatalogTables } from './tables';

export default defineServerPlugin({
  id: 'server-catalog',
  migrations: CATALOG_MIGRATIONS,
  register(app, ctx) {
    const db = ctx.db.withTables<CatalogTables>();
    const locations = new Locations(db, ctx);
    const categories = new EggCategories(db, ctx);
    const eggs = new Eggs(db, ctx);
    const panel = new PanelLinks(ctx);
    ctx.services.provide(SERVER_CATALOG, serverCatalog(locations, categories, eggs));
    registerLocationRoutes(app, ctx, locations, panel);
    registerCategoryRoutes(app, ctx, categories, panel);
    registerEggRoutes(app, ctx, eggs, categories, panel);
    registerCatalogRoutes(app, ctx, db, panel, new CatalogSync(ctx, db, panel));
  },
});
