// The earn-afk plugin's table: what AFK paid each user on each UTC day. The daily cap is enforced by
// a conditional update of this row (`coins + amount <= cap`) inside the wallet movement that pays the
// minute, so however many instances pay at once a day's total can never pass the cap.
import type { Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export interface AfkDaysTable {
  user_id: number;
  /** the UTC day: whole days since 1970-01-01 */
  day: number;
  coins: number;
  minutes: number;
}

/** the plugin's tables, for ctx.db.withTables<AfkTables>() */
export type AfkTables = { afk_days: AfkDaysTable };

export type AfkDb = Kysely<PluginReadableDatabase & AfkTables>;

export const AFK_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_afk_days': {
    async up(_db, kit) {
      await kit
        .createTable('afk_days')
        .addColumn('user_id', 'integer', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('coins', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('minutes', 'integer', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('afk_days_pk', ['user_id', 'day'])
        .execute();
    },
  },
};
