// /api/admin/redeem-codes: list (paged, searched by code), one, create, edit, delete — the API of
// /mc-admin/redeem-codes (spec §2), guarded by spec §6's admin.redeem.codes.list|create|edit|delete.
// Not behind code_redemption_enabled: administrators prepare codes before switching the feature on.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { REDEEM_CODE_LIMITS } from '../shared/code-rules';
import { viewOf, type NewRedeemCode, type RedeemCodeChanges, type RedeemCodes } from './redeem-codes';

const MAX_PER_PAGE = 100;

const fields = {
  code: { type: 'string', pattern: `^[A-Za-z0-9_-]{${REDEEM_CODE_LIMITS.codeMinLength},${REDEEM_CODE_LIMITS.codeMaxLength}}$` },
  coins: { type: 'integer', minimum: 1, maximum: REDEEM_CODE_LIMITS.maxCoins },
  uses: { type: 'integer', minimum: 1, maximum: REDEEM_CODE_LIMITS.maxUses },
  enabled: { type: 'boolean' },
  // ISO-8601 with a zone (what the form sends: the admin's local time turned into UTC); null: never
  expires_at: { type: ['string', 'null'], maxLength: 40 },
} as const;

const codeSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    code: { type: 'string' },
    coins: { type: 'integer' },
    uses: { type: 'integer' },
    redeemed: { type: 'integer' },
    enabled: { type: 'boolean' },
    expires_at: { type: ['string', 'null'] },
    state: { type: 'string', enum: ['active', 'disabled', 'expired', 'used_up'] },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const oneCode = { type: 'object', required: ['code'], properties: { code: codeSchema } } as const;

const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } } } as const;

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 20 },
    search: { type: 'string', maxLength: 64, default: '' },
  },
} as const;

const listAnswer = {
  type: 'object',
  required: ['data', 'meta'],
  properties: {
    data: { type: 'array', items: codeSchema },
    meta: {
      type: 'object',
      required: ['page', 'per_page', 'total', 'total_pages'],
      properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, total_pages: { type: 'integer' } },
    },
  },
} as const;

interface CodeBody {
  code?: string;
  coins?: number;
  uses?: number;
  enabled?: boolean;
  expires_at?: string | null;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext, codes: RedeemCodes): void {
  /** A given expiry as a canonical ISO string (what the redemption compares with), or null for none. */
  const expiryOf = (value: string | null, now: Date): string | null => {
    if (value === null || value.trim() === '') return null;
    const time = Date.parse(value);
    // a date without a time zone would mean the server's local time: refused rather than guessed
    if (!Number.isFinite(time) || !/(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim())) {
      throw ctx.httpError(400, 'VALIDATION_ERROR', 'expires_at must be a date and time with a time zone (ISO-8601).', 'expires_at');
    }
    if (time <= now.getTime()) throw ctx.httpError(400, 'EXPIRY_IN_PAST', 'The expiry must be in the future.', 'expires_at');
    return new Date(time).toISOString();
  };

  const actorOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;

  app.get<{ Querystring: { page: number; per_page: number; search: string } }>(
    '/admin/redeem-codes',
    { config: { permission: 'admin.redeem.codes.list' }, schema: { querystring: listQuery, response: { 200: listAnswer } } },
    async (request) => {
      const { page, per_page: perPage, search } = request.query;
      const { rows, total } = await codes.list(page, perPage, search);
      const now = new Date();
      return { data: rows.map((row) => viewOf(row, now)), meta: { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) } };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/redeem-codes/:id',
    { config: { permission: 'admin.redeem.codes.list' }, schema: { params: idParams, response: { 200: oneCode } } },
    async (request) => ({ code: viewOf(await codes.get(request.params.id)) }),
  );

  app.post<{ Body: Required<Pick<CodeBody, 'code' | 'coins'>> & CodeBody }>(
    '/admin/redeem-codes',
    {
      config: { permission: 'admin.redeem.codes.create' },
      schema: { body: { type: 'object', required: ['code', 'coins'], additionalProperties: false, properties: fields }, response: { 201: oneCode } },
    },
    async (request, reply) => {
      const body = request.body;
      const input: NewRedeemCode = {
        code: body.code,
        coins: body.coins,
        // reference: uses defaults to 1
        uses: body.uses ?? 1,
        enabled: body.enabled ?? true,
        expires_at: expiryOf(body.expires_at ?? null, new Date()),
      };
      const actor = await actorOf(request);
      const row = await codes.create(input, actor.id);
      await ctx.audit.record(request, { action: 'admin.redeem_code.create', details: { code_id: row.id, code: row.code, coins: row.coins, uses: row.uses } });
      return reply.code(201).send({ code: viewOf(row) });
    },
  );

  app.patch<{ Params: { id: number }; Body: CodeBody }>(
    '/admin/redeem-codes/:id',
    {
      config: { permission: 'admin.redeem.codes.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields }, response: { 200: oneCode } },
    },
    async (request) => {
      const body = request.body;
      const changes: RedeemCodeChanges = {};
      if (body.code !== undefined) changes.code = body.code;
      if (body.coins !== undefined) changes.coins = body.coins;
      if (body.uses !== undefined) changes.uses = body.uses;
      if (body.enabled !== undefined) changes.enabled = body.enabled;
      if (body.expires_at !== undefined) changes.expires_at = expiryOf(body.expires_at, new Date());
      const row = await codes.update(request.params.id, changes);
      await ctx.audit.record(request, { action: 'admin.redeem_code.update', details: { code_id: row.id, code: row.code, changed: Object.keys(changes).join(',') } });
      return { code: viewOf(row) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/redeem-codes/:id',
    {
      config: { permission: 'admin.redeem.codes.delete' },
      schema: { params: idParams, response: { 200: { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } } },
    },
    async (request) => {
      const row = await codes.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.redeem_code.delete', details: { code_id: row.id, code: row.code, redeemed: row.redeemed } });
      return { success: true };
    },
  );
}
