// The JSON schemas of the tickets plugin's routes: every body, query and answer bounded.
import { dataListSchema, pageMetaSchema, pagingQuery, rowId } from '@orepanel/sdk/server';
import { serverIdProperty } from './linked-server';
import { FROM_PATTERN, HOURS_LIMITS, TIME_ZONE_PATTERN, TO_PATTERN, WEEKDAYS } from '../shared/opening-hours';
import { attachmentViewSchema } from './attachments';
import { DEPARTMENT_LIMITS } from './departments';
import { STAFF_SORTS, STAFF_STATUSES, TICKET_LIMITS } from './desk';
import { TICKET_PRIORITIES, TICKET_STATUSES } from './tables';

const subject = { type: 'string', minLength: TICKET_LIMITS.subjectMinLength, maxLength: TICKET_LIMITS.subjectMaxLength } as const;
const message = { type: 'string', minLength: TICKET_LIMITS.messageMinLength, maxLength: TICKET_LIMITS.messageMaxLength } as const;
const status = { type: 'string', enum: [...TICKET_STATUSES] } as const;
const priority = { type: 'string', enum: [...TICKET_PRIORITIES] } as const;
const stamp = { type: 'string' } as const;
const maybeStamp = { type: ['string', 'null'] } as const;

// opening hours (shared/opening-hours.ts): answered as stored, taken only in the documented shape
const dayHoursView = { type: ['object', 'null'], properties: { from: { type: 'string' }, to: { type: 'string' } } } as const;
export const hoursView = {
  type: ['object', 'null'],
  properties: {
    time_zone: { type: 'string' },
    days: { type: 'object', properties: Object.fromEntries(WEEKDAYS.map((d) => [d, dayHoursView])) },
  },
} as const;
const dayHoursInput = {
  anyOf: [
    {
      type: 'object',
      required: ['from', 'to'],
      additionalProperties: false,
      properties: { from: { type: 'string', pattern: FROM_PATTERN }, to: { type: 'string', pattern: TO_PATTERN } },
    },
    { type: 'null' },
  ],
} as const;
const hoursInput = {
  anyOf: [
    {
      type: 'object',
      required: ['time_zone', 'days'],
      additionalProperties: false,
      properties: {
        time_zone: { type: 'string', minLength: 1, maxLength: HOURS_LIMITS.timeZoneMaxLength, pattern: TIME_ZONE_PATTERN },
        days: { type: 'object', required: [...WEEKDAYS], additionalProperties: false, properties: Object.fromEntries(WEEKDAYS.map((d) => [d, dayHoursInput])) },
      },
    },
    { type: 'null' },
  ],
} as const;

const summaryProperties = {
  id: { type: 'integer' },
  department_id: { type: 'integer' },
  subject: { type: 'string' },
  priority,
  status,
  unread: { type: 'boolean' },
  created_at: stamp,
  updated_at: stamp,
  closed_at: maybeStamp,
} as const;

const summary = { type: 'object', required: Object.keys(summaryProperties), properties: summaryProperties } as const;
/** a row of a list: the ticket and its department's name */
const listedProperties = { ...summaryProperties, department_name: { type: 'string' } } as const;
const listed = { type: 'object', required: Object.keys(listedProperties), properties: listedProperties } as const;

const messageView = {
  type: 'object',
  required: ['id', 'body', 'staff', 'internal', 'author', 'created_at'],
  properties: {
    id: { type: 'integer' },
    body: { type: 'string' },
    staff: { type: 'boolean' },
    internal: { type: 'boolean' },
    author: { type: ['string', 'null'] },
    created_at: stamp,
    attachments: { type: 'array', items: attachmentViewSchema },
  },
} as const;

const staffSummaryProperties = {
  ...listedProperties,
  assigned_to: { type: ['integer', 'null'] },
  customer: { type: ['object', 'null'], properties: { uuid: { type: 'string' }, username: { type: 'string' } } },
} as const;

const staffSummary = { type: 'object', required: Object.keys(staffSummaryProperties), properties: staffSummaryProperties } as const;

export const ticketSchemas = {
  mineQuery: { ...pagingQuery, properties: { ...pagingQuery.properties, status } },
  mineList: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: listed }, meta: pageMetaSchema } },
  createBody: {
    type: 'object',
    required: ['department_id', 'subject', 'message'],
    additionalProperties: false,
    properties: { department_id: rowId(), subject, priority, message, server_id: serverIdProperty },
  },
  created: { type: 'object', required: ['ticket'], properties: { ticket: summary } },
  mineView: { type: 'object', required: ['ticket', 'messages'], properties: { ticket: summary, messages: { type: 'array', items: messageView } } },
  replyBody: { type: 'object', required: ['message'], additionalProperties: false, properties: { message } },
  openDepartments: dataListSchema({
    type: 'object',
    required: ['id', 'name', 'description', 'hours', 'hours_note'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: 'string' }, hours: hoursView, hours_note: { type: 'string' } },
  }),

  staffQuery: {
    ...pagingQuery,
    properties: {
      ...pagingQuery.properties,
      search: { type: 'string', maxLength: TICKET_LIMITS.searchMaxLength, default: '' },
      status,
      priority,
      department_id: rowId(),
      assigned_to: rowId(),
      /** the caller's own tickets, or nobody's */
      assignee: { type: 'string', enum: ['me', 'nobody'] },
      unanswered: { type: 'boolean' },
      sort: { type: 'string', enum: [...STAFF_SORTS], default: 'activity' },
    },
  },
  staffDepartments: dataListSchema({
    type: 'object',
    required: ['id', 'name', 'enabled'],
    properties: { id: { type: 'integer' }, name: { type: 'string' }, enabled: { type: 'boolean' } },
  }),
  assigneesQuery: { type: 'object', additionalProperties: false, properties: { department_id: rowId() } },
  assignees: {
    type: 'object',
    required: ['data', 'me'],
    properties: {
      data: {
        type: 'array',
        items: {
          type: 'object',
          required: ['id', 'uuid', 'username', 'role_id', 'role_name', 'role_color'],
          properties: {
            id: { type: 'integer' },
            uuid: { type: 'string' },
            username: { type: 'string' },
            role_id: { type: 'integer' },
            role_name: { type: ['string', 'null'] },
            role_color: { type: ['string', 'null'] },
          },
        },
      },
      /** the caller's account id: "assign to me" */
      me: { type: 'integer' },
    },
  },
  staffList: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: staffSummary }, meta: pageMetaSchema } },
  counts: {
    type: 'object',
    required: ['counts'],
    properties: { counts: { type: 'object', required: [...TICKET_STATUSES], properties: Object.fromEntries(TICKET_STATUSES.map((s) => [s, { type: 'integer' }])) } },
  },
  staffView: {
    type: 'object',
    required: ['ticket', 'customer', 'messages'],
    properties: {
      ticket: { type: 'object', required: [...Object.keys(summaryProperties), 'assigned_to'], properties: { ...summaryProperties, assigned_to: { type: ['integer', 'null'] } } },
      customer: {
        type: ['object', 'null'],
        properties: {
          uuid: { type: 'string' },
          username: { type: 'string' },
          avatar: { type: ['string', 'null'] },
          role_name: { type: ['string', 'null'] },
          role_color: { type: ['string', 'null'] },
          banned: { type: 'boolean' },
          verified: { type: 'boolean' },
          created_at: stamp,
        },
      },
      messages: { type: 'array', items: messageView },
    },
  },
  staffChangeBody: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: { status: { type: 'string', enum: [...STAFF_STATUSES] }, priority, department_id: rowId(), assigned_to: { anyOf: [rowId(), { type: 'null' }] } },
  },
  staffTicket: {
    type: 'object',
    required: ['ticket'],
    properties: {
      ticket: { type: 'object', required: [...Object.keys(summaryProperties), 'assigned_to'], properties: { ...summaryProperties, assigned_to: { type: ['integer', 'null'] } } },
    },
  },
} as const;

const departmentProperties = {
  id: { type: 'integer' },
  name: { type: 'string' },
  description: { type: 'string' },
  hours: hoursView,
  hours_note: { type: 'string' },
  enabled: { type: 'boolean' },
  role_ids: { type: 'array', items: { type: 'integer' } },
  created_at: stamp,
  updated_at: stamp,
} as const;
const department = { type: 'object', required: Object.keys(departmentProperties), properties: departmentProperties } as const;

const departmentFields = {
  name: { type: 'string', minLength: 1, maxLength: DEPARTMENT_LIMITS.nameMaxLength },
  description: { type: 'string', maxLength: DEPARTMENT_LIMITS.descriptionMaxLength },
  hours: hoursInput,
  hours_note: { type: 'string', maxLength: HOURS_LIMITS.noteMaxLength },
  enabled: { type: 'boolean' },
  role_ids: { type: 'array', maxItems: DEPARTMENT_LIMITS.maxRoles, items: rowId() },
} as const;

export const departmentSchemas = {
  list: dataListSchema(department),
  one: { type: 'object', required: ['department'], properties: { department } },
  createBody: { type: 'object', required: ['name'], additionalProperties: false, properties: departmentFields },
  editBody: { type: 'object', additionalProperties: false, minProperties: 1, properties: departmentFields },
} as const;
