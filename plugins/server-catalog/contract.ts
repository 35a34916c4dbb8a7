// The server-catalog plugin's contract: the one file of it another plugin may import (only a plugin
// that lists "server-catalog" in its plugin.json `requires`; the import rule of npm run lint holds it).
// It names the service and its types and imports nothing of the plugin itself, so a consumer compiles
// against it without the provider's internals.
//
// server-catalog.catalog — what servers can be created on: the host's locations, egg categories
// (the panel's nests) and eggs, each linked to its panel object, as the server-catalog plugin keeps
// them (admin CRUD at /mc-admin/locations, /egg-categories, /eggs; an import/sync from the panel).
// The servers plugin reads it to offer choices and to build servers; it never writes it. A row
// holding a value no request could have written (an unreadable panel id, slot count or flag) is
// answered with `enabled: false`, so nothing is offered or built from it until it is mended.
import { createServiceRef } from '@orepanel/sdk/server';

export type LocationStatus = 'online' | 'offline' | 'maintenance';

export interface CatalogLocation {
  id: number;
  name: string;
  description: string | null;
  /** the panel's location id (deploy.locations) */
  panelLocationId: number;
  /** how many servers may live here in total (the servers plugin counts the used ones) */
  slots: number;
  status: LocationStatus;
  vipOnly: boolean;
  enabled: boolean;
  image: string | null;
}

export interface CatalogCategory {
  id: number;
  name: string;
  description: string | null;
  /** the panel's nest id */
  panelNestId: number;
  vipOnly: boolean;
  enabled: boolean;
  image: string | null;
}

export interface CatalogEgg {
  id: number;
  categoryId: number;
  name: string;
  description: string | null;
  panelNestId: number;
  panelEggId: number;
  vipOnly: boolean;
  enabled: boolean;
  image: string | null;
}

export interface ServerCatalog {
  /** every location, enabled or not, by name */
  locations(): Promise<CatalogLocation[]>;
  location(id: number): Promise<CatalogLocation | null>;
  /** every category, enabled or not, by name */
  categories(): Promise<CatalogCategory[]>;
  category(id: number): Promise<CatalogCategory | null>;
  /** every egg, enabled or not, by category then name */
  eggs(): Promise<CatalogEgg[]>;
  egg(id: number): Promise<CatalogEgg | null>;
}

export const SERVER_CATALOG = createServiceRef<ServerCatalog>('server-catalog.catalog');
