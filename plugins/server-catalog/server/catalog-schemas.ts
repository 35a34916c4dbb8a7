// The JSON schemas of the catalog's admin API and the checks a schema cannot say (a name that is only
// spaces, an image address with another scheme), shared by the three kinds.
import { boundedInteger, rowId, type ServerPluginContext } from '@orepanel/sdk/server';
import { CATALOG_LIMITS, isImageAddress, LOCATION_STATUSES } from '../shared/catalog-rules';

export const MAX_PER_PAGE = 100;

const panelId = boundedInteger(1, CATALOG_LIMITS.maxPanelId);

export const commonFields = {
  name: { type: 'string', minLength: 1, maxLength: CATALOG_LIMITS.nameMaxLength },
  description: { type: ['string', 'null'], maxLength: CATALOG_LIMITS.descriptionMaxLength },
  vip_only: { type: 'boolean' },
  enabled: { type: 'boolean' },
  image: { type: ['string', 'null'], maxLength: CATALOG_LIMITS.imageMaxLength },
} as const;

export const locationFields = {
  ...commonFields,
  panel_location_id: panelId,
  slots: boundedInteger(0, CATALOG_LIMITS.maxSlots),
  status: { type: 'string', enum: LOCATION_STATUSES },
} as const;

export const categoryFields = { ...commonFields, panel_nest_id: panelId } as const;

export const eggFields = { ...commonFields, category_id: rowId(), panel_nest_id: panelId, panel_egg_id: panelId } as const;

const stamp = { created_at: { type: 'string' }, updated_at: { type: 'string' } } as const;
const common = {
  id: { type: 'integer' },
  name: { type: 'string' },
  description: { type: ['string', 'null'] },
  vip_only: { type: 'boolean' },
  enabled: { type: 'boolean' },
  image: { type: ['string', 'null'] },
  // a row holding a value no request could write (catalog-rows.ts)
  broken: { type: 'boolean' },
  broken_fields: { type: 'array', items: { type: 'string' } },
} as const;

export const locationSchema = {
  type: 'object',
  properties: { ...common, panel_location_id: { type: 'integer' }, slots: { type: 'integer' }, status: { type: 'string' }, ...stamp },
} as const;

export const categorySchema = { type: 'object', properties: { ...common, panel_nest_id: { type: 'integer' }, eggs: { type: 'integer' }, ...stamp } } as const;

export const eggSchema = {
  type: 'object',
  properties: { ...common, category_id: { type: 'integer' }, category_name: { type: 'string' }, panel_nest_id: { type: 'integer' }, panel_egg_id: { type: 'integer' }, ...stamp },
} as const;

export const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: rowId() } } as const;

export const listQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: boundedInteger(1, 1_000_000, { default: 1 }),
    per_page: boundedInteger(1, MAX_PER_PAGE, { default: 20 }),
    search: { type: 'string', maxLength: 100, default: '' },
  },
} as const;

export function listAnswer(item: object) {
  return {
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data: { type: 'array', items: item },
      meta: {
        type: 'object',
        required: ['page', 'per_page', 'total', 'total_pages'],
        properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, total_pages: { type: 'integer' } },
      },
    },
  } as const;
}

export const deletedAnswer = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

export interface ListQuery {
  page: number;
  per_page: number;
  search: string;
}

export interface CommonBody {
  name?: string;
  description?: string | null;
  vip_only?: boolean;
  enabled?: boolean;
  image?: string | null;
}

export interface CommonValues {
  name?: string;
  description?: string | null;
  vip_only?: boolean;
  enabled?: boolean;
  image?: string | null;
}

/** The shared fields of a body, tidied (trimmed; an empty description or image is none) and checked. */
export function commonValues(ctx: ServerPluginContext, body: CommonBody): CommonValues {
  const out: CommonValues = {};
  if (body.name !== undefined) {
    const name = body.name.trim();
    if (name === '') throw ctx.httpError(400, 'VALIDATION_ERROR', 'The name must not be empty.', 'name');
    out.name = name;
  }
  if (body.description !== undefined) {
    const text = body.description === null ? '' : body.description.trim();
    out.description = text === '' ? null : text;
  }
  if (body.image !== undefined) {
    const text = body.image === null ? '' : body.image.trim();
    if (text !== '' && !isImageAddress(text)) throw ctx.httpError(400, 'VALIDATION_ERROR', 'The image must be an http(s) address or a path on this site.', 'image');
    out.image = text === '' ? null : text;
  }
  if (body.vip_only !== undefined) out.vip_only = body.vip_only;
  if (body.enabled !== undefined) out.enabled = body.enabled;
  return out;
}

/** The names of the fields a change touches, for the audit log. */
export function changedFields(changes: object): string {
  return Object.keys(changes).sort().join(',');
}
