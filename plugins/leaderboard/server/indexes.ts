// Indexes matching the boards' queries exactly — equality first (`banned`, or the counter's name),
// then the value highest first, then the id that breaks ties — so the top N is read in order straight
// from the index and "how many are ahead of me" is a range scan, never a sort of every account.
// The counters' ranking index (name, value desc, user_id) is the core's own user_counters_rank_index.
import type { ServerPluginMigration } from '@orepanel/sdk/server';

export const LEADERBOARD_INDEXES = [
  { name: 'leaderboard_users_coins_index', table: 'users', columns: ['banned', 'coins desc', 'id'] },
  { name: 'leaderboard_users_minutes_afk_index', table: 'users', columns: ['banned', 'minutes_afk desc', 'id'] },
] as const;

export const LEADERBOARD_MIGRATIONS: Readonly<Record<string, ServerPluginMigration>> = {
  '0001_rank_indexes': {
    async up(db) {
      for (const index of LEADERBOARD_INDEXES)
        await db.schema
          .createIndex(index.name)
          .on(index.table)
          .columns([...index.columns])
          .execute();
    },
    async down(db, kit) {
      for (const index of LEADERBOARD_INDEXES) {
        const drop = db.schema.dropIndex(index.name);
        // MySQL names an index within its table; the others within the schema
        await (kit.dialect === 'mysql' ? drop.on(index.table) : drop).execute();
      }
    },
  },
};
