// The store (reference paths): GET /api/user/store/items lists the packs with what the account owns,
// POST /api/user/store/purchase buys one. A purchase is one wallet debit whose effect raises the
// resource (ctx.accounts.grantResource, a conditional update in the debit's transaction) unless that
// would pass max_<item>: two purchases racing for the last room can never both land, and a refused one
// costs nothing (the debit rolls back with it).
// The client's idempotency key makes a resubmitted purchase a replay that charges nothing.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { PURCHASE_KEY_PATTERN, STORE_ITEM_IDS, type StoreItemId, type StoreItemsResponse, type StorePurchaseResponse } from '../shared/items';
import { signedInUser } from './signed-in-user';
import { readStoreRules } from './store-rules';

const itemSchema = {
  type: 'object',
  required: ['id', 'price', 'quantity', 'owned', 'max'],
  properties: {
    id: { type: 'string' },
    price: { type: 'integer' },
    quantity: { type: 'integer' },
    owned: { type: 'integer' },
    max: { type: 'integer' },
  },
} as const;

const purchaseBody = {
  type: 'object',
  required: ['item', 'idempotency_key'],
  additionalProperties: false,
  properties: {
    item: { type: 'string', enum: [...STORE_ITEM_IDS] },
    // one per submission, made by the page when the buyer confirms; a retry sends the same one
    idempotency_key: { type: 'string', pattern: PURCHASE_KEY_PATTERN },
  },
} as const;

interface PurchaseBody {
  item: StoreItemId;
  idempotency_key: string;
}

export function registerPurchaseRoutes(app: FastifyInstance, ctx: ServerPluginContext): void {
  const { accounts, wallet, httpError } = ctx;

  const holdings = async (userId: number) => {
    const resources = await accounts.resources(userId);
    if (!resources) throw httpError(404, 'USER_NOT_FOUND', 'That user does not exist.');
    return { ...resources, coins: await wallet.balance(userId) };
  };

  app.get(
    '/user/store/items',
    {
      config: { auth: true, flag: 'store_enabled' },
      schema: {
        response: {
          200: { type: 'object', required: ['balance', 'items'], properties: { balance: { type: 'integer' }, items: { type: 'array', items: itemSchema } } },
        },
      },
    },
    async (request): Promise<StoreItemsResponse> => {
      const userId = (await signedInUser(ctx, request)).id;
      const [rules, row] = await Promise.all([readStoreRules(ctx.settings), holdings(userId)]);
      return {
        balance: Number(row.coins),
        items: rules.filter((r) => !r.blocked).map((r) => ({ id: r.id, price: r.price, quantity: r.quantity, owned: Number(row[r.id]), max: r.max })),
      };
    },
  );

  app.post<{ Body: PurchaseBody }>(
    '/user/store/purchase',
    {
      config: { auth: true, flag: 'store_enabled' },
      schema: {
        body: purchaseBody,
        response: {
          200: {
            type: 'object',
            required: ['success', 'replayed', 'item', 'balance', 'owned'],
            properties: { success: { type: 'boolean' }, replayed: { type: 'boolean' }, item: { type: 'string' }, balance: { type: 'integer' }, owned: { type: 'integer' } },
          },
        },
      },
    },
    async (request): Promise<StorePurchaseResponse> => {
      const userId = (await signedInUser(ctx, request)).id;
      const { item, idempotency_key: key } = request.body;
      const rules = (await readStoreRules(ctx.settings)).find((r) => r.id === item);
      if (!rules || rules.blocked) throw httpError(409, 'ITEM_UNAVAILABLE', 'This item is not sold at the moment.', 'item');
      const { price, quantity, max } = rules;
      const result = await wallet.debit({
        userId,
        amount: price,
        // the item is part of the kind: a key reused for another item is an IDEMPOTENCY_CONFLICT
        kind: `store.${item}`,
        reference: `${item} +${quantity}`,
        idempotencyKey: `store:${userId}:${key}`,
        effect: async (trx) => {
          if (!(await accounts.grantResource(userId, { resource: item, amount: quantity, max, trx }))) {
            throw httpError(409, 'STORE_MAX_REACHED', `You already have the most of this item an account may own (${max}).`, 'item');
          }
        },
      });
      const row = await holdings(userId);
      return { success: true, replayed: result.replayed, item, balance: Number(row.coins), owned: Number(row[item]) };
    },
  );
}
