// /api/admin/locations: list (paged, searched by name or panel id), one, create, edit, delete — the
// API of /mc-admin/locations (spec §2), guarded by spec §6's admin.locations.list|create|edit|delete.
// While a panel is configured, a new or changed link is checked there first; nothing is saved when
// the panel refuses it or cannot be asked.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { LocationStatusName } from '../shared/catalog-rules';
import { changedFields, commonValues, deletedAnswer, idParams, listAnswer, listQuery, locationFields, locationSchema, type CommonBody, type ListQuery } from './catalog-schemas';
import type { LocationChanges, Locations } from './locations';
import type { PanelLinks } from './panel-links';

const oneLocation = { type: 'object', required: ['location'], properties: { location: locationSchema } } as const;

interface LocationBody extends CommonBody {
  panel_location_id?: number;
  slots?: number;
  status?: LocationStatusName;
}

export function registerLocationRoutes(app: FastifyInstance, ctx: ServerPluginContext, locations: Locations, panel: PanelLinks): void {
  app.get<{ Querystring: ListQuery }>(
    '/admin/locations',
    { config: { permission: 'admin.locations.list' }, schema: { querystring: listQuery, response: { 200: listAnswer(locationSchema) } } },
    async (request) => locations.list({ page: request.query.page, perPage: request.query.per_page, search: request.query.search }),
  );

  app.get<{ Params: { id: number } }>(
    '/admin/locations/:id',
    { config: { permission: 'admin.locations.list' }, schema: { params: idParams, response: { 200: oneLocation } } },
    async (request) => ({ location: await locations.get(request.params.id) }),
  );

  app.post<{ Body: LocationBody & { name: string; panel_location_id: number } }>(
    '/admin/locations',
    {
      config: { permission: 'admin.locations.create' },
      schema: { body: { type: 'object', required: ['name', 'panel_location_id'], additionalProperties: false, properties: locationFields }, response: { 201: oneLocation } },
    },
    async (request, reply) => {
      const body = request.body;
      const common = commonValues(ctx, body);
      await locations.assertLinkFree(body.panel_location_id, null);
      await panel.checkLocation(body.panel_location_id);
      const location = await locations.create({
        name: common.name!,
        description: common.description ?? null,
        panel_location_id: body.panel_location_id,
        slots: body.slots ?? 0,
        status: body.status ?? 'online',
        vip_only: common.vip_only ?? false,
        enabled: common.enabled ?? true,
        image: common.image ?? null,
      });
      await ctx.audit.record(request, {
        action: 'admin.location.create',
        details: { location_id: location.id, name: location.name, panel_location_id: location.panel_location_id },
      });
      return reply.code(201).send({ location });
    },
  );

  app.patch<{ Params: { id: number }; Body: LocationBody }>(
    '/admin/locations/:id',
    {
      config: { permission: 'admin.locations.edit' },
      schema: { params: idParams, body: { type: 'object', additionalProperties: false, minProperties: 1, properties: locationFields }, response: { 200: oneLocation } },
    },
    async (request) => {
      const body = request.body;
      const before = await locations.get(request.params.id);
      const changes: LocationChanges = { ...commonValues(ctx, body) };
      if (body.slots !== undefined) changes.slots = body.slots;
      if (body.status !== undefined) changes.status = body.status;
      if (body.panel_location_id !== undefined && body.panel_location_id !== before.panel_location_id) {
        await locations.assertLinkFree(body.panel_location_id, before.id);
        await panel.checkLocation(body.panel_location_id);
        changes.panel_location_id = body.panel_location_id;
      }
      const location = await locations.update(before.id, changes);
      await ctx.audit.record(request, { action: 'admin.location.update', details: { location_id: location.id, name: location.name, changed: changedFields(changes) } });
      return { location };
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/locations/:id',
    { config: { permission: 'admin.locations.delete' }, schema: { params: idParams, response: { 200: deletedAnswer } } },
    async (request) => {
      const location = await locations.delete(request.params.id);
      await ctx.audit.record(request, {
        action: 'admin.location.delete',
        details: { location_id: location.id, name: location.name, panel_location_id: location.panel_location_id },
      });
      return { success: true };
    },
  );
}
