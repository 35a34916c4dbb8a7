// The import from the panel, one kind at a time (locations, categories = nests, eggs): reads what the
// panel has of that kind first — so a panel that fails half-way leaves nothing saved — then adds
// what is not linked yet and renames what is. New rows start disabled (and a new location with no slots): an administrator reviews them
// before customers see them. Every add is "insert unless the panel id is taken", so an import run
// twice, or twice at once, adds each panel object once; a rename only touches a row whose name
// differs, so the second run reports nothing to do.
import { insertUnlessTaken, storedCount, type PanelEgg, type PanelLocation, type PanelNest, type ServerPluginContext } from '@orepanel/sdk/server';
import { CATALOG_LIMITS } from '../shared/catalog-rules';
import type { PanelLinks } from './panel-links';
import type { CatalogDb } from './tables';

/** A stored panel id for the report: an unreadable one (the row is flagged in its list) as 0. */
const panelIdOf = (value: unknown): number => storedCount(value, CATALOG_LIMITS.maxPanelId, 1) ?? 0;

export interface MissingRow {
  id: number;
  name: string;
  panel_id: number;
}

export interface KindReport {
  created: number;
  updated: number;
  /** our rows linked to a panel object the panel no longer has (kept: an administrator decides) */
  missing_on_panel: MissingRow[];
}

export interface SyncReport {
  locations: KindReport;
  categories: KindReport;
  eggs: KindReport;
}

export const SYNC_KINDS = ['locations', 'categories', 'eggs'] as const;
export type SyncKind = (typeof SYNC_KINDS)[number];

const clip = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);

/** the name a panel object goes by here */
export function locationName(location: PanelLocation): string {
  // the long name is what people read ("Frankfurt, Germany"); the short one is the panel's code
  return clip((location.long ?? '').trim() || location.short.trim() || `#${location.id}`, CATALOG_LIMITS.nameMaxLength);
}

const nameOf = (name: string, id: number) => clip(name.trim() || `#${id}`, CATALOG_LIMITS.nameMaxLength);
const descriptionOf = (text: string | null) => {
  const trimmed = (text ?? '').trim();
  return trimmed === '' ? null : clip(trimmed, CATALOG_LIMITS.descriptionMaxLength);
};

export class CatalogSync {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: CatalogDb,
    private readonly panel: PanelLinks,
  ) {}

  /**
   * Imports one kind: what an administrator may create decides what they may import (locations:
   * admin.locations.create, categories: admin.nests.create, eggs: admin.egg.create). Eggs are
   * imported into the categories linked to their nest; a nest without one waits for its category.
   */
  async run(kind: SyncKind): Promise<Partial<SyncReport>> {
    await this.panel.requireConfigured();
    const now = new Date(this.ctx.clock.now()).toISOString();
    if (kind === 'locations') return { locations: await this.syncLocations(await this.panel.locations(), now) };
    const nests = await this.panel.nests();
    if (kind === 'categories') return { categories: await this.syncCategories(nests, now) };
    const eggs: PanelEgg[] = [];
    // one nest after another: the panel limits requests per minute; everything is read before writing
    for (const nest of nests) eggs.push(...(await this.panel.eggsOf(nest.id)));
    return { eggs: await this.syncEggs(eggs, now) };
  }

  private inserted(result: { numInsertedOrUpdatedRows?: bigint }): number {
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0 ? 1 : 0;
  }

  private async syncLocations(panel: PanelLocation[], now: string): Promise<KindReport> {
    const report: KindReport = { created: 0, updated: 0, missing_on_panel: [] };
    for (const location of panel) {
      const name = locationName(location);
      const added = await insertUnlessTaken(
        this.ctx.dialect,
        this.db.insertInto('catalog_locations').values({
          name,
          description: null,
          panel_location_id: location.id,
          slots: 0,
          status: 'online',
          vip_only: 0,
          enabled: 0,
          image: null,
          created_at: now,
          updated_at: now,
        }),
      ).executeTakeFirst();
      if (this.inserted(added)) {
        report.created++;
        continue;
      }
      const renamed = await this.db
        .updateTable('catalog_locations')
        .set({ name, updated_at: now })
        .where('panel_location_id', '=', location.id)
        .where('name', '!=', name)
        .executeTakeFirst();
      report.updated += Number(renamed.numUpdatedRows) > 0 ? 1 : 0;
    }
    const onPanel = new Set(panel.map((l) => l.id));
    const ours = await this.db.selectFrom('catalog_locations').select(['id', 'name', 'panel_location_id']).orderBy('name').execute();
    report.missing_on_panel = ours
      .filter((r) => !onPanel.has(Number(r.panel_location_id)))
      .map((r) => ({ id: Number(r.id), name: r.name, panel_id: panelIdOf(r.panel_location_id) }));
    return report;
  }

  private async syncCategories(panel: PanelNest[], now: string): Promise<KindReport> {
    const report: KindReport = { created: 0, updated: 0, missing_on_panel: [] };
    for (const nest of panel) {
      const name = nameOf(nest.name, nest.id);
      const added = await insertUnlessTaken(
        this.ctx.dialect,
        this.db.insertInto('catalog_egg_categories').values({
          name,
          description: descriptionOf(nest.description),
          panel_nest_id: nest.id,
          vip_only: 0,
          enabled: 0,
          image: null,
          created_at: now,
          updated_at: now,
        }),
      ).executeTakeFirst();
      if (this.inserted(added)) {
        report.created++;
        continue;
      }
      const renamed = await this.db
        .updateTable('catalog_egg_categories')
        .set({ name, updated_at: now })
        .where('panel_nest_id', '=', nest.id)
        .where('name', '!=', name)
        .executeTakeFirst();
      report.updated += Number(renamed.numUpdatedRows) > 0 ? 1 : 0;
    }
    const onPanel = new Set(panel.map((n) => n.id));
    const ours = await this.db.selectFrom('catalog_egg_categories').select(['id', 'name', 'panel_nest_id']).orderBy('name').execute();
    report.missing_on_panel = ours.filter((r) => !onPanel.has(Number(r.panel_nest_id))).map((r) => ({ id: Number(r.id), name: r.name, panel_id: panelIdOf(r.panel_nest_id) }));
    return report;
  }

  private async syncEggs(panel: PanelEgg[], now: string): Promise<KindReport> {
    const report: KindReport = { created: 0, updated: 0, missing_on_panel: [] };
    // the categories as they are now (this import has just added the missing ones)
    const categories = await this.db.selectFrom('catalog_egg_categories').select(['id', 'panel_nest_id']).execute();
    const categoryOfNest = new Map(categories.map((c) => [Number(c.panel_nest_id), Number(c.id)]));
    for (const egg of panel) {
      // a category deleted by an administrator while this import ran: its eggs wait for the next one
      const categoryId = categoryOfNest.get(egg.nest);
      if (categoryId === undefined) continue;
      const name = nameOf(egg.name, egg.id);
      const added = await insertUnlessTaken(
        this.ctx.dialect,
        this.db.insertInto('catalog_eggs').values({
          category_id: categoryId,
          name,
          description: descriptionOf(egg.description),
          panel_nest_id: egg.nest,
          panel_egg_id: egg.id,
          vip_only: 0,
          enabled: 0,
          image: null,
          created_at: now,
          updated_at: now,
        }),
      ).executeTakeFirst();
      if (this.inserted(added)) {
        report.created++;
        continue;
      }
      // renamed, or moved to another nest on the panel: it follows into that nest's category
      const changed = await this.db
        .updateTable('catalog_eggs')
        .set({ name, category_id: categoryId, panel_nest_id: egg.nest, updated_at: now })
        .where('panel_egg_id', '=', egg.id)
        .where((eb) => eb.or([eb('name', '!=', name), eb('panel_nest_id', '!=', egg.nest)]))
        .executeTakeFirst();
      report.updated += Number(changed.numUpdatedRows) > 0 ? 1 : 0;
    }
    const onPanel = new Set(panel.map((e) => e.id));
    const ours = await this.db.selectFrom('catalog_eggs').select(['id', 'name', 'panel_egg_id']).orderBy('name').execute();
    report.missing_on_panel = ours.filter((r) => !onPanel.has(Number(r.panel_egg_id))).map((r) => ({ id: Number(r.id), name: r.name, panel_id: panelIdOf(r.panel_egg_id) }));
    return report;
  }
}
