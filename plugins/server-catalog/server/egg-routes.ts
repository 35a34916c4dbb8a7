// /api/admin/eggs: the API of /mc-admin/eggs (spec §2), guarded by spec §6's admin.egg.list|create|
// edit|delete. An egg's category must exist and its nest is the category's (a panel_nest_id sent
// along must say the same); while a panel is configured, the egg is looked up there by nest and id.
import type { FastifyInstance } from 'fastify';
import { rowId, type ServerPluginContext } from '@orepanel/sdk/server';
import { changedFields, commonValues, deletedAnswer, eggFields, eggSchema, idParams, listAnswer, listQuery, type CommonBody, type ListQuery } from './catalog-schemas';
import type { CategoryView } from './catalog-rows';
import type { EggCategories } from './egg-categories';
import type { EggChanges, Eggs } from './eggs';
import type { PanelLinks } from './panel-links';

const oneEgg = { type: 'object', required: ['egg'], properties: { egg: eggSchema } } as const;

const eggListQuery = {
  ...listQuery,
  properties: { ...listQuery.properties, category_id: rowId() },
} as const;

interface EggBody extends CommonBody {
  category_id?: number;
  panel_nest_id?: number;
  panel_egg_id?: number;
}

export function registerEggRoutes(app: FastifyInstance, ctx: ServerPluginContext, eggs: Eggs, categories: EggCategories, panel: PanelLinks): void {
  const categoryOf = async (id: number): Promise<CategoryView> => {
    const category = await categories.find(id);
    if (!category) throw ctx.httpError(400, 'CATEGORY_NOT_FOUND', 'There is no such egg category.', 'category_id');
    return category;
  };

  const sameNest = (category: CategoryView, panelNestId: number | undefined) => {
    if (panelNestId !== undefined && panelNestId !== category.panel_nest_id) {
      throw ctx.httpError(400, 'EGG_NEST_MISMATCH', `The category "${category.name}" is panel nest ${category.panel_nest_id}, not ${panelNestId}.`, 'panel_nest_id');
    }
  };

  app.get<{ Querystring: ListQuery & { category_id?: number } }>(
    '/admin/eggs',
    { config: { permission: 'admin.egg.list' }, schema: { querystring: eggListQuery, response: { 200: listAnswer(eggSchema) } } },
    async (request) => eggs.list({ page: request.query.page, perPage: request.query.per_page, search: request.query.search, categoryId: request.query.category_id ?? null }),
  );

  // the categories an egg may go in, for the egg form and the list's filter: whoever manages eggs
  // needs them, also without the nests permissions
  app.get(
    '/admin/eggs/category-choices',
    {
      config: { permission: 'admin.egg.list' },
      schema: {
        response: {
          200: {
            type: 'object',
            required: ['categories'],
            properties: {
              categories: {
                type: 'array',
                items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, panel_nest_id: { type: 'integer' }, enabled: { type: 'boolean' } } },
              },
            },
          },
        },
      },
    },
    async () => ({ categories: (await categories.all()).map((c) => ({ id: c.id, name: c.name, panel_nest_id: c.panel_nest_id, enabled: c.enabled })) }),
  );

  app.get<{ Params: { id: number } }>(
    '/admin/eggs/:id',
    { config: { permission: 'admin.egg.list' }, schema: { params: idParams, response: { 200: oneEgg } } },
    async (request) => ({ egg: await eggs.get(request.params.id) }),
  );

  app.post<{ Body: EggBody & { name: string; category_id: number; panel_egg_id: number } }>(
    '/admin/eggs',
    {
      config: { permission: 'admin.egg.create' },
      schema: { body: { type: 'object', required: ['name', 'category_id', 'panel_egg_id'], additionalProperties: false, properties: eggFields }, response: { 201: oneEgg } },
    },
    async (request, reply) => {
      const body = request.body;
      const common = commonValues(ctx, body);
      const category = await categoryOf(body.category_id);
      sameNest(category, body.panel_nest_id);
      await eggs.assertLinkFree(body.panel_egg_id, null);
      await panel.checkEgg(category.panel_nest_id, body.panel_egg_id);
      const egg = await eggs.create({
        category_id: category.id,
        name: common.name!,
        description: common.description ?? null,
        panel_nest_id: category.panel_nest_id,
        panel_egg_id: body.panel_egg_id,
        vip_only: common.vip_only ?? false,
        enabled: common.enabled ?? true,
        image: common.image ?? null,
      });
      await ctx.audit.record(request, { action: 'admin.egg.create', details: { egg_id: egg.id, name: egg.name, category_id: egg.category_id, panel_egg_id: egg.panel_egg_id } });
      return reply.code(201).send({ egg });
    },
  );

  app.patch<{ Params: { id: number }; Body: EggBody }>(
    '/admin/eggs/:id',
    {
      config: { permission: 'admin.egg.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: eggFields }, response: { 200: oneEgg } },
    },
    async (request) => {
      const body = request.body;
      const before = await eggs.get(request.params.id);
      const changes: EggChanges = { ...commonValues(ctx, body) };
      const category = body.category_id !== undefined && body.category_id !== before.category_id ? await categoryOf(body.category_id) : await categoryOf(before.category_id);
      sameNest(category, body.panel_nest_id);
      const panelEggId = body.panel_egg_id ?? before.panel_egg_id;
      if (category.id !== before.category_id) changes.category_id = category.id;
      if (category.panel_nest_id !== before.panel_nest_id) changes.panel_nest_id = category.panel_nest_id;
      if (panelEggId !== before.panel_egg_id) {
        await eggs.assertLinkFree(panelEggId, before.id);
        changes.panel_egg_id = panelEggId;
      }
      // the panel knows an egg by nest and id: either changing means asking again
      if (changes.panel_egg_id !== undefined || changes.panel_nest_id !== undefined) await panel.checkEgg(category.panel_nest_id, panelEggId);
      const egg = await eggs.update(before.id, changes);
      await ctx.audit.record(request, { action: 'admin.egg.update', details: { egg_id: egg.id, name: egg.name, changed: changedFields(changes) } });
      return { egg };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/eggs/:id',
    { config: { permission: 'admin.egg.delete' }, schema: { params: idParams, response: { 200: deletedAnswer } } },
    async (request) => {
      const egg = await eggs.delete(request.params.id);
      await ctx.audit.record(request, { action: 'admin.egg.delete', details: { egg_id: egg.id, name: egg.name, category_id: egg.category_id, panel_egg_id: egg.panel_egg_id } });
      return { success: true };
    },
  );
}
