// The catalog forms' values, checks and what they send. The server's schemas stay the authority;
// these checks only spare a round trip and put the message next to the field. Problems are i18n keys
// of the server-catalog namespace.
import { CATALOG_LIMITS, isImageAddress, type LocationStatusName } from '../shared/catalog-rules';
import type { Category, Egg, Location } from './api';

export interface CommonFormValues {
  name: string;
  description: string;
  image: string;
  vip_only: boolean;
  enabled: boolean;
}

export interface LocationFormValues extends CommonFormValues {
  panel_location_id: string;
  slots: string;
  status: LocationStatusName;
}

export interface CategoryFormValues extends CommonFormValues {
  panel_nest_id: string;
}

export interface EggFormValues extends CommonFormValues {
  category_id: string;
  panel_egg_id: string;
}

export type Problems<V> = Partial<Record<keyof V, string>>;

const EMPTY_COMMON: CommonFormValues = { name: '', description: '', image: '', vip_only: false, enabled: true };

export const EMPTY_LOCATION: LocationFormValues = { ...EMPTY_COMMON, panel_location_id: '', slots: '0', status: 'online' };
export const EMPTY_CATEGORY: CategoryFormValues = { ...EMPTY_COMMON, panel_nest_id: '' };
export const EMPTY_EGG: EggFormValues = { ...EMPTY_COMMON, category_id: '', panel_egg_id: '' };

function commonOf(row: { name: string; description: string | null; image: string | null; vip_only: boolean; enabled: boolean }): CommonFormValues {
  return { name: row.name, description: row.description ?? '', image: row.image ?? '', vip_only: row.vip_only, enabled: row.enabled };
}

export const locationValuesOf = (l: Location): LocationFormValues => ({ ...commonOf(l), panel_location_id: String(l.panel_location_id), slots: String(l.slots), status: l.status });
export const categoryValuesOf = (c: Category): CategoryFormValues => ({ ...commonOf(c), panel_nest_id: String(c.panel_nest_id) });
export const eggValuesOf = (e: Egg): EggFormValues => ({ ...commonOf(e), category_id: String(e.category_id), panel_egg_id: String(e.panel_egg_id) });

function wholeNumber(text: string, min: number, max: number): 'validation.required' | 'validation.number' | null {
  if (text.trim() === '') return 'validation.required';
  const n = Number(text);
  return Number.isInteger(n) && n >= min && n <= max ? null : 'validation.number';
}

function checkCommon(values: CommonFormValues): Problems<CommonFormValues> {
  const problems: Problems<CommonFormValues> = {};
  const name = values.name.trim();
  if (name === '') problems.name = 'validation.required';
  else if (name.length > CATALOG_LIMITS.nameMaxLength) problems.name = 'validation.nameLength';
  if (values.description.trim().length > CATALOG_LIMITS.descriptionMaxLength) problems.description = 'validation.descriptionLength';
  const image = values.image.trim();
  if (image !== '' && (image.length > CATALOG_LIMITS.imageMaxLength || !isImageAddress(image))) problems.image = 'validation.image';
  return problems;
}

function panelIdProblem(text: string): string | null {
  const problem = wholeNumber(text, 1, CATALOG_LIMITS.maxPanelId);
  return problem === 'validation.required' ? 'validation.pickPanel' : problem;
}

export function checkLocation(values: LocationFormValues): Problems<LocationFormValues> {
  const problems: Problems<LocationFormValues> = checkCommon(values);
  const link = panelIdProblem(values.panel_location_id);
  if (link) problems.panel_location_id = link;
  const slots = wholeNumber(values.slots, 0, CATALOG_LIMITS.maxSlots);
  if (slots) problems.slots = slots === 'validation.number' ? 'validation.slots' : slots;
  return problems;
}

export function checkCategory(values: CategoryFormValues): Problems<CategoryFormValues> {
  const problems: Problems<CategoryFormValues> = checkCommon(values);
  const link = panelIdProblem(values.panel_nest_id);
  if (link) problems.panel_nest_id = link;
  return problems;
}

export function checkEgg(values: EggFormValues): Problems<EggFormValues> {
  const problems: Problems<EggFormValues> = checkCommon(values);
  if (values.category_id === '') problems.category_id = 'validation.pickCategory';
  const link = panelIdProblem(values.panel_egg_id);
  if (link) problems.panel_egg_id = link;
  return problems;
}

type Body = Record<string, string | number | boolean | null>;

const optional = (text: string) => (text.trim() === '' ? null : text.trim());

function commonBody(before: CommonFormValues | null, values: CommonFormValues, body: Body): void {
  if (!before || before.name.trim() !== values.name.trim()) body.name = values.name.trim();
  if (!before || before.description.trim() !== values.description.trim()) body.description = optional(values.description);
  if (!before || before.image.trim() !== values.image.trim()) body.image = optional(values.image);
  if (!before || before.vip_only !== values.vip_only) body.vip_only = values.vip_only;
  if (!before || before.enabled !== values.enabled) body.enabled = values.enabled;
}

/** What to send: every field for a new row, only the changed ones for an existing one. */
export function locationBody(before: LocationFormValues | null, values: LocationFormValues): Body {
  const body: Body = {};
  commonBody(before, values, body);
  if (!before || before.panel_location_id !== values.panel_location_id.trim()) body.panel_location_id = Number(values.panel_location_id);
  if (!before || before.slots !== values.slots.trim()) body.slots = Number(values.slots);
  if (!before || before.status !== values.status) body.status = values.status;
  return body;
}

export function categoryBody(before: CategoryFormValues | null, values: CategoryFormValues): Body {
  const body: Body = {};
  commonBody(before, values, body);
  if (!before || before.panel_nest_id !== values.panel_nest_id.trim()) body.panel_nest_id = Number(values.panel_nest_id);
  return body;
}

export function eggBody(before: EggFormValues | null, values: EggFormValues): Body {
  const body: Body = {};
  commonBody(before, values, body);
  if (!before || before.category_id !== values.category_id) body.category_id = Number(values.category_id);
  if (!before || before.panel_egg_id !== values.panel_egg_id.trim()) body.panel_egg_id = Number(values.panel_egg_id);
  return body;
}
