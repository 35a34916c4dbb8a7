// The redirect_links table: the plugin's own. It was born in core migration 0006_redirect_links,
// before this feature was a plugin, and a shipped migration is never edited or removed — so every
// panel, fresh or upgraded, already has it when this plugin's migrations run (the core's run first).
// The plugin's 0001 migration creates it only if it is missing: it states the table's shape where
// the feature lives, takes it over on every existing install without touching a row, and keeps the
// feature whole should a future core stop creating it (same columns on SQLite, PostgreSQL and
// MariaDB: the kit's autoId and table options).
import type { Generated } from 'kysely';
import type { ServerPluginMigration } from '@orepanel/sdk/server';

export interface RedirectLinksTable {
  id: Generated<number>;
  name: string;
  url: string;
  icon: string | null;
  /** `sort_order`, because ORDER is a keyword */
  sort_order: number;
  created_at: string;
  updated_at: string;
}

/** the plugin's tables, for ctx.db.withTables<RedirectLinkTables>() */
export type RedirectLinkTables = { redirect_links: RedirectLinksTable };

const TIMESTAMP = 'varchar(32)';

export const REDIRECT_LINK_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_redirect_links': {
    async up(_db, kit) {
      await kit
        .createTable('redirect_links')
        .ifNotExists()
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('url', 'varchar(2048)', (c) => c.notNull())
        .addColumn('icon', 'varchar(32)')
        .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
    },
  },
};
