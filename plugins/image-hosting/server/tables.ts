// The image host's tables. An account row holds the customer's upload key twice: as a SHA-256 hash
// (how an upload finds its account: one indexed lookup, so no comparison of the key itself leaks
// time) and sealed with the panel's SECRET_KEY (so its owner can see it again on /images/config; a
// database dump alone does not reveal it). It also counts the bytes the customer's images take, so
// the quota is one conditional update that two uploads at once cannot both pass.
import type { Generated } from 'kysely';
import type { ServerPluginMigration } from '@orepanel/sdk/server';
import type { ReportReason, ReportStatus } from '../shared/wire';

export interface ImageHostingAccountsTable {
  user_id: number;
  /** SHA-256 of the upload key, hex */
  key_hash: string;
  /** the upload key sealed with ctx.secrets */
  key_sealed: string;
  /** bytes of the customer's stored images */
  used_bytes: Generated<number>;
  /** 1: the viewer link answers an Open Graph page (a Discord card) instead of the bare file */
  embed_enabled: Generated<number>;
  embed_title: Generated<string>;
  embed_description: Generated<string>;
  /** #rrggbb */
  embed_color: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface ImageHostingImagesTable {
  id: Generated<number>;
  user_id: number;
  /** the file service's key (private; never shown) */
  file_key: string;
  /** the public, random and unguessable name of the viewer link */
  name: string;
  /** the uploader's file name, sanitised by the file service (display only) */
  original_name: string;
  type: string;
  size: number;
  created_at: string;
}

export { REPORT_REASONS, REPORT_STATUSES, type ReportReason, type ReportStatus } from '../shared/wire';

export interface ImageHostingReportsTable {
  id: Generated<number>;
  /** null once the image is gone (resolved reports keep their record) */
  image_id: number | null;
  /** the viewer name reported, kept for the record after the image goes */
  image_name: string;
  reason: ReportReason;
  details: string;
  reporter_ip: string | null;
  status: ReportStatus;
  handled_by: number | null;
  handled_at: string | null;
  created_at: string;
}

/** the plugin's tables, for ctx.db.withTables<ImageHostingTables>() */
export type ImageHostingTables = {
  image_hosting_accounts: ImageHostingAccountsTable;
  image_hosting_images: ImageHostingImagesTable;
  image_hosting_reports: ImageHostingReportsTable;
};

const TIMESTAMP = 'varchar(32)';

export const IMAGE_HOSTING_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_image_hosting': {
    async up(db, kit) {
      await kit
        .createTable('image_hosting_accounts')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('key_sealed', 'varchar(255)', (c) => c.notNull())
        .addColumn('used_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('embed_enabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('embed_title', 'varchar(100)', (c) => c.notNull().defaultTo(''))
        .addColumn('embed_description', 'varchar(300)', (c) => c.notNull().defaultTo(''))
        .addColumn('embed_color', 'varchar(7)', (c) => c.notNull().defaultTo('#5865f2'))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await kit
        .createTable('image_hosting_images')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        // an account's rows go with it; its files are deleted on user.deleting (index.ts)
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('file_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('original_name', 'varchar(160)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('image_hosting_images_user_index').on('image_hosting_images').columns(['user_id', 'created_at']).execute();
      await kit
        .createTable('image_hosting_reports')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('image_id', 'integer', (c) => c.references('image_hosting_images.id').onDelete('set null'))
        .addColumn('image_name', 'varchar(32)', (c) => c.notNull())
        .addColumn('reason', 'varchar(16)', (c) => c.notNull())
        .addColumn('details', 'varchar(500)', (c) => c.notNull().defaultTo(''))
        .addColumn('reporter_ip', 'varchar(64)')
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('handled_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('handled_at', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('image_hosting_reports_status_index').on('image_hosting_reports').columns(['status', 'id']).execute();
    },
  },
};
