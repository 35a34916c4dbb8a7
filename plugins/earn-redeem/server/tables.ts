// The earn-redeem plugin's tables. A code counts its redemptions in `redeemed`, raised only by a
// conditional update (`redeemed < uses`) inside the wallet movement that pays the coins, so the
// count can never pass `uses` however many people redeem at once; a redemption row per (code, user),
// unique, makes "once per user" a fact of the database rather than of a check before it.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export interface RedeemCodesTable {
  id: Generated<number>;
  /** as the administrator typed it (shown) */
  code: string;
  /** lower-cased code: unique, what a typed code is compared with */
  code_key: string;
  /** coins one redemption gives */
  coins: number;
  /** redemptions allowed in total */
  uses: number;
  /** redemptions made so far (never above uses) */
  redeemed: Generated<number>;
  /** 1 or 0 */
  enabled: Generated<number>;
  /** ISO-8601 UTC; null: never expires */
  expires_at: string | null;
  /** the administrator who made it (null once that account is gone) */
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface RedeemRedemptionsTable {
  id: Generated<number>;
  code_id: number;
  user_id: number;
  /** what this redemption paid (a code's coins may change later) */
  coins: number;
  created_at: string;
}

/** the plugin's tables, for ctx.db.withTables<RedeemTables>() */
export type RedeemTables = {
  redeem_codes: RedeemCodesTable;
  redeem_redemptions: RedeemRedemptionsTable;
};

export type RedeemDb = Kysely<PluginReadableDatabase & RedeemTables>;

const TIMESTAMP = 'varchar(32)';

export const REDEEM_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_codes_and_redemptions': {
    async up(db, kit) {
      await kit
        .createTable('redeem_codes')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('code', 'varchar(64)', (c) => c.notNull())
        .addColumn('code_key', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('coins', 'bigint', (c) => c.notNull())
        .addColumn('uses', 'integer', (c) => c.notNull())
        .addColumn('redeemed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('expires_at', TIMESTAMP)
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('redeem_redemptions')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('code_id', 'integer', (c) => c.notNull().references('redeem_codes.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('coins', 'bigint', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        // one redemption per user per code, whatever races above it
        .addUniqueConstraint('redeem_redemptions_code_user_unique', ['code_id', 'user_id'])
        .execute();
      await db.schema.createIndex('redeem_redemptions_user_index').on('redeem_redemptions').column('user_id').execute();
    },
  },
};
