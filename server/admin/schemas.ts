// JSON schemas and helpers shared by the admin API's modules: paging, ids, the error responses (the
// sdk's, which plugins' admin routes use too), and the admin's own keys.
export { errorResponses, idParams, MAX_PER_PAGE, pageMeta, pageMetaSchema, pagingQuery, successSchema, type PagingQuery } from '../../sdk/server';

export const uuidParams = {
  type: 'object',
  required: ['uuid'],
  additionalProperties: false,
  properties: { uuid: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } },
} as const;

export const pluginIdParams = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: { type: 'string', pattern: '^[a-z][a-z0-9-]{1,39}$' } },
} as const;
