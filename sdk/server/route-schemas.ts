// JSON-schema pieces the API's routes share, core and plugins alike, so that every list pages the
// same way and every error answer is documented with the one error shape.

/** The error shape every 4xx/5xx answer has: `{ error: { code, message, field? } }`. */
export const errorResponseSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: { code: { type: 'string' }, message: { type: 'string' }, field: { type: 'string' } },
    },
  },
} as const;

/** The error answers a guarded route that reads and changes rows may give (bad input, session, permission, missing, conflict). */
export const errorResponses = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
} as const;

export const MAX_PER_PAGE = 100;

/** `?page=&per_page=` of a paged list (defaults 1 and 20, at most MAX_PER_PAGE a page). */
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

/** The `meta` of a paged list's answer. */
export const pageMetaSchema = {
  type: 'object',
  required: ['page', 'per_page', 'total', 'total_pages'],
  properties: { page: { type: 'integer' }, per_page: { type: 'integer' }, total: { type: 'integer' }, total_pages: { type: 'integer' } },
} as const;

export function pageMeta(page: number, perPage: number, total: number): { page: number; per_page: number; total: number; total_pages: number } {
  return { page, per_page: perPage, total, total_pages: Math.ceil(total / perPage) };
}

/** `/:id` of a row (1 … the largest 32-bit id). */
export const idParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
} as const;

/** `{ success: true }` */
export const successSchema = { type: 'object', required: ['success'], properties: { success: { type: 'boolean' } } } as const;

/** The answer of an unpaged list: `{ data: [item, …] }`. */
export function dataListSchema<const Item extends object>(items: Item) {
  return { type: 'object', required: ['data'], properties: { data: { type: 'array', items } } } as const;
}
