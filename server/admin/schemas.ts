// JSON schemas and helpers shared by the admin API's modules: paging, ids, the error responses.
import { errorResponseSchema } from '../http/errors';

export const MAX_PER_PAGE = 100;

export const pagingQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 1_000_000, default: 1 },
    per_page: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: 20 },
  },
} as const;

export interface PagingQuery {
  page: number;
  per_page: number;
}

export const pageMetaSchema = {
  type: 'object',
  required: ['page', 'per_page', 'total', 'total_pages'],
  properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, total_pages: { type: 'integer' } },
} as const;

export function pageMeta(page: number, perPage: number, total: number) {
  return { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) };
}

export const uuidParams = {
  type: 'object',
  required: ['uuid'],
  additionalProperties: false,
  properties: { uuid: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } },
} as const;

export const idParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

export const pluginIdParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,39}$' } },
} as const;

/** The error answers every admin route may give. */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
} as const;

export const successSchema = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;
