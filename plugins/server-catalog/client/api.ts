// The server-catalog API's addresses and answers (server/*-routes.ts of this plugin), the admin
// pages' paths and the permissions that guard them (spec §2, §6).
import type { LocationStatusName } from '../shared/catalog-rules';

interface CatalogRow {
  id: number;
  name: string;
  description: string | null;
  vip_only: boolean;
  enabled: boolean;
  image: string | null;
  created_at: string;
  updated_at: string;
  /** the row holds values no request could write (shown as 0, not offered to customers) */
  broken: boolean;
  /** which stored values cannot be read */
  broken_fields: string[];
}

export interface Location extends CatalogRow {
  panel_location_id: number;
  slots: number;
  status: LocationStatusName;
}

export interface Category extends CatalogRow {
  panel_nest_id: number;
  /** how many eggs it holds */
  eggs: number;
}

export interface Egg extends CatalogRow {
  category_id: number;
  category_name: string;
  panel_nest_id: number;
  panel_egg_id: number;
}

/** a category an egg may go in (GET /api/admin/eggs/category-choices) */
export interface CategoryChoice {
  id: number;
  name: string;
  panel_nest_id: number;
  enabled: boolean;
}

export interface MissingRow {
  id: number;
  name: string;
  panel_id: number;
}

export interface KindReport {
  created: number;
  updated: number;
  missing_on_panel: MissingRow[];
}

export interface SyncReport {
  locations: KindReport;
  categories: KindReport;
  eggs: KindReport;
}

export interface PanelLocationChoice {
  id: number;
  short: string;
  long: string | null;
  /** our location linked to it, if any */
  linked_id: number | null;
}

export interface PanelEggChoice {
  id: number;
  nest: number;
  name: string;
  description: string | null;
  linked_id: number | null;
}

export interface PanelNestChoice {
  id: number;
  name: string;
  description: string | null;
  linked_id: number | null;
  eggs: PanelEggChoice[];
}

export interface PanelObjects {
  locations?: PanelLocationChoice[];
  nests?: PanelNestChoice[];
}

export type PanelObjectKind = 'locations' | 'nests' | 'eggs';

const one = (base: string) => (id: number | string) => `${base}/${encodeURIComponent(String(id))}`;

export const apiUrl = {
  locations: '/api/admin/locations',
  location: one('/api/admin/locations'),
  categories: '/api/admin/egg-categories',
  category: one('/api/admin/egg-categories'),
  eggs: '/api/admin/eggs',
  egg: one('/api/admin/eggs'),
  categoryChoices: '/api/admin/eggs/category-choices',
  sync: (kind: SyncKind) => `/api/admin/catalog/sync/${kind}`,
  panelObjects: (kind: PanelObjectKind) => `/api/admin/catalog/panel-objects/${kind}`,
};

function pathsOf(base: string) {
  return { list: base, create: `${base}/create`, edit: (id: number) => `${base}/${id}/edit`, delete: (id: number) => `${base}/${id}/delete` };
}

export const adminPath = {
  locations: pathsOf('/mc-admin/locations'),
  categories: pathsOf('/mc-admin/egg-categories'),
  eggs: pathsOf('/mc-admin/eggs'),
};

function permissionsOf(area: string) {
  return { list: `admin.${area}.list`, create: `admin.${area}.create`, edit: `admin.${area}.edit`, delete: `admin.${area}.delete` } as const;
}

export const PERMISSIONS = {
  locations: permissionsOf('locations'),
  // spec §2: egg categories are guarded by the nests permissions
  categories: permissionsOf('nests'),
  eggs: permissionsOf('egg'),
};

export type SyncKind = 'locations' | 'categories' | 'eggs';

/** importing a kind adds rows of it: the right to create them (admin.root passes) */
export const SYNC_PERMISSION: Record<SyncKind, string> = {
  locations: PERMISSIONS.locations.create,
  categories: PERMISSIONS.categories.create,
  eggs: PERMISSIONS.eggs.create,
};
