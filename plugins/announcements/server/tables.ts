// The announcements plugin's tables. An announcement is a draft while publish_at is null; it is
// scheduled until publish_at, live until expire_at (null: never expires), expired after. Tags and the
// audience are kept as delimited lists (",news,maintenance," and ",3,5,"; "" = everyone) so that a
// filter is one portable LIKE on a value whose characters the schema limits to [a-z0-9-] and digits.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';
import type { Severity } from '../shared/wire';

export { SEVERITIES, type Severity } from '../shared/wire';

export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  /** the short description shown on cards */
  summary: string;
  /** Markdown, rendered safely on the server (markdown.ts) */
  body: string;
  /** ",tag,tag," or "" */
  tags: string;
  severity: Severity;
  /** 1 or 0 */
  pinned: number;
  /** 1: also mail it to the audience once live (announcement-mail.ts) */
  mail: Generated<number>;
  /** the highest account id already mailed (the mail goes out in batches, in id order) */
  mailed_up_to: Generated<number>;
  /** 1 once every batch went out */
  mail_done: Generated<number>;
  /** ",roleId,roleId," or "" for everyone */
  audience: string;
  publish_at: string | null;
  expire_at: string | null;
  /** null once the author's account is gone */
  author_id: number | null;
  created_at: string;
  updated_at: string;
}

/** An image of an announcement; the file lives in ctx.files under file_key. */
export interface AnnouncementImagesTable {
  id: Generated<number>;
  announcement_id: number;
  file_key: string;
  name: string;
  type: string;
  size: number;
  created_at: string;
}

/** One account's state of one announcement: when it read it, and when it closed its banner. */
export interface AnnouncementReadsTable {
  id: Generated<number>;
  announcement_id: number;
  user_id: number;
  read_at: string | null;
  dismissed_at: string | null;
}

export type AnnouncementTables = {
  announcements: AnnouncementsTable;
  announcement_images: AnnouncementImagesTable;
  announcement_reads: AnnouncementReadsTable;
};

export type AnnouncementDb = Kysely<PluginReadableDatabase & AnnouncementTables>;

const TIMESTAMP = 'varchar(32)';

export const ANNOUNCEMENT_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_announcements': {
    async up(db, kit) {
      await kit
        .createTable('announcements')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('title', 'varchar(160)', (c) => c.notNull())
        .addColumn('summary', 'varchar(300)', (c) => c.notNull().defaultTo(''))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('tags', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('severity', 'varchar(16)', (c) => c.notNull())
        .addColumn('pinned', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('audience', 'varchar(400)', (c) => c.notNull().defaultTo(''))
        .addColumn('publish_at', TIMESTAMP)
        .addColumn('expire_at', TIMESTAMP)
        .addColumn('author_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcements_publish_index').on('announcements').columns(['publish_at', 'expire_at']).execute();

      await kit
        .createTable('announcement_images')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('file_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(160)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('announcement_images_announcement_index').on('announcement_images').column('announcement_id').execute();

      await kit
        .createTable('announcement_reads')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('announcement_id', 'integer', (c) => c.notNull().references('announcements.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('read_at', TIMESTAMP)
        .addColumn('dismissed_at', TIMESTAMP)
        .addUniqueConstraint('announcement_reads_unique', ['announcement_id', 'user_id'])
        .execute();
    },
  },
  '0002_announcement_mail': {
    async up(db) {
      await db.schema
        .alterTable('announcements')
        .addColumn('mail', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('announcements')
        .addColumn('mailed_up_to', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable('announcements')
        .addColumn('mail_done', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
};
