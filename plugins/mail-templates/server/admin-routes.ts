// /api/admin/mail-templates: list (paged), one, create, edit, delete, and a preview rendered with
// sample placeholders (spec §2: /mc-admin/mail-templates, admin.mail.templates.*). The templates are
// the core mail transport's (ctx.mail.templates): the panel sends its own by name, so those can be
// edited, not renamed or deleted — the store refuses that, whoever asks.
import type { FastifyInstance } from 'fastify';
import {
  errorResponses,
  httpError,
  idParams,
  pageMeta,
  pageMetaSchema,
  pagingQuery,
  successSchema,
  type MailTemplate,
  type NewMailTemplate,
  type PagingQuery,
  type ServerPluginContext,
} from '@orepanel/sdk/server';

const MAX_BODY = 100_000;

const fields = {
  name: { type: 'string', minLength: 1, maxLength: 64, pattern: '^[a-z0-9][a-z0-9_.-]*$' },
  description: { type: 'string', maxLength: 255 },
  subject: { type: 'string', minLength: 1, maxLength: 255, pattern: '\\S' },
  html: { type: 'string', minLength: 1, maxLength: MAX_BODY, pattern: '\\S' },
  text: { type: 'string', maxLength: MAX_BODY },
} as const;

interface TemplateBody {
  name?: string;
  description?: string;
  subject?: string;
  html?: string;
  text?: string;
}

const summarySchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    description: { type: 'string' },
    subject: { type: 'string' },
    protected: { type: 'boolean' },
    updated_at: { type: 'string' },
  },
} as const;

const templateSchema = {
  type: 'object',
  properties: {
    ...summarySchema.properties,
    html: { type: 'string' },
    text: { type: 'string' },
    /** the ${names} the template uses */
    placeholders: { type: 'array', items: { type: 'string' } },
    created_at: { type: 'string' },
  },
} as const;

const oneTemplate = { type: 'object', required: ['template'], properties: { template: templateSchema } } as const;

const previewBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // unsaved edits may be previewed: each part given replaces the stored one
    subject: fields.subject,
    html: fields.html,
    text: fields.text,
    placeholders: { type: 'object', maxProperties: 50, propertyNames: { pattern: '^[a-zA-Z_][a-zA-Z0-9_]{0,63}$' }, additionalProperties: { type: 'string', maxLength: 2048 } },
  },
} as const;

const previewAnswer = {
  type: 'object',
  required: ['subject', 'html', 'text', 'placeholders'],
  properties: { subject: { type: 'string' }, html: { type: 'string' }, text: { type: 'string' }, placeholders: { type: 'object', additionalProperties: { type: 'string' } } },
} as const;

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext): void {
  const { settings, audit } = ctx;
  const templates = ctx.mail.templates;

  const present = (row: MailTemplate) => ({ ...row, protected: templates.isProtected(row.name), placeholders: templates.placeholdersIn(row.subject, row.html, row.text) });

  const notFound = () => httpError(404, 'MAIL_TEMPLATE_NOT_FOUND', 'There is no such mail template.');
  const find = async (id: number): Promise<MailTemplate> => {
    const row = await templates.find(id);
    if (!row) throw notFound();
    return row;
  };

  app.get<{ Querystring: PagingQuery }>(
    '/admin/mail-templates',
    {
      config: { permission: 'admin.mail.templates.list' },
      schema: {
        querystring: pagingQuery,
        response: { 200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: summarySchema }, meta: pageMetaSchema } }, ...errorResponses },
      },
    },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const { templates: rows, total } = await templates.page(page, perPage);
      return { data: rows.map((r) => ({ ...r, protected: templates.isProtected(r.name) })), meta: pageMeta(page, perPage, total) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/mail-templates/:id',
    { config: { permission: 'admin.mail.templates.list' }, schema: { params: idParams, response: { 200: oneTemplate, ...errorResponses } } },
    async (request) => ({ template: present(await find(request.params.id)) }),
  );

  app.post<{ Body: Required<Pick<TemplateBody, 'name' | 'subject' | 'html'>> & TemplateBody }>(
    '/admin/mail-templates',
    {
      config: { permission: 'admin.mail.templates.create' },
      schema: {
        body: { type: 'object', required: ['name', 'subject', 'html'], additionalProperties: false, properties: fields },
        response: { 201: oneTemplate, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { name, subject, html, text = '', description = '' } = request.body;
      const row = await templates.create({ name, description: description.trim(), subject: subject.trim(), html, text });
      await audit.record(request, { action: 'admin.mail_template.create', details: { template_id: row.id, name } });
      return reply.code(201).send({ template: present(row) });
    },
  );

  app.patch<{ Params: { id: number }; Body: TemplateBody }>(
    '/admin/mail-templates/:id',
    {
      config: { permission: 'admin.mail.templates.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields }, response: { 200: oneTemplate, ...errorResponses } },
    },
    async (request) => {
      const row = await find(request.params.id);
      const body = request.body;
      const changes: Partial<NewMailTemplate> = {};
      if (body.name !== undefined && body.name !== row.name) changes.name = body.name;
      if (body.description !== undefined) changes.description = body.description.trim();
      if (body.subject !== undefined) changes.subject = body.subject.trim();
      if (body.html !== undefined) changes.html = body.html;
      if (body.text !== undefined) changes.text = body.text;
      const updated = await templates.update(row.id, changes);
      if (!updated) throw notFound();
      // the bodies can be long: the log names what changed, not the new text
      await audit.record(request, {
        action: 'admin.mail_template.update',
        details: { template_id: row.id, name: changes.name ?? row.name, changed: Object.keys(changes).join(',') },
      });
      return { template: present(updated) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/mail-templates/:id',
    { config: { permission: 'admin.mail.templates.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const row = await find(request.params.id);
      if (!(await templates.delete(row.id))) throw notFound();
      await audit.record(request, { action: 'admin.mail_template.delete', details: { template_id: row.id, name: row.name } });
      return { success: true };
    },
  );

  app.post<{ Params: { id: number }; Body: { subject?: string; html?: string; text?: string; placeholders?: Record<string, string> } }>(
    '/admin/mail-templates/:id/preview',
    // rendering changes nothing: whoever may read the templates may preview them
    { config: { permission: 'admin.mail.templates.list' }, schema: { params: idParams, body: previewBody, response: { 200: previewAnswer, ...errorResponses } } },
    async (request) => {
      const row = await find(request.params.id);
      const body = request.body ?? {};
      const parts = { subject: body.subject ?? row.subject, html: body.html ?? row.html, text: body.text ?? row.text };
      const appUrl = String((await settings.get('app_url')) ?? '') || 'https://panel.example.com';
      const values: Record<string, string> = { app_name: String((await settings.get('app_name')) ?? ''), app_url: appUrl, ...templates.samplePlaceholders, ...body.placeholders };
      return { ...templates.render(parts, values), placeholders: values };
    },
  );
}
