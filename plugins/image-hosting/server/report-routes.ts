// The administrators' reports queue, /api/admin/image-reports: reports of hosted images, newest
// first, by status. Resolving deletes the image (and closes every pending report of it); dismissing
// keeps it. Both are audit-logged. These routes stay up while hosting is switched off, so reported
// images can still be taken down.
import type { FastifyInstance } from 'fastify';
import { errorResponses, idParams, pageMeta, pageMetaSchema, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import type { ImageHost } from './host';
import { viewerPath } from './public-address';
import { REPORT_REASONS, REPORT_STATUSES, type ImageHostingTables, type ReportStatus } from './tables';

const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    status: { type: 'string', enum: [...REPORT_STATUSES], default: 'pending' },
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;

const reportView = {
  type: 'object',
  required: ['id', 'image_name', 'image_url', 'image_present', 'owner', 'reason', 'details', 'status', 'created_at', 'handled_at'],
  properties: {
    id: { type: 'integer' },
    image_name: { type: 'string' },
    image_url: { type: ['string', 'null'] },
    image_present: { type: 'boolean' },
    owner: { type: ['string', 'null'] },
    reason: { type: 'string', enum: [...REPORT_REASONS] },
    details: { type: 'string' },
    status: { type: 'string', enum: [...REPORT_STATUSES] },
    created_at: { type: 'string' },
    handled_at: { type: ['string', 'null'] },
  },
} as const;

export function registerReportRoutes(app: FastifyInstance, ctx: ServerPluginContext, host: ImageHost): void {
  const db = ctx.db.withTables<ImageHostingTables>();

  // the sidebar's count on /mc-admin/image-reports (plugin.json "badge": "pending"): reports waiting for a moderator
  ctx.nav.badge('pending', async () => {
    const { n } = await db
      .selectFrom('image_hosting_reports')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    return Number(n);
  });

  app.get<{ Querystring: { status: ReportStatus; page: number; per_page: number } }>(
    '/admin/image-reports',
    {
      config: { permission: 'admin.image.reports.list' },
      schema: {
        querystring: listQuery,
        response: { 200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: reportView }, meta: pageMetaSchema } }, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const { status, page, per_page: perPage } = request.query;
      const base = db.selectFrom('image_hosting_reports as r').where('r.status', '=', status);
      const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      const rows = await base
        .leftJoin('image_hosting_images as i', 'i.id', 'r.image_id')
        .leftJoin('user_public as u', 'u.id', 'i.user_id')
        .select(['r.id', 'r.image_name', 'r.reason', 'r.details', 'r.status', 'r.created_at', 'r.handled_at', 'i.id as image_id', 'u.username'])
        .orderBy('r.id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute();
      return {
        data: rows.map((row) => ({
          id: Number(row.id),
          image_name: row.image_name,
          image_url: row.image_id === null ? null : `${viewerPath(row.image_name)}?raw=true`,
          image_present: row.image_id !== null,
          owner: row.username ?? null,
          reason: row.reason,
          details: row.details,
          status: row.status,
          created_at: row.created_at,
          handled_at: row.handled_at,
        })),
        meta: pageMeta(page, perPage, total),
      };
    },
  );

  /** Marks a pending report handled (409 when it was handled already); answers the report's image. */
  const handle = async (reportId: number, userId: number, status: Exclude<ReportStatus, 'pending'>) => {
    const report = await db.selectFrom('image_hosting_reports').select(['id', 'image_id', 'image_name', 'reason']).where('id', '=', reportId).executeTakeFirst();
    if (!report) throw ctx.httpError(404, 'REPORT_NOT_FOUND', 'No such report.');
    const now = new Date(ctx.clock.now()).toISOString();
    const changed = await db
      .updateTable('image_hosting_reports')
      .set({ status, handled_by: userId, handled_at: now })
      .where('id', '=', reportId)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) !== 1) throw ctx.httpError(409, 'REPORT_HANDLED', 'This report was handled already.');
    return report;
  };

  app.post<{ Params: { id: number } }>(
    '/admin/image-reports/:id/resolve',
    { config: { permission: 'admin.image.reports.edit' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const report = await handle(request.params.id, user.id, 'resolved');
      let ownerId: number | null = null;
      if (report.image_id !== null) {
        const image = await db.selectFrom('image_hosting_images').select('user_id').where('id', '=', report.image_id).executeTakeFirst();
        ownerId = image ? Number(image.user_id) : null;
        // the other pending reports of the same image are answered by its removal
        await db
          .updateTable('image_hosting_reports')
          .set({ status: 'resolved', handled_by: user.id, handled_at: new Date(ctx.clock.now()).toISOString() })
          .where('image_id', '=', report.image_id)
          .where('status', '=', 'pending')
          .execute();
        await host.remove(Number(report.image_id));
      }
      await ctx.audit.record(request, {
        action: 'image_hosting.report_resolved',
        targetUserId: ownerId,
        details: { report: Number(report.id), image: report.image_name, reason: report.reason },
      });
      return { success: true };
    },
  );

  app.post<{ Params: { id: number } }>(
    '/admin/image-reports/:id/dismiss',
    { config: { permission: 'admin.image.reports.edit' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const report = await handle(request.params.id, user.id, 'dismissed');
      await ctx.audit.record(request, { action: 'image_hosting.report_dismissed', details: { report: Number(report.id), image: report.image_name, reason: report.reason } });
      return { success: true };
    },
  );
}
