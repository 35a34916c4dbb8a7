// JSON schemas of the servers API (requests validated, answers serialised), mirroring shared/api.ts.
// Every number a request may carry is a bounded integer (the host refuses an unbounded one).
import { boundedInteger, rowId } from '@orepanel/sdk/server';
import { RENEW_KEY_PATTERN, SERVER_DESCRIPTION_MAX, SERVER_MAXIMUMS, SERVER_NAME_MAX, QUEUE_STATUSES } from '../shared/api';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const nullableStr = { type: ['string', 'null'] } as const;
const bool = { type: 'boolean' } as const;
const dbId = rowId();

function obj(properties: Record<string, unknown>, required = Object.keys(properties)) {
  return { type: 'object', required, properties } as const;
}

// minimum 0 (not SERVER_MINIMUMS): below the minimum is BELOW_MINIMUM, a code of its own (creation-rules.ts)
export const resourceFields = {
  ram: boundedInteger(0, SERVER_MAXIMUMS.ram),
  disk: boundedInteger(0, SERVER_MAXIMUMS.disk),
  cpu: boundedInteger(0, SERVER_MAXIMUMS.cpu),
  ports: boundedInteger(0, SERVER_MAXIMUMS.ports),
  databases: boundedInteger(0, SERVER_MAXIMUMS.databases),
  backups: boundedInteger(0, SERVER_MAXIMUMS.backups),
} as const;
const resourceKeys = Object.keys(resourceFields);

export const idParams = { type: 'object', required: ['id'], additionalProperties: false, properties: { id: dbId } } as const;

const createFields = {
  // at least one visible character
  name: { type: 'string', minLength: 1, maxLength: SERVER_NAME_MAX, pattern: '\\S' },
  description: { type: ['string', 'null'], maxLength: SERVER_DESCRIPTION_MAX },
  location_id: dbId,
  egg_id: dbId,
  ...resourceFields,
} as const;

export const createBody = { type: 'object', additionalProperties: false, required: ['name', 'location_id', 'egg_id', ...resourceKeys], properties: createFields } as const;
export const adminCreateBody = {
  type: 'object',
  additionalProperties: false,
  required: ['user_uuid', 'name', 'location_id', 'egg_id', ...resourceKeys],
  properties: { user_uuid: { type: 'string', minLength: 1, maxLength: 64 }, ...createFields },
} as const;
export const updateBody = { type: 'object', additionalProperties: false, required: resourceKeys, properties: resourceFields } as const;
export const renewBody = {
  type: 'object',
  additionalProperties: false,
  required: ['idempotency_key'],
  properties: { idempotency_key: { type: 'string', pattern: RENEW_KEY_PATTERN } },
} as const;

const page = boundedInteger(1, 1_000_000, { default: 1 });
export const adminServersQuery = { type: 'object', additionalProperties: false, properties: { search: { type: 'string', maxLength: 64, default: '' }, page } } as const;
export const adminQueueQuery = { type: 'object', additionalProperties: false, properties: { status: { type: 'string', enum: QUEUE_STATUSES }, page } } as const;
export const pageQuery = { type: 'object', additionalProperties: false, properties: { page } } as const;

// ---- answers ------------------------------------------------------------------------------------
const resources = obj({ ram: int, disk: int, cpu: int, ports: int, databases: int, backups: int });
const rowHealth = { broken: bool, broken_fields: { type: 'array', items: str } } as const;
const accountResources = obj({ ram: int, disk: int, cpu: int, ports: int, databases: int, backups: int, server_slots: int });
const namedRef = { type: ['object', 'null'], required: ['id', 'name'], properties: { id: int, name: str } } as const;
const owner = obj({ uuid: str, username: str });
const renewal = obj({ enabled: bool, cost: int, days: int });

const serverProps = {
  id: int,
  name: str,
  description: nullableStr,
  status: str,
  identifier: str,
  panel_id: int,
  panel_url: nullableStr,
  location: namedRef,
  egg: namedRef,
  resources,
  expires_at: nullableStr,
  suspended_at: nullableStr,
  created_at: str,
  ...rowHealth,
};
export const serverView = obj(serverProps);
export const serverDetail = obj({ ...serverProps, renewal });
export const adminServerView = obj({ ...serverProps, owner });

const entryProps = {
  id: int,
  status: str,
  name: str,
  description: nullableStr,
  location: namedRef,
  egg: namedRef,
  resources,
  attempts: int,
  last_error: nullableStr,
  next_attempt_at: nullableStr,
  server_id: { type: ['integer', 'null'] },
  created_at: str,
  updated_at: str,
  ...rowHealth,
};
export const entryView = obj(entryProps);
export const adminEntryView = obj({ ...entryProps, owner });
const logProps = { id: int, entry_id: int, attempt: int, outcome: str, message: str, created_at: str };
export const logView = obj(logProps);
export const adminLogView = obj({ ...logProps, entry_name: str, owner: { type: ['object', 'null'], properties: { uuid: str, username: str } } }, [
  'id',
  'entry_id',
  'attempt',
  'outcome',
  'message',
  'created_at',
  'entry_name',
  'owner',
]);

export const okAnswer = obj({ ok: bool });

export const createOptionsAnswer = obj({
  locations: {
    type: 'array',
    items: obj({ id: int, name: str, description: nullableStr, image: nullableStr, status: str, vipOnly: bool, slots: int, used: int, available: bool, reason: nullableStr }),
  },
  categories: {
    type: 'array',
    items: obj({
      id: int,
      name: str,
      description: nullableStr,
      image: nullableStr,
      vipOnly: bool,
      eggs: { type: 'array', items: obj({ id: int, name: str, description: nullableStr, image: nullableStr, vipOnly: bool }) },
    }),
  },
  free: accountResources,
  totals: accountResources,
  broken_resources: { type: 'array', items: str },
  minimums: resources,
  blockers: { type: 'array', items: str },
  vip: bool,
  renewal,
});

export const entryAnswer = obj({ entry: entryView });
export const adminEntryAnswer = obj({ entry: adminEntryView });
export const myServersAnswer = obj({ servers: { type: 'array', items: serverView }, queue: { type: 'array', items: entryView } });
const paging = { total: int, page: int, per_page: int };
export const adminServersAnswer = obj({ servers: { type: 'array', items: adminServerView }, ...paging });
export const adminQueueAnswer = obj({ entries: { type: 'array', items: adminEntryView }, ...paging });
export const adminEntryDetailAnswer = obj({ entry: adminEntryView, logs: { type: 'array', items: logView } });
export const adminLogsAnswer = obj({ logs: { type: 'array', items: adminLogView }, ...paging });
