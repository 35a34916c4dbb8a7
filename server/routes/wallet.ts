// GET /api/user/wallet/transactions: the signed-in user's own coin ledger, newest first, paged —
// what the dashboard's transactions list shows.
import type { FastifyInstance } from 'fastify';
import { pageMeta, pageMetaSchema, pagingQuery, type PagingQuery } from '../admin/schemas';
import type { SessionService } from '../auth/sessions';
import { errorResponseSchema } from '../http/errors';
import { presentEntry, walletEntrySchema } from '../wallet/entry-schema';
import type { Wallet } from '../wallet/wallet';

export function walletRoutes(app: FastifyInstance, sessions: SessionService, wallet: Wallet): void {
  app.get<{ Querystring: PagingQuery }>(
    '/api/user/wallet/transactions',
    {
      config: { auth: true },
      schema: {
        querystring: pagingQuery,
        response: {
          200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: walletEntrySchema }, meta: pageMetaSchema } },
          400: errorResponseSchema,
          401: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const resolved = await sessions.resolve(request);
      const userId = resolved.row!.user_id;
      const { page, per_page: perPage } = request.query;
      const entries = await wallet.entries(userId, { page, perPage });
      reply.header('cache-control', 'no-store');
      return { data: entries.data.map(presentEntry), meta: pageMeta(page, perPage, entries.total) };
    },
  );
}
