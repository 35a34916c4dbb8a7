// The store plugin's own table: purchases of coins with money. A row is written before the buyer is
// sent to the provider, so the webhook that confirms the payment finds what was sold, to whom and
// for how much — the coins credited come from this row, never from what a request claims.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';
import type { CreditOrderStatus, PaymentProvider } from '../shared/money';

export interface CreditOrdersTable {
  id: Generated<number>;
  /** the random id pages, return addresses and provider metadata carry (row ids are not shown) */
  public_id: string;
  user_id: number;
  provider: PaymentProvider;
  /** the provider's id of the payment: a Stripe Checkout Session id, a PayPal order id */
  provider_ref: string | null;
  /** what the buyer pays, in minor units of `currency` */
  amount_minor: number;
  /** ISO 4217, upper case */
  currency: string;
  /** what the buyer receives, fixed when the order is made */
  coins: number;
  status: CreditOrderStatus;
  /** the last state the provider reported (Stripe payment_status, PayPal capture status) */
  provider_status: string | null;
  created_at: string;
  updated_at: string;
  credited_at: string | null;
}

/** the plugin's tables, for ctx.db.withTables<StoreTables>() */
export type StoreTables = {
  store_credit_orders: CreditOrdersTable;
};

export type StoreDb = Kysely<PluginReadableDatabase & StoreTables>;

const TIMESTAMP = 'varchar(32)';

export const STORE_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_credit_orders': {
    async up(db, kit) {
      await kit
        .createTable('store_credit_orders')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('public_id', 'varchar(40)', (c) => c.notNull().unique())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_ref', 'varchar(255)')
        .addColumn('amount_minor', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'varchar(3)', (c) => c.notNull())
        .addColumn('coins', 'bigint', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_status', 'varchar(32)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('credited_at', TIMESTAMP)
        .execute();
      // one order per provider payment (several NULLs are allowed on all three dialects)
      await db.schema.createIndex('store_credit_orders_provider_ref').on('store_credit_orders').columns(['provider', 'provider_ref']).unique().execute();
      await db.schema.createIndex('store_credit_orders_user').on('store_credit_orders').columns(['user_id', 'created_at']).execute();
    },
    async down(db) {
      await db.schema.dropTable('store_credit_orders').execute();
    },
  },
};
