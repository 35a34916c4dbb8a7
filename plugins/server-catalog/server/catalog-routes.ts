// /api/admin/catalog: the import from the panel (POST /sync/locations|categories|eggs) and the panel's objects for the pickers
// of the create and edit forms (GET /panel-objects/locations|nests|eggs, each guarded by the list
// permission of the form that shows it), each marked with the row linked to it here.
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { CatalogSync, SyncKind } from './catalog-sync';
import type { PanelLinks } from './panel-links';
import type { CatalogDb } from './tables';

/** importing a kind adds rows of it: the right to create them */
const SYNC_ROUTES = [
  { kind: 'locations', permission: 'admin.locations.create' },
  { kind: 'categories', permission: 'admin.nests.create' },
  { kind: 'eggs', permission: 'admin.egg.create' },
] as const satisfies readonly { kind: SyncKind; permission: string }[];

const kindReport = {
  type: 'object',
  required: ['created', 'updated', 'missing_on_panel'],
  properties: {
    created: { type: 'integer' },
    updated: { type: 'integer' },
    missing_on_panel: {
      type: 'array',
      items: { type: 'object', required: ['id', 'name', 'panel_id'], properties: { id: { type: 'integer' }, name: { type: 'string' }, panel_id: { type: 'integer' } } },
    },
  },
} as const;

const syncAnswer = { type: 'object', properties: { locations: kindReport, categories: kindReport, eggs: kindReport } } as const;

const linked = { type: ['integer', 'null'] } as const;
const panelEgg = {
  type: 'object',
  properties: { id: { type: 'integer' }, nest: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, linked_id: linked },
} as const;
const panelObjectsAnswer = {
  type: 'object',
  properties: {
    locations: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'integer' }, short: { type: 'string' }, long: { type: ['string', 'null'] }, linked_id: linked } },
    },
    nests: {
      type: 'array',
      items: {
        type: 'object',
        properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: ['string', 'null'] }, linked_id: linked, eggs: { type: 'array', items: panelEgg } },
      },
    },
  },
} as const;

/** what each picker lists, and the permission of the form that shows it */
const PANEL_OBJECT_ROUTES = [
  { kind: 'locations', permission: 'admin.locations.list' },
  { kind: 'nests', permission: 'admin.nests.list' },
  { kind: 'eggs', permission: 'admin.egg.list' },
] as const;
type Kind = (typeof PANEL_OBJECT_ROUTES)[number]['kind'];

export function registerCatalogRoutes(app: FastifyInstance, ctx: ServerPluginContext, db: CatalogDb, panel: PanelLinks, sync: CatalogSync): void {
  for (const { kind, permission } of SYNC_ROUTES) {
    app.post(`/admin/catalog/sync/${kind}`, { config: { permission }, schema: { response: { 200: syncAnswer } } }, async (request) => {
      const report = await sync.run(kind);
      const done = report[kind];
      await ctx.audit.record(request, { action: 'admin.catalog.sync', details: { kind, created: done?.created ?? 0, updated: done?.updated ?? 0 } });
      return report;
    });
  }

  const panelObjects = async (kind: Kind) => {
    await panel.requireConfigured();
    const answer: { locations?: unknown[]; nests?: unknown[] } = {};
    if (kind === 'locations') {
      const [onPanel, ours] = await Promise.all([panel.locations(), db.selectFrom('catalog_locations').select(['id', 'panel_location_id']).execute()]);
      const linkedTo = new Map(ours.map((r) => [Number(r.panel_location_id), Number(r.id)]));
      answer.locations = onPanel.map((l) => ({ id: l.id, short: l.short, long: l.long, linked_id: linkedTo.get(l.id) ?? null }));
    }
    if (kind !== 'locations') {
      const [nests, ours] = await Promise.all([panel.nests(), db.selectFrom('catalog_egg_categories').select(['id', 'panel_nest_id']).execute()]);
      const linkedTo = new Map(ours.map((r) => [Number(r.panel_nest_id), Number(r.id)]));
      const withEggs = kind === 'eggs';
      const eggLinks = withEggs
        ? new Map((await db.selectFrom('catalog_eggs').select(['id', 'panel_egg_id']).execute()).map((r) => [Number(r.panel_egg_id), Number(r.id)]))
        : new Map<number, number>();
      const out = [];
      for (const nest of nests) {
        const eggs = withEggs ? await panel.eggsOf(nest.id) : [];
        out.push({
          id: nest.id,
          name: nest.name,
          description: nest.description,
          linked_id: linkedTo.get(nest.id) ?? null,
          eggs: eggs.map((e) => ({ id: e.id, nest: e.nest, name: e.name, description: e.description, linked_id: eggLinks.get(e.id) ?? null })),
        });
      }
      answer.nests = out;
    }
    return answer;
  };

  for (const { kind, permission } of PANEL_OBJECT_ROUTES) {
    app.get(`/admin/catalog/panel-objects/${kind}`, { config: { permission }, schema: { response: { 200: panelObjectsAnswer } } }, () => panelObjects(kind));
  }
}
