// The user's side (reference paths): POST /api/user/earn/redeem { code } and
// GET /api/user/earn/redeem/check/{code}. Both are switched off with code_redemption_enabled and
// share the 'earn.redeem' rate limit (per IP and per account), so codes cannot be guessed by brute force.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { REDEEM_CODE_LIMITS } from '../shared/code-rules';
import type { CodeRedemption } from './redemption';

// what a person may type: the code, perhaps with spaces around it (checked against the code rules after trimming)
const typedCode = { type: 'string', minLength: 1, maxLength: REDEEM_CODE_LIMITS.codeMaxLength + 16 } as const;

const redeemAnswer = {
  type: 'object',
  required: ['success', 'code', 'coins', 'balance'],
  properties: { success: { type: 'boolean' }, code: { type: 'string' }, coins: { type: 'integer' }, balance: { type: 'integer' } },
} as const;

const checkAnswer = {
  type: 'object',
  required: ['redeemable', 'code', 'coins'],
  properties: { redeemable: { type: 'boolean' }, code: { type: 'string' }, coins: { type: 'integer' } },
} as const;

export function registerRedeemRoutes(app: FastifyInstance, ctx: ServerPluginContext, redemption: CodeRedemption): void {
  app.post<{ Body: { code: string } }>(
    '/user/earn/redeem',
    {
      config: { auth: true, flag: 'code_redemption_enabled', rateLimit: 'earn.redeem' },
      schema: { body: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: typedCode } }, response: { 200: redeemAnswer } },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const done = await redemption.redeem(user.id, request.body.code);
      await ctx.audit.record(request, { action: 'redeem.code', targetUserId: user.id, details: { code: done.code, coins: done.coins } });
      reply.header('cache-control', 'no-store');
      return { success: true, ...done };
    },
  );

  app.get<{ Params: { code: string } }>(
    '/user/earn/redeem/check/:code',
    {
      config: { auth: true, flag: 'code_redemption_enabled', rateLimit: 'earn.redeem' },
      schema: { params: { type: 'object', required: ['code'], additionalProperties: false, properties: { code: typedCode } }, response: { 200: checkAnswer } },
    },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const code = await redemption.redeemable(user.id, request.params.code);
      reply.header('cache-control', 'no-store');
      return { redeemable: true, code: code.code, coins: code.coins };
    },
  );
}
