// /api/admin/mail-templates: list (paged), one, create, edit, delete, and a preview rendered with
// sample placeholders (spec §2: /mc-admin/mail-templates, admin.mail.templates.*). The seeded
// templates are sent by name by the panel itself: they can be edited, not renamed or deleted.
import type { FastifyInstance } from 'fastify';
import { httpError } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import { placeholdersIn, renderTemplate } from '../mail/render';
import { SAMPLE_PLACEHOLDERS, SEEDED_TEMPLATE_NAMES } from '../mail/seeded-templates';
import type { AdminServices } from './admin-context';
import { errorResponses, idParams, pageMeta, pageMetaSchema, pagingQuery, successSchema, type PagingQuery } from './schemas';

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

type TemplateRow = { id: number; name: string; description: string; subject: string; html: string; text: string; created_at: string; updated_at: string };

export function registerAdminMailTemplates(app: FastifyInstance, services: AdminServices): void {
  const { database, settings, audit } = services;
  const db = database.db;

  const present = (row: TemplateRow) => ({ ...row, protected: SEEDED_TEMPLATE_NAMES.has(row.name), placeholders: placeholdersIn(row.subject, row.html, row.text) });

  const find = async (id: number): Promise<TemplateRow> => {
    const row = await db.selectFrom('mail_templates').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw httpError(404, 'MAIL_TEMPLATE_NOT_FOUND', 'There is no such mail template.');
    return row;
  };

  const nameTaken = () => httpError(409, 'MAIL_TEMPLATE_NAME_TAKEN', 'A mail template with this name already exists.', 'name');

  app.get<{ Querystring: PagingQuery }>(
    '/mail-templates',
    {
      config: { permission: 'admin.mail.templates.list' },
      schema: {
        querystring: pagingQuery,
        response: { 200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: summarySchema }, meta: pageMetaSchema } }, ...errorResponses },
      },
    },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const [rows, count] = await Promise.all([
        db
          .selectFrom('mail_templates')
          .select(['id', 'name', 'description', 'subject', 'updated_at'])
          .orderBy('name')
          .limit(perPage)
          .offset((page - 1) * perPage)
          .execute(),
        db
          .selectFrom('mail_templates')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { data: rows.map((r) => ({ ...r, protected: SEEDED_TEMPLATE_NAMES.has(r.name) })), meta: pageMeta(page, perPage, Number(count.n)) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/mail-templates/:id',
    { config: { permission: 'admin.mail.templates.list' }, schema: { params: idParams, response: { 200: oneTemplate, ...errorResponses } } },
    async (request) => ({ template: present(await find(request.params.id)) }),
  );

  app.post<{ Body: Required<Pick<TemplateBody, 'name' | 'subject' | 'html'>> & TemplateBody }>(
    '/mail-templates',
    {
      config: { permission: 'admin.mail.templates.create' },
      schema: {
        body: { type: 'object', required: ['name', 'subject', 'html'], additionalProperties: false, properties: fields },
        response: { 201: oneTemplate, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { name, subject, html, text = '', description = '' } = request.body;
      if (await db.selectFrom('mail_templates').select('id').where('name', '=', name).executeTakeFirst()) throw nameTaken();
      const now = new Date().toISOString();
      try {
        await db.insertInto('mail_templates').values({ name, description: description.trim(), subject: subject.trim(), html, text, created_at: now, updated_at: now }).execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      const row = await db.selectFrom('mail_templates').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
      await audit.record(request, { action: 'admin.mail_template.create', details: { template_id: row.id, name } });
      return reply.code(201).send({ template: present(row) });
    },
  );

  app.patch<{ Params: { id: number }; Body: TemplateBody }>(
    '/mail-templates/:id',
    {
      config: { permission: 'admin.mail.templates.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields }, response: { 200: oneTemplate, ...errorResponses } },
    },
    async (request) => {
      const row = await find(request.params.id);
      const body = request.body;
      const changes: Partial<Omit<TemplateRow, 'id'>> = {};
      if (body.name !== undefined && body.name !== row.name) {
        if (SEEDED_TEMPLATE_NAMES.has(row.name)) throw httpError(409, 'MAIL_TEMPLATE_PROTECTED', 'The panel sends this template by name: it cannot be renamed.', 'name');
        if (await db.selectFrom('mail_templates').select('id').where('name', '=', body.name).executeTakeFirst()) throw nameTaken();
        changes.name = body.name;
      }
      if (body.description !== undefined) changes.description = body.description.trim();
      if (body.subject !== undefined) changes.subject = body.subject.trim();
      if (body.html !== undefined) changes.html = body.html;
      if (body.text !== undefined) changes.text = body.text;
      try {
        await db
          .updateTable('mail_templates')
          .set({ ...changes, updated_at: new Date().toISOString() })
          .where('id', '=', row.id)
          .execute();
      } catch (error) {
        if (isUniqueViolation(error)) throw nameTaken();
        throw error;
      }
      // the bodies can be long: the log names what changed, not the new text
      await audit.record(request, {
        action: 'admin.mail_template.update',
        details: { template_id: row.id, name: changes.name ?? row.name, changed: Object.keys(changes).join(',') },
      });
      return { template: present(await find(row.id)) };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/mail-templates/:id',
    { config: { permission: 'admin.mail.templates.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const row = await find(request.params.id);
      if (SEEDED_TEMPLATE_NAMES.has(row.name)) throw httpError(409, 'MAIL_TEMPLATE_PROTECTED', 'The panel sends this template by name: it cannot be deleted.');
      await db.deleteFrom('mail_templates').where('id', '=', row.id).execute();
      await audit.record(request, { action: 'admin.mail_template.delete', details: { template_id: row.id, name: row.name } });
      return { success: true };
    },
  );

  app.post<{ Params: { id: number }; Body: { subject?: string; html?: string; text?: string; placeholders?: Record<string, string> } }>(
    '/mail-templates/:id/preview',
    // rendering changes nothing: whoever may read the templates may preview them
    { config: { permission: 'admin.mail.templates.list' }, schema: { params: idParams, body: previewBody, response: { 200: previewAnswer, ...errorResponses } } },
    async (request) => {
      const row = await find(request.params.id);
      const body = request.body ?? {};
      const parts = { subject: body.subject ?? row.subject, html: body.html ?? row.html, text: body.text ?? row.text };
      const appUrl = String((await settings.get('app_url')) ?? '') || 'https://panel.example.com';
      const values: Record<string, string> = { app_name: String((await settings.get('app_name')) ?? ''), app_url: appUrl, ...SAMPLE_PLACEHOLDERS, ...body.placeholders };
      return { ...renderTemplate(parts, values), placeholders: values };
    },
  );
}
