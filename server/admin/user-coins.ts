// Coins of one account, for administrators: its ledger, and adjustments with a reason — through the
// wallet like every other movement, so the balance and the ledger never disagree.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { httpError } from '../../sdk/server';
import { MAX_MOVEMENT } from '../wallet/wallet';
import { presentEntry, walletEntrySchema } from '../wallet/entry-schema';
import { actorOf, mayActOnRole, type AdminServices } from './admin-context';
import { errorResponses, pageMeta, pageMetaSchema, pagingQuery, uuidParams, type PagingQuery } from './schemas';

const adjustBody = {
  type: 'object',
  required: ['amount', 'reason'],
  additionalProperties: false,
  properties: {
    // signed: a positive amount credits, a negative one debits
    amount: { type: 'integer', minimum: -MAX_MOVEMENT, maximum: MAX_MOVEMENT },
    reason: { type: 'string', minLength: 3, maxLength: 255, pattern: '\\S' },
    // the form sends one per submission, so a double click or a retried request adjusts once
    idempotency_key: { type: 'string', minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
  },
} as const;

interface AdjustBody {
  amount: number;
  reason: string;
  idempotency_key?: string;
}

export function registerAdminUserCoins(app: FastifyInstance, services: AdminServices): void {
  const { database, sessions, roles, audit, wallet } = services;
  const db = database.db;

  const findUser = async (uuid: string) => {
    const row = await db.selectFrom('users').select(['id', 'role_id']).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
    if (!row) throw httpError(404, 'USER_NOT_FOUND', 'There is no such user.');
    return row;
  };

  app.get<{ Params: { uuid: string }; Querystring: PagingQuery }>(
    '/users/:uuid/transactions',
    {
      config: { permission: 'admin.users.list' },
      schema: {
        params: uuidParams,
        querystring: pagingQuery,
        response: {
          200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: walletEntrySchema }, meta: pageMetaSchema } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const user = await findUser(request.params.uuid);
      const { page, per_page: perPage } = request.query;
      const entries = await wallet.entries(user.id, { page, perPage });
      return { data: entries.data.map(presentEntry), meta: pageMeta(page, perPage, entries.total) };
    },
  );

  app.post<{ Params: { uuid: string }; Body: AdjustBody }>(
    '/users/:uuid/coins',
    {
      config: { permission: 'admin.users.edit' },
      schema: {
        params: uuidParams,
        body: adjustBody,
        response: {
          200: {
            type: 'object',
            required: ['balance', 'entry', 'replayed'],
            properties: { balance: { type: 'integer' }, entry: walletEntrySchema, replayed: { type: 'boolean' } },
          },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const actor = await actorOf(sessions, request);
      const target = await findUser(request.params.uuid);
      mayActOnRole(roles, actor, target.role_id);
      const { amount, reason } = request.body;
      if (amount === 0) throw httpError(400, 'INVALID_AMOUNT', 'The amount cannot be zero.', 'amount');
      const movement = {
        userId: target.id,
        amount: Math.abs(amount),
        kind: 'admin.adjust',
        reason: reason.trim(),
        actorUserId: actor.userId,
        idempotencyKey: `admin:${actor.userId}:${request.body.idempotency_key ?? randomUUID()}`,
      };
      const result = amount > 0 ? await wallet.credit(movement) : await wallet.debit(movement);
      if (!result.replayed) {
        await audit.record(request, { action: 'admin.user.coins', targetUserId: target.id, details: { amount, balance: result.entry.balanceAfter, reason: movement.reason } });
      }
      return { balance: await wallet.balance(target.id), entry: presentEntry(result.entry), replayed: result.replayed };
    },
  );
}
