// Rows as the drivers hand them back (numbers may come as strings: bigint counts on PostgreSQL,
// decimals on MySQL) turned into the API's answers and into the ServerCatalog service's values.
import { sql, type SqlBool } from 'kysely';
import { likeLiteral, type CatalogCategory, type CatalogEgg, type CatalogLocation, type LocationStatus } from '@orepanel/sdk/server';
import type { LocationStatusName } from '../shared/catalog-rules';

type Raw<K extends string> = Record<K, unknown>;

/** What a store writes for the API's fields: the flags (vip_only, enabled) as the integers the tables hold. */
export type Columns<T> = { [K in keyof T]: Exclude<T[K], undefined> extends boolean ? number | Extract<T[K], undefined> : T[K] };

/** The API's fields as columns; an absent field stays absent (an update leaves it alone). */
export function columnsOf<T extends { vip_only?: boolean; enabled?: boolean }>(fields: T): Columns<T> {
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  return { ...fields, vip_only: flag(fields.vip_only), enabled: flag(fields.enabled) } as Columns<T>;
}

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

export interface LocationView {
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

export interface CategoryView {
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

export interface EggView {
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

export function locationView(row: Raw<LocationKeys>): LocationView {
  return {
    id: Number(row.id),
    name: String(row.name),
    description: text(row.description),
    panel_location_id: Number(row.panel_location_id),
    slots: Number(row.slots),
    status: String(row.status) as LocationStatusName,
    vip_only: Number(row.vip_only) === 1,
    enabled: Number(row.enabled) === 1,
    image: text(row.image),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export function categoryView(row: Raw<CategoryKeys> & { egg_count?: unknown }): CategoryView {
  return {
    id: Number(row.id),
    name: String(row.name),
    description: text(row.description),
    panel_nest_id: Number(row.panel_nest_id),
    vip_only: Number(row.vip_only) === 1,
    enabled: Number(row.enabled) === 1,
    image: text(row.image),
    eggs: Number(row.egg_count ?? 0),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
}

export function eggView(row: Raw<EggKeys> & { category_name?: unknown }): EggView {
  return {
    id: Number(row.id),
    category_id: Number(row.category_id),
    category_name: String(row.category_name ?? ''),
    name: String(row.name),
    description: text(row.description),
    panel_nest_id: Number(row.panel_nest_id),
    panel_egg_id: Number(row.panel_egg_id),
    vip_only: Number(row.vip_only) === 1,
    enabled: Number(row.enabled) === 1,
    image: text(row.image),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
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
    enabled: view.enabled,
    image: view.image,
  };
}

export function catalogCategory(view: CategoryView): CatalogCategory {
  return { id: view.id, name: view.name, description: view.description, panelNestId: view.panel_nest_id, vipOnly: view.vip_only, enabled: view.enabled, image: view.image };
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
    enabled: view.enabled,
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
