// /api/admin/redirect-links: the links an administrator adds to the navigation (spec §2
// /mc-admin/redirect-links, admin.redirect.links.*): list (paged, in navigation order), one, create,
// edit, delete. A link opens an http or https address only — checked here, whatever the form did.
import type { FastifyInstance } from 'fastify';
import { errorResponses, httpError, idParams, pageMeta, pageMetaSchema, pagingQuery, successSchema, type PagingQuery, type ServerPluginContext } from '@orepanel/sdk/server';
import { isHttpUrl, REDIRECT_LINK_RULES } from '../shared/link-rules';
import type { RedirectLinkInput, RedirectLinkStore } from './link-store';

const R = REDIRECT_LINK_RULES;

const fields = {
  name: { type: 'string', minLength: R.name.minLength, maxLength: R.name.maxLength, pattern: R.name.pattern },
  url: { type: 'string', minLength: 1, maxLength: R.url.maxLength },
  icon: { type: ['string', 'null'], maxLength: R.icon.maxLength, pattern: R.icon.pattern },
  order: { type: 'integer', minimum: R.order.minimum, maximum: R.order.maximum },
} as const;

export const redirectLinkSchema = {
  type: 'object',
  required: ['id', 'name', 'url', 'icon', 'order'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    url: { type: 'string' },
    icon: { type: ['string', 'null'] },
    order: { type: 'integer' },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const oneLink = { type: 'object', required: ['link'], properties: { link: redirectLinkSchema } } as const;

interface LinkBody {
  name?: string;
  url?: string;
  icon?: string | null;
  order?: number;
}

function checkedUrl(url: string): string {
  if (!isHttpUrl(url)) throw httpError(400, 'INVALID_URL', 'The address must be an http:// or https:// address.', 'url');
  return url;
}

export function registerAdminRoutes(app: FastifyInstance, ctx: ServerPluginContext, links: RedirectLinkStore): void {
  const { audit } = ctx;

  const notFound = () => httpError(404, 'REDIRECT_LINK_NOT_FOUND', 'There is no such redirect link.');

  app.get<{ Querystring: PagingQuery }>(
    '/admin/redirect-links',
    {
      config: { permission: 'admin.redirect.links.list' },
      schema: {
        querystring: pagingQuery,
        response: {
          200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: redirectLinkSchema }, meta: pageMetaSchema } },
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const { page, per_page: perPage } = request.query;
      const { links: data, total } = await links.page(page, perPage);
      return { data, meta: pageMeta(page, perPage, total) };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/redirect-links/:id',
    { config: { permission: 'admin.redirect.links.list' }, schema: { params: idParams, response: { 200: oneLink, ...errorResponses } } },
    async (request) => {
      const link = await links.find(request.params.id);
      if (!link) throw notFound();
      return { link };
    },
  );

  app.post<{ Body: Required<Pick<LinkBody, 'name' | 'url'>> & LinkBody }>(
    '/admin/redirect-links',
    {
      config: { permission: 'admin.redirect.links.create' },
      schema: { body: { type: 'object', required: ['name', 'url'], additionalProperties: false, properties: fields }, response: { 201: oneLink, ...errorResponses } },
    },
    async (request, reply) => {
      const body = request.body;
      const input: RedirectLinkInput = { name: body.name.trim(), url: checkedUrl(body.url), icon: body.icon ?? null, order: body.order ?? 0 };
      const link = await links.create(input);
      await audit.record(request, { action: 'admin.redirect_link.create', details: { link_id: link.id, name: link.name, url: link.url } });
      return reply.code(201).send({ link });
    },
  );

  app.patch<{ Params: { id: number }; Body: LinkBody }>(
    '/admin/redirect-links/:id',
    {
      config: { permission: 'admin.redirect.links.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: fields }, response: { 200: oneLink, ...errorResponses } },
    },
    async (request) => {
      const body = request.body;
      const changes: Partial<RedirectLinkInput> = {};
      if (body.name !== undefined) changes.name = body.name.trim();
      if (body.url !== undefined) changes.url = checkedUrl(body.url);
      if (body.icon !== undefined) changes.icon = body.icon;
      if (body.order !== undefined) changes.order = body.order;
      if (Object.keys(changes).length === 0) throw httpError(400, 'VALIDATION_ERROR', 'Name at least one of name, url, icon or order to change.');
      const link = await links.update(request.params.id, changes);
      if (!link) throw notFound();
      await audit.record(request, { action: 'admin.redirect_link.update', details: { link_id: link.id, name: link.name, changed: Object.keys(changes).join(',') } });
      return { link };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/redirect-links/:id',
    { config: { permission: 'admin.redirect.links.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const link = await links.find(request.params.id);
      if (!link || !(await links.delete(link.id))) throw notFound();
      await audit.record(request, { action: 'admin.redirect_link.delete', details: { link_id: link.id, name: link.name } });
      return { success: true };
    },
  );
}
