// Rows as the drivers hand them back (numbers may come as strings: bigint counts on PostgreSQL,
// decimals on MySQL) turned into the API's answers and into the ServerCatalog service's values.
// A stored panel id, slot count or flag that no request could have written (a hand edit, SQLite's
// REAL Infinity or text in an INTEGER column) is shown as 0, and the row is flagged `broken` with
// the fields named: the lists still answer, and the ServerCatalog service offers the row as
// disabled, so nothing is built from it until an administrator mends it.
import { sql, type SqlBool } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import { likeLiteral, MAX_ROW_ID, storedCount } from '@orepanel/sdk/server';
import type { CatalogCategory, CatalogEgg, CatalogLocation, LocationStatus } from '../contract';
import { CATALOG_LIMITS, type LocationStatusName } from '../shared/catalog-rules';

type Raw<K extends string> = Record<K, unknown>;

/** What a store writes for the API's fields: the flags (vip_only, enabled) as the integers the tables hold. */
export type Columns<T> = { [K in keyof T]: Exclude<T[K], undefined> extends boolean ? number | Extract<T[K], undefined> : T[K] };

/** The API's fields as columns; an absent field stays absent (an update leaves it alone). */
export function columnsOf<T extends { vip_only?: boolean; enabled?: boolean }>(fields: T): Columns<T> {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  return { ...fields, vip_only: flag(fields.vip_only), enabled: flag(fields.enabled) } as Columns<T>;
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export interface RowHealth {
  broken: boolean;
  /** the unreadable fields; empty when the row is sound */
  broken_fields: string[];
}

/** Reads one row's numbers, collecting the names of those that are not what the API writes. */
function rowReader() {
  const fields: string[] = [];
  const checked = (field: string, value: number | null) => {
    if (value === null) fields.push(field);
    return value ?? 0;
  };
  return {
    panelId: (field: string, value: unknown) => checked(field, storedCount(value, CATALOG_LIMITS.maxPanelId, 1)),
    rowId: (field: string, value: unknown) => checked(field, storedCount(value, MAX_ROW_ID, 1)),
    count: (field: string, value: unknown, max: number) => checked(field, storedCount(value, max)),
    /** a 0/1 column; an unreadable one reads as `whenBroken` */
    flag: (field: string, value: unknown, whenBroken: boolean) => {
      const n = storedCount(value, 1);
      return n === null ? (fields.push(field), whenBroken) : n === 1;
    },
    health: (): RowHealth => ({ broken: fields.length > 0, broken_fields: fields }),
  };
}

/** Logs the broken rows of a read (one line each) and hands the rows on. */
export function logBroken<T extends RowHealth & { id: number }>(rows: T[], table: string, log: FastifyBaseLogger): T[] {
  for (const row of rows)
    if (row.broken) log.warn({ table, id: row.id, fields: row.broken_fields }, 'server-catalog: a row holds unreadable values; listed as 0, offered as disabled until mended');
  return rows;
}

export interface LocationView extends RowHealth {
  id: number;
  name: string;
  description: string | null;
  panel_location_id: number;
  slots: number;
  status: LocationStatusName;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
  created_at: string;
  updated_at: string;
}

export interface CategoryView extends RowHealth {
  id: number;
  name: string;
  description: string | null;
  panel_nest_id: number;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
  /** how many eggs it holds (a category is deleted only when none) */
  eggs: number;
  created_at: string;
  updated_at: string;
}

export interface EggView extends RowHealth {
  id: number;
  category_id: number;
  category_name: string;
  name: string;
  description: string | null;
  panel_nest_id: number;
  panel_egg_id: number;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
  created_at: string;
  updated_at: string;
}

type LocationKeys = 'id' | 'name' | 'description' | 'panel_location_id' | 'slots' | 'status' | 'vip_only' | 'enabled' | 'image' | 'created_at' | 'updated_at';
type CategoryKeys = 'id' | 'name' | 'description' | 'panel_nest_id' | 'vip_only' | 'enabled' | 'image' | 'created_at' | 'updated_at';
type EggKeys = 'id' | 'category_id' | 'name' | 'description' | 'panel_nest_id' | 'panel_egg_id' | 'vip_only' | 'enabled' | 'image' | 'created_at' | 'updated_at';

// an unreadable vip_only reads as VIP only, an unreadable enabled as disabled: never more open than meant
export function locationView(row: Raw<LocationKeys>): LocationView {
  const read = rowReader();
  return {
    id: Number(row.id),
    name: String(row.name),
    description: text(row.description),
    panel_location_id: read.panelId('panel_location_id', row.panel_location_id),
    slots: read.count('slots', row.slots, CATALOG_LIMITS.maxSlots),
    status: String(row.status) as LocationStatusName,
    vip_only: read.flag('vip_only', row.vip_only, true),
    enabled: read.flag('enabled', row.enabled, false),
    image: text(row.image),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    ...read.health(),
  };
}

export function categoryView(row: Raw<CategoryKeys> & { egg_count?: unknown }): CategoryView {
  const read = rowReader();
  return {
    id: Number(row.id),
    name: String(row.name),
    description: text(row.description),
    panel_nest_id: read.panelId('panel_nest_id', row.panel_nest_id),
    vip_only: read.flag('vip_only', row.vip_only, true),
    enabled: read.flag('enabled', row.enabled, false),
    image: text(row.image),
    eggs: Number(row.egg_count ?? 0),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    ...read.health(),
  };
}

export function eggView(row: Raw<EggKeys> & { category_name?: unknown }): EggView {
  const read = rowReader();
  return {
    id: Number(row.id),
    category_id: read.rowId('category_id', row.category_id),
    category_name: String(row.category_name ?? ''),
    name: String(row.name),
    description: text(row.description),
    panel_nest_id: read.panelId('panel_nest_id', row.panel_nest_id),
    panel_egg_id: read.panelId('panel_egg_id', row.panel_egg_id),
    vip_only: read.flag('vip_only', row.vip_only, true),
    enabled: read.flag('enabled', row.enabled, false),
    image: text(row.image),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
    ...read.health(),
  };
}

export function catalogLocation(view: LocationView): CatalogLocation {
  return {
    id: view.id,
    name: view.name,
    description: view.description,
    panelLocationId: view.panel_location_id,
    slots: view.slots,
    status: view.status as LocationStatus,
    vipOnly: view.vip_only,
    enabled: view.enabled && !view.broken,
    image: view.image,
  };
}

export function catalogCategory(view: CategoryView): CatalogCategory {
  return {
    id: view.id,
    name: view.name,
    description: view.description,
    panelNestId: view.panel_nest_id,
    vipOnly: view.vip_only,
    enabled: view.enabled && !view.broken,
    image: view.image,
  };
}

export function catalogEgg(view: EggView): CatalogEgg {
  return {
    id: view.id,
    categoryId: view.category_id,
    name: view.name,
    description: view.description,
    panelNestId: view.panel_nest_id,
    panelEggId: view.panel_egg_id,
    vipOnly: view.vip_only,
    enabled: view.enabled && !view.broken,
    image: view.image,
  };
}

/**
 * A case-insensitive "name contains" condition ('!' escapes LIKE's wildcards, the same on the three
 * dialects; lower() on both sides because PostgreSQL's LIKE minds case).
 */
export function nameContains(column: string, search: string) {
  const pattern = `%${likeLiteral(search.toLowerCase())}%`;
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '!'`;
}

export interface Paging {
  page: number;
  perPage: number;
  search: string;
}

export interface PageOf<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number; total_pages: number };
}

export function pageOf<T>(rows: T[], total: number, paging: Paging): PageOf<T> {
  return { data: rows, meta: { page: paging.page, per_page: paging.perPage, total, total_pages: Math.ceil(total / paging.perPage) } };
}
