// /api/admin/announcements… (spec: /mc-admin/announcements with create, edit, delete; the
// admin.announcements.* permissions): the list with status and search, one, create, edit, delete,
// an image upload (images only, through ctx.files) and the Markdown preview. Every change is audited.
import type { FastifyInstance } from 'fastify';
import { errorResponses, idParams, pageMeta, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import { MAIL_JOB } from './announcement-mail';
import type { AnnouncementInput, Announcements, AnnouncementStatus } from './announcements';
import { renderMarkdown } from './markdown';
import { schemas } from './schemas';

/** images only: what a body may show inline */
export const IMAGE_UPLOAD = { maxFiles: 1, maxBytes: 5 * 1024 * 1024, types: ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] } as const;

type Body = Partial<AnnouncementInput>;

/** the body's text trimmed and its times in one form (an impossible date is a 400, not a stored string) */
function cleaned(ctx: ServerPluginContext, body: Body): Body {
  const out: Body = { ...body };
  if (body.title !== undefined) {
    out.title = body.title.trim();
    if (out.title === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'The title is empty.', 'title');
  }
  if (body.summary !== undefined) out.summary = body.summary.trim();
  for (const field of ['publish_at', 'expire_at'] as const) {
    const value = body[field];
    if (value === undefined || value === null) continue;
    const time = Date.parse(value);
    if (!Number.isFinite(time)) throw ctx.httpError(400, 'VALIDATION_ERROR', `${field} is not a date.`, field);
    out[field] = new Date(time).toISOString();
  }
  return out;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext, announcements: Announcements): void {
  app.get<{ Querystring: { page: number; per_page: number; search?: string; status?: AnnouncementStatus } }>(
    '/admin/announcements',
    { config: { permission: 'admin.announcements.list' }, schema: { querystring: schemas.adminListQuery, response: { 200: schemas.adminList, ...errorResponses } } },
    async (request) => {
      const { page, per_page: perPage, search = '', status } = request.query;
      const { data, total } = await announcements.page({ page, perPage, search, status: status ?? null });
      return { data, meta: pageMeta(page, perPage, total) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/announcements/:id',
    { config: { permission: 'admin.announcements.list' }, schema: { params: idParams, response: { 200: schemas.adminOne, ...errorResponses } } },
    async (request) => ({ announcement: await announcements.get(request.params.id) }),
  );

  // the editor's live preview: the same renderer the readers' pages get their HTML from
  app.post<{ Body: { body: string } }>(
    '/admin/announcements/preview',
    { config: { permission: 'admin.announcements.list' }, schema: { body: schemas.previewBody, response: { 200: schemas.previewAnswer, ...errorResponses } } },
    async (request) => ({ html: renderMarkdown(request.body.body) }),
  );

  app.post<{ Body: Body & Pick<AnnouncementInput, 'title' | 'body' | 'severity'> }>(
    '/admin/announcements',
    { config: { permission: 'admin.announcements.create' }, schema: { body: schemas.createBody, response: { 201: schemas.adminOne, ...errorResponses } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const body = cleaned(ctx, request.body);
      const announcement = await announcements.create(
        {
          title: body.title!,
          summary: body.summary ?? '',
          body: body.body!,
          tags: body.tags ?? [],
          severity: body.severity!,
          pinned: body.pinned ?? false,
          mail: body.mail ?? false,
          role_ids: body.role_ids ?? [],
          publish_at: body.publish_at ?? null,
          expire_at: body.expire_at ?? null,
        },
        user.id,
      );
      await ctx.audit.record(request, {
        action: 'admin.announcement.create',
        details: { announcement_id: announcement.id, title: announcement.title, status: announcement.status },
      });
      if (announcement.mail) ctx.jobs.kick(MAIL_JOB);
      return reply.code(201).send({ announcement });
    },
  );

  app.patch<{ Params: { id: number }; Body: Body }>(
    '/admin/announcements/:id',
    { config: { permission: 'admin.announcements.edit' }, schema: { params: idParams, body: schemas.editBody, response: { 200: schemas.adminOne, ...errorResponses } } },
    async (request) => {
      const changes = cleaned(ctx, request.body);
      const announcement = await announcements.update(request.params.id, changes);
      await ctx.audit.record(request, {
        action: 'admin.announcement.update',
        details: { announcement_id: announcement.id, changed: Object.keys(changes).join(','), status: announcement.status },
      });
      if (announcement.mail) ctx.jobs.kick(MAIL_JOB);
      return { announcement };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/announcements/:id',
    { config: { permission: 'admin.announcements.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const gone = await announcements.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.announcement.delete', details: { announcement_id: gone.id, title: gone.title } });
      return { success: true };
    },
  );

  app.post<{ Params: { id: number } }>(
    '/admin/announcements/:id/images',
    {
      config: { permission: 'admin.announcements.edit', upload: IMAGE_UPLOAD },
      schema: { params: idParams, response: { 201: schemas.image, 413: errorResponses[400], 415: errorResponses[400], ...errorResponses } },
    },
    async (request, reply) => {
      const { files } = await ctx.files.fromRequest(request);
      const file = files[0];
      if (!file) throw ctx.httpError(400, 'UPLOAD_INVALID', 'No image in the form.', 'files');
      const image = await announcements.addImage(request.params.id, file);
      await ctx.audit.record(request, { action: 'admin.announcement.image_add', details: { announcement_id: request.params.id, key: image.key, name: image.name } });
      return reply.code(201).send({ image });
    },
  );

  app.delete<{ Params: { id: number; key: string } }>(
    '/admin/announcements/:id/images/:key',
    { config: { permission: 'admin.announcements.edit' }, schema: { params: schemas.imageParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      await announcements.removeImage(request.params.id, request.params.key);
      await ctx.audit.record(request, { action: 'admin.announcement.image_remove', details: { announcement_id: request.params.id, key: request.params.key } });
      return { success: true };
    },
  );
}
