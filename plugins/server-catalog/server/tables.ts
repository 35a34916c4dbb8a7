// The server catalog's tables: locations, egg categories (the panel's nests) and eggs, each linked
// to its panel object by the panel's id. The links are unique, so an import racing another import
// (or an administrator) adds a panel object once; an egg names its category by row (a foreign key
// without cascade: a category is deleted only after its eggs) and repeats the category's nest id,
// which the API keeps equal to the category's.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';
import type { LocationStatusName } from '../shared/catalog-rules';

export interface CatalogLocationsTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  panel_location_id: number;
  /** servers allowed here in total (the servers plugin counts the used ones) */
  slots: number;
  status: LocationStatusName;
  /** 1 or 0 */
  vip_only: number;
  /** 1 or 0 */
  enabled: number;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface CatalogEggCategoriesTable {
  id: Generated<number>;
  name: string;
  description: string | null;
  panel_nest_id: number;
  vip_only: number;
  enabled: number;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface CatalogEggsTable {
  id: Generated<number>;
  category_id: number;
  name: string;
  description: string | null;
  /** always the category's panel_nest_id (the panel addresses an egg by nest and id) */
  panel_nest_id: number;
  panel_egg_id: number;
  vip_only: number;
  enabled: number;
  image: string | null;
  created_at: string;
  updated_at: string;
}

/** the plugin's tables, for ctx.db.withTables<CatalogTables>() */
export type CatalogTables = {
  catalog_locations: CatalogLocationsTable;
  catalog_egg_categories: CatalogEggCategoriesTable;
  catalog_eggs: CatalogEggsTable;
};

export type CatalogDb = Kysely<PluginReadableDatabase & CatalogTables>;

const TIMESTAMP = 'varchar(32)';

export const CATALOG_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_locations_categories_eggs': {
    async up(db, kit) {
      await kit
        .createTable('catalog_locations')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('panel_location_id', 'integer', (c) => c.notNull().unique())
        .addColumn('slots', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('online'))
        .addColumn('vip_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('image', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('catalog_egg_categories')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('panel_nest_id', 'integer', (c) => c.notNull().unique())
        .addColumn('vip_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('image', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('catalog_eggs')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        // no cascade: deleting a category that still has eggs is refused (409), never silent
        .addColumn('category_id', 'integer', (c) => c.notNull().references('catalog_egg_categories.id'))
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('panel_nest_id', 'integer', (c) => c.notNull())
        .addColumn('panel_egg_id', 'integer', (c) => c.notNull().unique())
        .addColumn('vip_only', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('image', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('catalog_eggs_category_index').on('catalog_eggs').column('category_id').execute();
    },
  },
};
