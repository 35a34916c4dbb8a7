// Gifts between users (reference: POST /api/user/gift). The sender pays the amount plus the fee in
// ONE wallet transfer (fee on top, taken out of circulation; never read-then-write), keyed by the
// sender and the form submission's idempotency key, so a double click or a retried request moves
// coins once. Never to yourself, never to a banned or unknown account, within the min/max settings;
// everything behind allow_coins_sharing.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { giftAmountProblem, giftFee, type GiftRules } from '../shared/gift-rules';

const UUID = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** the wallet's largest single movement; the settings keep gifts far below it */
const MAX_AMOUNT = 1_000_000_000;

const recipientSchema = {
  type: 'object',
  required: ['uuid', 'username'],
  properties: { uuid: { type: 'string' }, username: { type: 'string' }, avatar: { type: ['string', 'null'] } },
} as const;

const rulesSchema = {
  type: 'object',
  required: ['min', 'max', 'fee_percent'],
  properties: { min: { type: 'number' }, max: { type: 'number' }, fee_percent: { type: 'number' } },
} as const;

interface GiftBody {
  recipient: string;
  amount: number;
  idempotency_key: string;
}

export function registerGiftRoutes(app: FastifyInstance, ctx: ServerPluginContext): void {
  const rules = async (): Promise<GiftRules> => {
    const values = await ctx.settings.getMany(['gift_min_amount', 'gift_max_amount', 'gift_fee_percent']);
    return { min: Number(values.gift_min_amount), max: Number(values.gift_max_amount), feePercent: Number(values.gift_fee_percent) };
  };

  /** The account a gift may go to from `senderId`, or the reason it may not (as an http error on field `recipient`). */
  const recipientFor = async (senderId: number, uuid: string) => {
    const row = await ctx.db.selectFrom('user_public').select(['id', 'uuid', 'username', 'avatar', 'banned']).where('uuid', '=', uuid.toLowerCase()).executeTakeFirst();
    if (!row) throw ctx.httpError(404, 'USER_NOT_FOUND', 'There is no such user.', 'recipient');
    if (row.id === senderId) throw ctx.httpError(400, 'SELF_TRANSFER', 'You cannot send coins to yourself.', 'recipient');
    if (row.banned) throw ctx.httpError(409, 'RECIPIENT_BANNED', 'This account is banned and cannot receive coins.', 'recipient');
    return row;
  };

  app.get<{ Params: { uuid: string } }>(
    '/user/gift/recipient/:uuid',
    {
      config: { auth: true, flag: 'allow_coins_sharing' },
      schema: {
        params: { type: 'object', required: ['uuid'], additionalProperties: false, properties: { uuid: { type: 'string', pattern: UUID } } },
        response: {
          200: { type: 'object', required: ['recipient', 'rules', 'balance'], properties: { recipient: recipientSchema, rules: rulesSchema, balance: { type: 'integer' } } },
        },
      },
    },
    async (request, reply) => {
      const sender = (await ctx.auth.currentUser(request))!;
      const recipient = await recipientFor(sender.id, request.params.uuid);
      const current = await rules();
      reply.header('cache-control', 'no-store');
      return {
        recipient: { uuid: recipient.uuid, username: recipient.username, avatar: recipient.avatar },
        rules: { min: current.min, max: current.max, fee_percent: current.feePercent },
        balance: await ctx.wallet.balance(sender.id),
      };
    },
  );

  app.post<{ Body: GiftBody }>(
    '/user/gift',
    {
      config: { auth: true, flag: 'allow_coins_sharing' },
      schema: {
        body: {
          type: 'object',
          required: ['recipient', 'amount', 'idempotency_key'],
          additionalProperties: false,
          properties: {
            recipient: { type: 'string', pattern: UUID },
            amount: { type: 'integer', minimum: 1, maximum: MAX_AMOUNT },
            // one per form submission, made by the page (a UUID); scoped to the sender on the server
            idempotency_key: { type: 'string', pattern: '^[A-Za-z0-9_-]{16,64}$' },
          },
        },
        response: {
          200: {
            type: 'object',
            required: ['success', 'replayed', 'recipient', 'amount', 'fee', 'total', 'balance'],
            properties: {
              success: { type: 'boolean' },
              /** true when this submission had been carried out already: nothing moved this time */
              replayed: { type: 'boolean' },
              recipient: recipientSchema,
              amount: { type: 'integer' },
              fee: { type: 'integer' },
              total: { type: 'integer' },
              /** the sender's balance right after the gift */
              balance: { type: 'integer' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const sender = (await ctx.auth.currentUser(request))!;
      const { amount, idempotency_key: submission } = request.body;
      const recipient = await recipientFor(sender.id, request.body.recipient);
      const current = await rules();
      const problem = giftAmountProblem(amount, current);
      if (problem === 'min') throw ctx.httpError(400, 'AMOUNT_TOO_SMALL', `A gift is at least ${current.min} coins.`, 'amount');
      if (problem === 'max') throw ctx.httpError(400, 'AMOUNT_TOO_LARGE', `A gift is at most ${current.max} coins.`, 'amount');
      if (problem) throw ctx.httpError(400, 'INVALID_AMOUNT', 'The amount must be a whole number of coins.', 'amount');
      const fee = giftFee(amount, current.feePercent);

      const moved = await ctx.wallet.transfer({
        fromUserId: sender.id,
        toUserId: recipient.id,
        amount,
        fee,
        kind: 'gift',
        reference: `${sender.username} → ${recipient.username}`,
        idempotencyKey: `gift:${sender.id}:${submission}`,
      });
      // a replay answers what the first submission did (its amount and fee), and is not logged twice
      const paidFee = moved.fee ? -moved.fee.delta : 0;
      if (!moved.replayed) {
        await ctx.audit.record(request, {
          action: 'gift.sent',
          targetUserId: sender.id,
          details: { to_uuid: recipient.uuid, to_username: recipient.username, amount, fee: paidFee },
        });
        // the recipient's entry: no actor on their side and no IP (the sender's address is not theirs to see)
        await ctx.audit.record(null, {
          action: 'gift.received',
          actorUserId: null,
          targetUserId: recipient.id,
          details: { from_uuid: sender.uuid, from_username: sender.username, amount },
        });
      }
      const balance = moved.fee ? moved.fee.balanceAfter : moved.sent.balanceAfter;
      reply.header('cache-control', 'no-store');
      return {
        success: true,
        replayed: moved.replayed,
        recipient: { uuid: recipient.uuid, username: recipient.username, avatar: recipient.avatar },
        amount: moved.received.delta,
        fee: paidFee,
        total: moved.received.delta + paidFee,
        balance,
      };
    },
  );
}
