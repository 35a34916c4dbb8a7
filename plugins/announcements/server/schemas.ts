// The JSON schemas of the announcements plugin's routes: every body, query and answer bounded.
import { pageMetaSchema, pagingQuery } from '@orepanel/sdk/server';
import { STATUSES } from './announcements';
import { SEVERITIES } from './tables';

export const LIMITS = { titleMaxLength: 160, summaryMaxLength: 300, bodyMaxLength: 50_000, tags: 10, roles: 50 } as const;

/** a tag: lower-case letters, digits and dashes (so a LIKE on ",tag," needs no escaping) */
export const TAG_PATTERN = '^[a-z0-9][a-z0-9-]{0,31}$';
/** an ISO-8601 UTC time as the pages send it (toISOString), to the minute at least */
const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,3})?)?Z$';

const severity = { type: 'string', enum: [...SEVERITIES] } as const;
const tag = { type: 'string', pattern: TAG_PATTERN } as const;
const time = { type: ['string', 'null'], pattern: TIME_PATTERN } as const;

const inputProperties = {
  title: { type: 'string', minLength: 1, maxLength: LIMITS.titleMaxLength },
  summary: { type: 'string', maxLength: LIMITS.summaryMaxLength },
  body: { type: 'string', maxLength: LIMITS.bodyMaxLength },
  tags: { type: 'array', maxItems: LIMITS.tags, uniqueItems: true, items: tag },
  severity,
  pinned: { type: 'boolean' },
  mail: { type: 'boolean' },
  role_ids: { type: 'array', maxItems: LIMITS.roles, uniqueItems: true, items: { type: 'integer', minimum: 1, maximum: 2_147_483_647 } },
  publish_at: time,
  expire_at: time,
} as const;

const imageView = {
  type: 'object',
  required: ['key', 'name', 'url', 'size'],
  properties: { key: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' }, size: { type: 'integer' } },
} as const;

const adminView = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    summary: { type: 'string' },
    body: { type: 'string' },
    tags: { type: 'array', items: { type: 'string' } },
    severity: { type: 'string' },
    pinned: { type: 'boolean' },
    mail: { type: 'boolean' },
    role_ids: { type: 'array', items: { type: 'integer' } },
    publish_at: { type: ['string', 'null'] },
    expire_at: { type: ['string', 'null'] },
    status: { type: 'string', enum: [...STATUSES] },
    author: { type: ['string', 'null'] },
    images: { type: 'array', items: imageView },
    created_at: { type: 'string' },
    updated_at: { type: 'string' },
  },
} as const;

const cardProperties = {
  id: { type: 'integer' },
  title: { type: 'string' },
  summary: { type: 'string' },
  tags: { type: 'array', items: { type: 'string' } },
  severity: { type: 'string' },
  pinned: { type: 'boolean' },
  publish_at: { type: 'string' },
  image: { type: ['string', 'null'] },
  read: { type: 'boolean' },
} as const;

export const schemas = {
  createBody: { type: 'object', required: ['title', 'body', 'severity'], additionalProperties: false, properties: inputProperties },
  editBody: { type: 'object', minProperties: 1, additionalProperties: false, properties: inputProperties },
  previewBody: { type: 'object', required: ['body'], additionalProperties: false, properties: { body: inputProperties.body } },
  previewAnswer: { type: 'object', required: ['html'], properties: { html: { type: 'string' } } },
  adminListQuery: {
    type: 'object',
    additionalProperties: false,
    properties: { ...pagingQuery.properties, search: { type: 'string', maxLength: 100 }, status: { type: 'string', enum: [...STATUSES] } },
  },
  adminList: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: adminView }, meta: pageMetaSchema } },
  adminOne: { type: 'object', required: ['announcement'], properties: { announcement: adminView } },
  image: { type: 'object', required: ['image'], properties: { image: imageView } },
  imageParams: {
    type: 'object',
    required: ['id', 'key'],
    additionalProperties: false,
    properties: { id: { type: 'integer', minimum: 1, maximum: 2_147_483_647 }, key: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } },
  },
  keyParams: { type: 'object', required: ['key'], additionalProperties: false, properties: { key: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}$' } } },
  publishedQuery: { type: 'object', additionalProperties: false, properties: { ...pagingQuery.properties, tag } },
  publishedList: {
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: { type: 'array', items: { type: 'object', properties: cardProperties } }, meta: pageMetaSchema },
  },
  publishedOne: {
    type: 'object',
    required: ['announcement'],
    properties: {
      announcement: {
        type: 'object',
        properties: { ...cardProperties, body_html: { type: 'string' }, images: { type: 'array', items: imageView }, expire_at: { type: ['string', 'null'] } },
      },
    },
  },
  banners: {
    type: 'object',
    required: ['data'],
    properties: {
      data: {
        type: 'array',
        items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, summary: { type: 'string' }, severity: { type: 'string' } } },
      },
    },
  },
} as const;
