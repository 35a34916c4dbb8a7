// GET /api/user/session/activities (reference path): the signed-in user's own audit trail, newest
// first, paged — logins, failed attempts on the account, logouts, and what administrators changed
// on it (shown as "administrator", without naming them).
import type { FastifyInstance } from 'fastify';
import { pageMeta, pageMetaSchema, pagingQuery, type PagingQuery } from '../admin/schemas';
import type { AuditLog } from '../audit/audit-log';
import type { SessionService } from '../auth/sessions';
import { errorResponseSchema } from '../http/errors';

export function activityRoutes(app: FastifyInstance, sessions: SessionService, audit: AuditLog): void {
  app.get<{ Querystring: PagingQuery }>(
    '/api/user/session/activities',
    {
      config: { auth: true },
      schema: {
        querystring: pagingQuery,
        response: {
          200: {
            type: 'object',
            required: ['data', 'meta'],
            properties: {
              data: {
                type: 'array',
                items: {
                  type: 'object',
                  properties: {
                    id: { type: 'integer' },
                    action: { type: 'string' },
                    by: { type: 'string', enum: ['self', 'administrator', 'anonymous'] },
                    details: { type: 'object', additionalProperties: true },
                    ip: { type: ['string', 'null'] },
                    created_at: { type: 'string' },
                  },
                },
              },
              meta: pageMetaSchema,
            },
          },
          401: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      const resolved = await sessions.resolve(request);
      const userId = resolved.row!.user_id;
      const { page, per_page: perPage } = request.query;
      const { rows, total } = await audit.forUser(userId, page, perPage);
      reply.header('cache-control', 'no-store');
      return {
        data: rows.map((r) => ({
          id: r.id,
          action: r.action,
          by: r.actor_user_id === userId ? 'self' : r.actor_user_id === null ? 'anonymous' : 'administrator',
          details: r.details,
          ip: r.ip,
          created_at: r.created_at,
        })),
        meta: pageMeta(page, perPage, total),
      };
    },
  );
}
