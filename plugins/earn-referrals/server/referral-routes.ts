// GET /api/user/earn/referrals (reference path): the signed-in user's code, the rewards, what they
// earned and the accounts they referred (paged, newest first; usernames and dates — never e-mail
// addresses). Switched off with referrals_enabled. Opening it also settles what has become due.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { ReferralCodes } from './referral-codes';
import type { ReferralRewards } from './referral-rewards';
import type { ReferralTables } from './tables';

const MAX_PER_PAGE = 50;

interface ListQuery {
  page: number;
  per_page: number;
}

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 10 },
  },
} as const;

const referredSchema = {
  type: 'object',
  required: ['username', 'joined_at', 'coins', 'status'],
  properties: {
    username: { type: 'string' },
    joined_at: { type: 'string' },
    /** what this referral earned the referrer (0 while pending) */
    coins: { type: 'integer' },
    /** pending: waiting for the new account to verify its e-mail address */
    status: { type: 'string', enum: ['paid', 'pending'] },
  },
} as const;

const answer = {
  type: 'object',
  required: ['code', 'rewards', 'earned', 'referred'],
  properties: {
    code: { type: 'string' },
    rewards: {
      type: 'object',
      required: ['referrer', 'redeemer', 'after_verification'],
      properties: { referrer: { type: 'integer' }, redeemer: { type: 'integer' }, after_verification: { type: 'boolean' } },
    },
    earned: {
      type: 'object',
      required: ['coins', 'paid', 'pending'],
      properties: { coins: { type: 'integer' }, paid: { type: 'integer' }, pending: { type: 'integer' } },
    },
    referred: {
      type: 'object',
      required: ['data', 'meta'],
      properties: {
        data: { type: 'array', items: referredSchema },
        meta: {
          type: 'object',
          required: ['page', 'per_page', 'total', 'total_pages'],
          properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, total_pages: { type: 'integer' } },
        },
      },
    },
  },
} as const;

const numberSetting = (value: unknown) => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0);

export function registerReferralRoutes(app: FastifyInstance, ctx: ServerPluginContext, codes: ReferralCodes, rewards: ReferralRewards): void {
  const db = ctx.db.withTables<ReferralTables>();

  app.get<{ Querystring: ListQuery }>(
    '/user/earn/referrals',
    { config: { auth: true, flag: 'referrals_enabled' }, schema: { querystring: listQuery, response: { 200: answer } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const { page, per_page: perPage } = request.query;
      const code = await codes.codeOf(user.id);
      await rewards.settle(user.id);

      const [rows, totals, settings] = await Promise.all([
        db
          .selectFrom('referrals')
          .innerJoin('user_public', 'user_public.id', 'referrals.referred_id')
          .select(['user_public.username', 'referrals.created_at', 'referrals.referrer_coins'])
          .where('referrals.referrer_id', '=', user.id)
          .orderBy('referrals.id', 'desc')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        db
          .selectFrom('referrals')
          .select((eb) => [
            eb.fn.countAll<number | string>().as('total'),
            eb.fn.count<number | string>('referrer_coins').as('paid'),
            eb.fn.sum<number | string | null>('referrer_coins').as('coins'),
          ])
          .where('referrer_id', '=', user.id)
          .executeTakeFirstOrThrow(),
        ctx.settings.getMany(['referrals_coins_per_referral', 'referrals_coins_per_referral_redeemer', 'referrals_pay_after_verification']),
      ]);

      const total = Number(totals.total);
      const paid = Number(totals.paid);
      reply.header('cache-control', 'no-store');
      return {
        code,
        rewards: {
          referrer: numberSetting(settings.referrals_coins_per_referral),
          redeemer: numberSetting(settings.referrals_coins_per_referral_redeemer),
          after_verification: settings.referrals_pay_after_verification === true,
        },
        earned: { coins: Number(totals.coins ?? 0), paid, pending: total - paid },
        referred: {
          data: rows.map((row) => ({
            username: row.username,
            joined_at: row.created_at,
            coins: row.referrer_coins === null ? 0 : Number(row.referrer_coins),
            status: row.referrer_coins === null ? 'pending' : 'paid',
          })),
          meta: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) },
        },
      };
    },
  );
}
