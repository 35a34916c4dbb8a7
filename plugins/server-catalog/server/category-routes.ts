// /api/admin/egg-categories: the API of /mc-admin/egg-categories (spec §2), guarded by the nests
// permissions admin.nests.list|create|edit|delete (spec §2: "guarded by the nests permissions").
// A category holding eggs is not deleted (409 CATEGORY_HAS_EGGS), nor moved to another nest.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { categoryFields, categorySchema, changedFields, commonValues, deletedAnswer, idParams, listAnswer, listQuery, type CommonBody, type ListQuery } from './catalog-schemas';
import type { CategoryChanges, EggCategories } from './egg-categories';
import type { PanelLinks } from './panel-links';

const oneCategory = { type: 'object', required: ['category'], properties: { category: categorySchema } } as const;

interface CategoryBody extends CommonBody {
  panel_nest_id?: number;
}

export function registerCategoryRoutes(app: FastifyInstance, ctx: ServerPluginContext, categories: EggCategories, panel: PanelLinks): void {
  app.get<{ Querystring: ListQuery }>(
    '/admin/egg-categories',
    { config: { permission: 'admin.nests.list' }, schema: { querystring: listQuery, response: { 200: listAnswer(categorySchema) } } },
    async (request) => categories.list({ page: request.query.page, perPage: request.query.per_page, search: request.query.search }),
  );

  app.get<{ Params: { id: number } }>(
    '/admin/egg-categories/:id',
    { config: { permission: 'admin.nests.list' }, schema: { params: idParams, response: { 200: oneCategory } } },
    async (request) => ({ category: await categories.get(request.params.id) }),
  );

  app.post<{ Body: CategoryBody & { name: string; panel_nest_id: number } }>(
    '/admin/egg-categories',
    {
      config: { permission: 'admin.nests.create' },
      schema: { body: { type: 'object', required: ['name', 'panel_nest_id'], additionalProperties: false, properties: categoryFields }, response: { 201: oneCategory } },
    },
    async (request, reply) => {
      const body = request.body;
      const common = commonValues(ctx, body);
      await categories.assertLinkFree(body.panel_nest_id, null);
      await panel.checkNest(body.panel_nest_id);
      const category = await categories.create({
        name: common.name!,
        description: common.description ?? null,
        panel_nest_id: body.panel_nest_id,
        vip_only: common.vip_only ?? false,
        enabled: common.enabled ?? true,
        image: common.image ?? null,
      });
      await ctx.audit.record(request, { action: 'admin.egg_category.create', details: { category_id: category.id, name: category.name, panel_nest_id: category.panel_nest_id } });
      return reply.code(201).send({ category });
    },
  );

  app.patch<{ Params: { id: number }; Body: CategoryBody }>(
    '/admin/egg-categories/:id',
    {
      config: { permission: 'admin.nests.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: categoryFields }, response: { 200: oneCategory } },
    },
    async (request) => {
      const body = request.body;
      const before = await categories.get(request.params.id);
      const changes: CategoryChanges = { ...commonValues(ctx, body) };
      if (body.panel_nest_id !== undefined && body.panel_nest_id !== before.panel_nest_id) {
        if (before.eggs > 0) {
          throw ctx.httpError(
            409,
            'CATEGORY_HAS_EGGS',
            `The eggs of this category belong to panel nest ${before.panel_nest_id}: delete them before linking another nest.`,
            'panel_nest_id',
          );
        }
        await categories.assertLinkFree(body.panel_nest_id, before.id);
        await panel.checkNest(body.panel_nest_id);
        changes.panel_nest_id = body.panel_nest_id;
      }
      const category = await categories.update(before.id, changes);
      await ctx.audit.record(request, { action: 'admin.egg_category.update', details: { category_id: category.id, name: category.name, changed: changedFields(changes) } });
      return { category };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/egg-categories/:id',
    { config: { permission: 'admin.nests.delete' }, schema: { params: idParams, response: { 200: deletedAnswer } } },
    async (request) => {
      const category = await categories.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.egg_category.delete', details: { category_id: category.id, name: category.name, panel_nest_id: category.panel_nest_id } });
      return { success: true };
    },
  );
}
