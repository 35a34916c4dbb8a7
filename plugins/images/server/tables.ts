// The image_library table: one row per named picture; the bytes live in the file service under
// file_key. name_key (the name lower-cased) is unique, so two pictures never share a name whatever
// the case, and racing uploads are decided by the database.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export interface ImageLibraryTable {
  id: Generated<number>;
  name: string;
  name_key: string;
  file_key: string;
  type: string;
  size: number;
  width: number | null;
  height: number | null;
  /** the uploader's user id (null: the account is gone, or the row came from a script) */
  created_by: number | null;
  created_at: string;
}

export type ImageTables = { image_library: ImageLibraryTable };
export type ImageDb = Kysely<PluginReadableDatabase & ImageTables>;

export const IMAGE_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_image_library': {
    async up(_db, kit) {
      await kit
        .createTable('image_library')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('name_key', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('file_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .addColumn('created_by', 'integer')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute();
    },
  },
};
