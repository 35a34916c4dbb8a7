// The earn-links plugin's tables — all of its state lives here, none in memory, so a restart or a
// second instance changes nothing:
// - l4r_tokens: one row per started link. Only the SHA-256 of the token is stored (the token itself
//   travels in the callback address), with when it may be redeemed at the earliest, when it expires
//   and its state (pending → redeemed, or replaced by a newer start). Redeeming is a conditional
//   update `state = 'pending'`, inside the wallet movement that pays: one payment per token.
// - l4r_quotas: per user and provider, today's count and the last completion, moved by one
//   conditional update in the same movement — so the daily limit and the cooldown hold however many
//   tokens are redeemed at once.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export type LinkTokenState = 'pending' | 'redeemed' | 'replaced';

export interface LinkTokensTable {
  id: Generated<number>;
  user_id: number;
  provider: string;
  /** SHA-256 (hex) of the token */
  token_hash: string;
  created_at: string;
  /** created_at + the minimum time to complete: redeeming earlier is refused */
  not_before: string;
  expires_at: string;
  state: LinkTokenState;
  redeemed_at: string | null;
  /** what the redemption paid */
  coins: number | null;
}

export interface LinkQuotasTable {
  user_id: number;
  provider: string;
  /** the UTC day `day_count` counts, YYYY-MM-DD */
  day: string;
  day_count: number;
  last_completed_at: string | null;
}

/** the plugin's tables, for ctx.db.withTables<LinkTables>() */
export type LinkTables = {
  l4r_tokens: LinkTokensTable;
  l4r_quotas: LinkQuotasTable;
};

export type LinkDb = Kysely<PluginReadableDatabase & LinkTables>;

const TIMESTAMP = 'varchar(32)';

export const LINK_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_tokens_and_quotas': {
    async up(db, kit) {
      await kit
        .createTable('l4r_tokens')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('not_before', TIMESTAMP, (c) => c.notNull())
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) => c.notNull())
        .addColumn('redeemed_at', TIMESTAMP)
        .addColumn('coins', 'bigint')
        .execute();
      await db.schema.createIndex('l4r_tokens_user_provider_index').on('l4r_tokens').columns(['user_id', 'provider', 'state']).execute();

      await kit
        .createTable('l4r_quotas')
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(32)', (c) => c.notNull())
        .addColumn('day', 'varchar(10)', (c) => c.notNull())
        .addColumn('day_count', 'integer', (c) => c.notNull())
        .addColumn('last_completed_at', TIMESTAMP)
        .addPrimaryKeyConstraint('l4r_quotas_pk', ['user_id', 'provider'])
        .execute();
    },
  },
};
