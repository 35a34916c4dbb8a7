// The server-catalog.catalog service (sdk/server-catalog.ts): what the servers plugin reads to offer
// choices and build servers. Read-only; every row, enabled or not, so the reader decides.
import type { ServerCatalog } from '../contract';
import { catalogCategory, catalogEgg, catalogLocation } from './catalog-rows';
import type { EggCategories } from './egg-categories';
import type { Eggs } from './eggs';
import type { Locations } from './locations';

export function serverCatalog(locations: Locations, categories: EggCategories, eggs: Eggs): ServerCatalog {
  return Object.freeze({
    locations: async () => (await locations.all()).map(catalogLocation),
    location: async (id: number) => {
      const row = await locations.find(id);
      return row ? catalogLocation(row) : null;
    },
    categories: async () => (await categories.all()).map(catalogCategory),
    category: async (id: number) => {
      const row = await categories.find(id);
      return row ? catalogCategory(row) : null;
    },
    eggs: async () => (await eggs.all()).map(catalogEgg),
    egg: async (id: number) => {
      const row = await eggs.find(id);
      return row ? catalogEgg(row) : null;
    },
  });
}
