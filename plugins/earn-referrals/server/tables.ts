// The earn-referrals plugin's tables. One code per user (the user id is the key, the code unique),
// and one referral row per referred account (referred_id unique): "one referrer per user" is a fact
// of the database, whatever races above it. Each side's coins are recorded on the row by the wallet
// movement that pays them (null until paid), so a page can show what was earned without reading the
// ledger of someone else.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export interface ReferralCodesTable {
  user_id: number;
  /** upper-case letters and digits; what ?ref= carries */
  code: string;
  created_at: string;
}

export interface ReferralsTable {
  id: Generated<number>;
  /** who invited (the owner of the code) */
  referrer_id: number;
  /** the account that registered with the code */
  referred_id: number;
  /** the code as it was used */
  code: string;
  created_at: string;
  /** coins the new account received; null until paid */
  redeemer_coins: number | null;
  redeemer_paid_at: string | null;
  /** coins the referrer received; null until paid (perhaps waiting for the e-mail verification) */
  referrer_coins: number | null;
  referrer_paid_at: string | null;
}

/** the plugin's tables, for ctx.db.withTables<ReferralTables>() */
export type ReferralTables = {
  referral_codes: ReferralCodesTable;
  referrals: ReferralsTable;
};

export type ReferralDb = Kysely<PluginReadableDatabase & ReferralTables>;

const TIMESTAMP = 'varchar(32)';

export const REFERRAL_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_codes_and_referrals': {
    async up(db, kit) {
      await kit
        .createTable('referral_codes')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('referrals')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('referrer_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // one referrer per account
        .addColumn('referred_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
        .addColumn('code', 'varchar(16)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('redeemer_coins', 'bigint')
        .addColumn('redeemer_paid_at', TIMESTAMP)
        .addColumn('referrer_coins', 'bigint')
        .addColumn('referrer_paid_at', TIMESTAMP)
        .execute();
      await db.schema.createIndex('referrals_referrer_index').on('referrals').columns(['referrer_id', 'id']).execute();
    },
  },
};
