// The HTTP API as an OpenAPI 3.1 document, built from the route registry (http/route-registry.ts):
// the schemas a route validates its input with and serialises its answers with are the ones shown,
// so the document cannot drift from what the server does. Built per request from the routes of the
// core and of the plugins active at that moment (a plugin switched off drops out at once). 3.1
// rather than 3.0 because its schemas are JSON Schema: our `type: ['string', 'null']` is valid there.
import { errorResponseSchema } from './errors';
import type { RegisteredRoute } from './route-registry';

export const SESSION_COOKIE_SCHEME = 'session';

/** What a plugin is called in the document (its manifest's words). */
export interface DocumentedPlugin {
  id: string;
  name: string;
  description?: string;
}

export interface OpenApiInput {
  routes: readonly RegisteredRoute[];
  /** the plugins whose routes are served now (enabled, requirements active), by id */
  activePlugins: ReadonlyMap<string, DocumentedPlugin>;
  version: string;
}

type Json = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  tags: string[];
  summary: string;
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
  security?: Record<string, string[]>[];
  'x-auth': boolean;
  'x-permission': string | null;
  'x-feature-flag': string | null;
  'x-plugin': string | null;
  'x-websocket'?: true;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string; 'x-plugin': string | null }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { securitySchemes: Record<string, Json>; schemas: { Error: unknown } };
}

const PATH_PARAM = /:([A-Za-z0-9_]+)(?:\([^)]*\))?/g;

/** `/api/users/:uuid` → `/api/users/{uuid}` (a regex constraint after the name is dropped). */
export function openApiPath(url: string): string {
  return url.replace(PATH_PARAM, '{$1}');
}

/** The names of the path parameters in a Fastify URL, in order. */
export function pathParamNames(url: string): string[] {
  return [...url.matchAll(PATH_PARAM)].map((m) => m[1]);
}

/**
 * Routes that are no API operation: the browser files' catch-all, and the placeholders under
 * /api/plugins/<id> that hand a third-party plugin's requests to its own instance (the core adds
 * nothing there — routeProblem reserves it — and the plugin's real routes are recorded from that
 * instance, owned by the plugin).
 */
export function isDocumented(route: RegisteredRoute): boolean {
  if (route.url.endsWith('*')) return false;
  if (route.plugin === null && (route.url === '/api/plugins' || route.url.startsWith('/api/plugins/'))) return false;
  return route.url.startsWith('/api/') || route.url === '/api';
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function propertiesOf(schema: unknown): [string, unknown][] {
  return isObject(schema) && isObject(schema.properties) ? Object.entries(schema.properties) : [];
}

function requiredOf(schema: unknown): string[] {
  return isObject(schema) && Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : [];
}

const SUCCESS_STATUS = /^([23]\d\d|[23]xx)$/i;

/**
 * The route declares the schema of its success answer (2xx, or a 3xx for a redirect), or it exists
 * only to refuse (a GET that answers 405 and says "use POST").
 */
function declaresSuccess(route: RegisteredRoute): boolean {
  const statuses = Object.keys(route.responses);
  return statuses.some((status) => SUCCESS_STATUS.test(status)) || (statuses.length === 1 && statuses[0] === '405');
}

/**
 * What a route fails to declare, for the schema-completeness test: every path parameter needs its
 * schema (its type and bounds are what the input policy converts to), and every request/answer
 * route a schema for its success answer (it serialises the answer, and the document shows it). A
 * missing body or query schema is no gap: under the input policy it declares that there is none.
 */
export function schemaGaps(route: RegisteredRoute): string[] {
  const gaps: string[] = [];
  const declared = new Set(propertiesOf(route.input.params).map(([name]) => name));
  for (const name of pathParamNames(route.url)) if (!declared.has(name)) gaps.push(`params.${name}`);
  if (!route.websocket && !declaresSuccess(route)) gaps.push('a 2xx response');
  return gaps;
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No content',
  '301': 'Moved permanently',
  '302': 'Redirect',
  '303': 'See other',
  '307': 'Temporary redirect',
  '400': 'Bad input (VALIDATION_ERROR and the route’s own codes)',
  '401': 'Not signed in, or the session waits for its 2FA code',
  '403': 'Missing permission, feature switched off, banned, or a cross-site request',
  '404': 'Not found',
  '409': 'Conflict with the current state',
  '413': 'Body too large',
  '429': 'Rate limited (see Retry-After)',
  '500': 'Internal error',
  '502': 'An upstream service failed',
  '503': 'A service the route needs is unavailable',
};

function describeStatus(status: string, schema: unknown): string {
  if (isObject(schema) && typeof schema.description === 'string') return schema.description;
  return STATUS_TEXT[status] ?? (status.startsWith('2') ? 'Success' : status.startsWith('4') ? 'Client error' : status.startsWith('5') ? 'Server error' : 'Answer');
}

const ERROR_REF = { $ref: '#/components/schemas/Error' } as const;
const errorAnswer = (description: string): Json => ({ description, content: { 'application/json': { schema: ERROR_REF } } });

/** True for a schema that says nothing of the answer's shape (only a description, say). */
function shapeless(schema: unknown): boolean {
  return !isObject(schema) || Object.keys(schema).every((key) => key === 'description');
}

/** One entry of Fastify's `response` map as an OpenAPI response object. */
function responseObject(status: string, schema: unknown): Json {
  const description = describeStatus(status, schema);
  // Fastify's own per-content-type form: { description?, content: { 'text/html': { schema } } }
  if (isObject(schema) && isObject(schema.content)) return { description, content: schema.content };
  const empty = status === '204' || status.startsWith('3') || (isObject(schema) && schema.type === 'null');
  if (empty) return { description };
  // every error leaves through the host's one error shape (http/errors.ts), whatever a route declares
  if (schema === errorResponseSchema || (/^[45]/.test(status) && shapeless(schema))) return errorAnswer(description);
  return { description, content: { 'application/json': { schema } } };
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The refusals the request pipeline (app.ts withPipeline) gives a route whatever its handler does,
 * for the statuses the route does not declare itself.
 */
function pipelineRefusals(route: RegisteredRoute): Record<string, Json> {
  const out: Record<string, Json> = { '400': errorAnswer('Bad input: VALIDATION_ERROR (a wrong, missing or unknown field, names it in `field`)') };
  if (route.auth || route.permission) out['401'] = errorAnswer('INVALID_SESSION (not signed in) or TW0_FA_BLOCKED (the session waits for its 2FA code)');
  const forbidden = [
    route.permission ? 'PERMISSION_DENIED' : null,
    route.flag ? `FEATURE_DISABLED (${route.flag} is off)` : null,
    route.auth || route.permission ? 'USER_BANNED' : null,
    UNSAFE.has(route.method) ? 'CROSS_SITE_REQUEST (another Origin)' : null,
  ].filter((reason) => reason !== null);
  if (forbidden.length > 0) out['403'] = errorAnswer(forbidden.join(', '));
  const limits = [route.appRateLimit ? 'the app-wide limit per IP' : null, route.rateLimit ? `the ${route.rateLimit} policy` : null].filter((limit) => limit !== null);
  if (limits.length > 0) out['429'] = errorAnswer(`RATE_LIMITED by ${limits.join(' and ')} (see Retry-After)`);
  if (route.upload !== undefined) {
    out['413'] = errorAnswer('FILE_TOO_LARGE (a file over the size limit; nothing is kept)');
    out['415'] = errorAnswer('FILE_TYPE_REFUSED (a file whose bytes are not an accepted type) or UPLOAD_INVALID / UNSUPPORTED_MEDIA_TYPE (not the form the route takes)');
  }
  return out;
}

function parameters(route: RegisteredRoute): Json[] {
  const out: Json[] = [];
  const requiredPath = new Set(pathParamNames(route.url));
  const paramSchemas = new Map(propertiesOf(route.input.params));
  for (const name of requiredPath) out.push({ name, in: 'path', required: true, schema: paramSchemas.get(name) ?? { type: 'string' } });
  const requiredQuery = new Set(requiredOf(route.input.querystring));
  for (const [name, schema] of propertiesOf(route.input.querystring)) {
    const description = isObject(schema) && typeof schema.description === 'string' ? { description: schema.description } : {};
    out.push({ name, in: 'query', required: requiredQuery.has(name), ...description, schema });
  }
  return out;
}

/** The tag a route is listed under: its plugin, or the core's area (the first segments of its path). */
export function tagOf(route: RegisteredRoute): string {
  if (route.plugin) return route.plugin;
  const segments = route.url.split('/').filter((s) => s !== '' && s !== 'api' && !s.startsWith(':'));
  const area = segments[0] === 'admin' || segments[0] === 'user' ? segments.slice(0, 2) : segments.slice(0, 1);
  return `core: ${area.join('/') || 'api'}`;
}

function operationId(route: RegisteredRoute): string {
  const words = route.url
    .replace(PATH_PARAM, 'by_$1')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== '' && w !== 'api');
  return [route.method.toLowerCase(), ...words].join('_');
}

function summaryOf(route: RegisteredRoute): string {
  const who = route.permission ? `needs ${route.permission}` : route.auth ? 'signed in' : 'public';
  const flag = route.flag ? `, while ${route.flag} is on` : '';
  return `${route.websocket ? 'WebSocket' : route.method} ${openApiPath(route.url)} (${who}${flag})`;
}

/**
 * An upload route's form (config.upload): its files, and the body schema's properties as text fields
 * (converted to their declared types the way query strings are).
 */
export function uploadForm(route: RegisteredRoute): Json {
  const limits =
    route.upload === 'per-request' || route.upload === undefined
      ? 'Limits (count, size, types) are read from settings at each request.'
      : `At most ${route.upload.maxFiles} file(s) of at most ${route.upload.maxBytes} bytes each; types by their bytes: ${route.upload.types.join(', ')}.`;
  const files = { type: 'array', items: { type: 'string', contentMediaType: 'application/octet-stream' }, description: `File parts (any field name). ${limits}` };
  const body = route.input.body;
  return {
    type: 'object',
    description: `A multipart/form-data form. ${limits} Refusals: 413 FILE_TOO_LARGE, 415 FILE_TYPE_REFUSED, 400 TOO_MANY_FILES; a refused request keeps no file.`,
    ...(requiredOf(body).length > 0 ? { required: requiredOf(body) } : {}),
    properties: { ...Object.fromEntries(propertiesOf(body)), files },
  };
}

function operation(route: RegisteredRoute): OpenApiOperation {
  const op: OpenApiOperation = {
    operationId: operationId(route),
    tags: [tagOf(route)],
    summary: summaryOf(route),
    responses: {},
    'x-auth': route.auth || route.permission !== null,
    'x-permission': route.permission,
    'x-feature-flag': route.flag,
    'x-plugin': route.plugin,
  };
  const params = parameters(route);
  if (params.length > 0) op.parameters = params;
  const content: Json = {};
  if (route.input.body !== undefined) content['application/json'] = { schema: route.input.body };
  if (route.upload !== undefined) content['multipart/form-data'] = { schema: uploadForm(route) };
  if (Object.keys(content).length > 0) op.requestBody = { required: true, content };
  if (route.websocket) {
    op['x-websocket'] = true;
    op.responses['101'] = { description: 'Switching protocols: the connection becomes a WebSocket (same-site Origin required)' };
  }
  for (const [status, schema] of Object.entries(route.responses)) op.responses[status.toUpperCase()] = responseObject(status, schema);
  // a third-party plugin may leave its answers undeclared (the schema test holds only the repo's)
  if (!route.websocket && !declaresSuccess(route)) op.responses.default = { description: 'An answer the route declares no schema for' };
  for (const [status, response] of Object.entries(pipelineRefusals(route))) op.responses[status] ??= response;
  if (op['x-auth']) op.security = [{ [SESSION_COOKIE_SCHEME]: [] }];
  return op;
}

const DESCRIPTION = [
  'Every route the panel serves now, from the schemas the server validates input with and serialises answers with.',
  'Signed-in routes take the HttpOnly `op_session` cookie set by POST /api/user/auth/login; unsafe methods must come from the panel’s own Origin.',
  '`x-permission` is the permission a route checks (admin.root passes every check), `x-feature-flag` the boolean setting that must be on (otherwise 403 FEATURE_DISABLED), `x-plugin` the plugin that serves it (null: the core).',
  'Errors are `{ error: { code, message, field? } }`.',
].join('\n\n');

export function buildOpenApi(input: OpenApiInput): OpenApiDocument {
  const routes = input.routes
    .filter((r) => isDocumented(r) && (r.plugin === null || input.activePlugins.has(r.plugin)))
    .toSorted((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method));
  const paths: OpenApiDocument['paths'] = {};
  const tags = new Map<string, OpenApiDocument['tags'][number]>();
  for (const route of routes) {
    const op = operation(route);
    const path = openApiPath(route.url);
    // a websocket is reached by a GET upgrade; OpenAPI has no verb for it
    (paths[path] ??= {})[route.websocket ? 'get' : route.method.toLowerCase()] = op;
    const tag = op.tags[0];
    if (!tags.has(tag)) {
      const plugin = route.plugin ? input.activePlugins.get(route.plugin) : undefined;
      const description = plugin ? `Plugin ${plugin.name}${plugin.description ? `: ${plugin.description}` : ''}` : `Core routes under /api/${tag.slice('core: '.length)}`;
      tags.set(tag, { name: tag, description, 'x-plugin': route.plugin });
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Orepanel API', version: input.version, description: DESCRIPTION },
    // the core's areas first, then the plugins, each alphabetically
    tags: [...tags.values()].toSorted((a, b) => Number(a['x-plugin'] !== null) - Number(b['x-plugin'] !== null) || a.name.localeCompare(b.name)),
    paths,
    components: {
      securitySchemes: { [SESSION_COOKIE_SCHEME]: { type: 'apiKey', in: 'cookie', name: 'op_session', description: 'The session cookie a sign-in sets (HttpOnly).' } },
      schemas: { Error: errorResponseSchema },
    },
  };
}
