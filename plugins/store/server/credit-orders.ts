// Purchases of coins with money: made before the buyer leaves for the provider, credited exactly
// once when the provider confirms the payment. Crediting is one wallet movement whose idempotency
// key is the provider's payment id (`stripe:<session id>`, `paypal:<order id>`), so a webhook
// delivered three times, or a webhook racing a capture, moves coins once; its effect marks the
// order credited in the same transaction, so one order is never paid twice under two keys either.
import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { PluginWallet } from '@orepanel/sdk/server';
import type { CreditOrderStatus, CreditOrderView, PaymentProvider } from '../shared/money';
import type { CreditOrdersTable, StoreDb, StoreTables } from './tables';

export type CreditOrder = Selectable<CreditOrdersTable>;

export interface NewCreditOrder {
  userId: number;
  provider: PaymentProvider;
  amountMinor: number;
  currency: string;
  coins: number;
}

export type CreditOutcome = 'credited' | 'already-credited';

/** Thrown inside the crediting transaction when the order had been credited under another key. */
class OrderAlreadyCredited extends Error {}

function normalize(row: CreditOrder): CreditOrder {
  // bigint columns come back as text from PostgreSQL
  return { ...row, id: Number(row.id), user_id: Number(row.user_id), amount_minor: Number(row.amount_minor), coins: Number(row.coins) };
}

export function orderView(order: CreditOrder): CreditOrderView {
  return {
    id: order.public_id,
    provider: order.provider,
    status: order.status,
    amount_minor: order.amount_minor,
    currency: order.currency,
    coins: order.coins,
    created_at: order.created_at,
    credited_at: order.credited_at,
  };
}

export class CreditOrders {
  constructor(
    private readonly db: StoreDb,
    private readonly wallet: PluginWallet,
    /** told once per order, after its coins were credited (the audit log) */
    private readonly onCredited: (order: CreditOrder) => Promise<void> = async () => undefined,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(input: NewCreditOrder): Promise<CreditOrder> {
    const at = this.now().toISOString();
    const publicId = `co_${randomBytes(16).toString('base64url')}`;
    await this.db
      .insertInto('store_credit_orders')
      .values({
        public_id: publicId,
        user_id: input.userId,
        provider: input.provider,
        provider_ref: null,
        amount_minor: input.amountMinor,
        currency: input.currency,
        coins: input.coins,
        status: 'created',
        provider_status: null,
        created_at: at,
        updated_at: at,
        credited_at: null,
      })
      .execute();
    const order = await this.byPublicId(publicId);
    if (!order) throw new Error('credit order vanished after insert');
    return order;
  }

  async byPublicId(publicId: string): Promise<CreditOrder | null> {
    const row = await this.db.selectFrom('store_credit_orders').selectAll().where('public_id', '=', publicId).executeTakeFirst();
    return row ? normalize(row) : null;
  }

  async byProviderRef(provider: PaymentProvider, providerRef: string): Promise<CreditOrder | null> {
    const row = await this.db.selectFrom('store_credit_orders').selectAll().where('provider', '=', provider).where('provider_ref', '=', providerRef).executeTakeFirst();
    return row ? normalize(row) : null;
  }

  /** How many orders the user started since `since` (to stop a script opening sessions by the thousand). */
  async startedSince(userId: number, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('store_credit_orders')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('created_at', '>=', since.toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The provider accepted the order: the buyer is on their way to pay `providerRef`. */
  async opened(order: CreditOrder, providerRef: string): Promise<CreditOrder> {
    await this.db
      .updateTable('store_credit_orders')
      .set({ provider_ref: providerRef, status: 'open', updated_at: this.now().toISOString() })
      .where('id', '=', order.id)
      .where('status', '=', 'created')
      .execute();
    return { ...order, provider_ref: providerRef, status: 'open' };
  }

  async failed(order: CreditOrder, providerStatus: string | null): Promise<void> {
    await this.setStatus(order, 'failed', providerStatus);
  }

  /** Remembers what the provider last said about a payment that is not complete yet. */
  async noteProviderStatus(order: CreditOrder, providerStatus: string): Promise<void> {
    await this.db
      .updateTable('store_credit_orders')
      .set({ provider_status: providerStatus.slice(0, 32), updated_at: this.now().toISOString() })
      .where('id', '=', order.id)
      .where('status', '!=', 'credited')
      .execute();
  }

  private async setStatus(order: CreditOrder, status: CreditOrderStatus, providerStatus: string | null): Promise<void> {
    await this.db
      .updateTable('store_credit_orders')
      .set({ status, provider_status: providerStatus?.slice(0, 32) ?? null, updated_at: this.now().toISOString() })
      .where('id', '=', order.id)
      .where('status', '!=', 'credited')
      .execute();
  }

  /**
   * Credits the order's coins to its buyer once: `paymentId` is the provider's id of the payment.
   * Only call this with a payment the provider itself confirmed (a verified webhook, a capture).
   */
  async credit(order: CreditOrder, paymentId: string, providerStatus: string): Promise<CreditOutcome> {
    const at = this.now().toISOString();
    try {
      const result = await this.wallet.credit({
        userId: order.user_id,
        amount: order.coins,
        kind: `credits.${order.provider}`,
        reference: order.public_id,
        idempotencyKey: `${order.provider}:${paymentId}`,
        effect: async (trx) => {
          const marked = await trx
            .withTables<StoreTables>()
            .updateTable('store_credit_orders')
            .set({ status: 'credited', provider_status: providerStatus.slice(0, 32), credited_at: at, updated_at: at })
            .where('id', '=', order.id)
            .where('status', '!=', 'credited')
            .executeTakeFirst();
          if (Number(marked.numUpdatedRows) !== 1) throw new OrderAlreadyCredited();
        },
      });
      if (result.replayed) return 'already-credited';
      await this.onCredited(order);
      return 'credited';
    } catch (error) {
      if (error instanceof OrderAlreadyCredited) return 'already-credited';
      throw error;
    }
  }
}
