// The earn-j4r plugin's tables: the guilds an administrator lists, and one reward row per guild
// paid. A reward is unique per (user, guild) — the wallet's idempotency key j4r:<guild>:<user>
// says the same — and per (Discord account, guild): a Discord account that was unlinked and linked
// to another panel account cannot earn the same guild again. Rewards name guilds by their Discord
// id, not by row, so deleting a guild and adding it back pays nobody twice; a deleted user's rows
// stay (user_id null) for the same reason.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export interface J4rGuildsTable {
  id: Generated<number>;
  /** the Discord guild id (snowflake), unique */
  guild_id: string;
  name: string;
  invite_url: string;
  /** https address of the guild's icon; null: none */
  icon_url: string | null;
  /** coins for joining */
  coins: number;
  /** 1 or 0: a disabled guild is not offered and not paid */
  enabled: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface J4rRewardsTable {
  id: Generated<number>;
  /** null once the account is deleted (the row keeps the Discord account from earning again) */
  user_id: number | null;
  guild_id: string;
  /** the Discord account the check ran as */
  discord_user_id: string;
  /** what was paid (a guild's coins may change later) */
  coins: number;
  created_at: string;
}

/** the plugin's tables, for ctx.db.withTables<J4rTables>() */
export type J4rTables = {
  j4r_guilds: J4rGuildsTable;
  j4r_rewards: J4rRewardsTable;
};

export type J4rDb = Kysely<PluginReadableDatabase & J4rTables>;

const TIMESTAMP = 'varchar(32)';

export const J4R_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_guilds_and_rewards': {
    async up(db, kit) {
      await kit
        .createTable('j4r_guilds')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('guild_id', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('invite_url', 'varchar(255)', (c) => c.notNull())
        .addColumn('icon_url', 'varchar(500)')
        .addColumn('coins', 'bigint', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('j4r_rewards')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('guild_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('discord_user_id', 'varchar(32)', (c) => c.notNull())
        .addColumn('coins', 'bigint', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addUniqueConstraint('j4r_rewards_user_guild_unique', ['user_id', 'guild_id'])
        .addUniqueConstraint('j4r_rewards_discord_guild_unique', ['discord_user_id', 'guild_id'])
        .execute();
      await db.schema.createIndex('j4r_rewards_guild_index').on('j4r_rewards').column('guild_id').execute();
    },
  },
};
