import { describe, expect, it } from 'vitest';
import { renderApiDocsPage, schemaSummary } from './api-docs-page';
import { errorResponseSchema } from './errors';
import { buildOpenApi, isDocumented, openApiPath, pathParamNames, schemaGaps, tagOf, type DocumentedPlugin } from './openapi';
import { RouteRegistry, type RegisteredRoute } from './route-registry';

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'integer', minimum: 1, maximum: 99 } } };
const thing = { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' } } };

/** A registry as the app's onRoute hook and the plugin host fill it. */
function registry(): RouteRegistry {
  const routes = new RouteRegistry();
  const handler = () => undefined;
  routes.record({
    method: 'GET',
    url: '/api/admin/things/:id',
    config: { permission: 'admin.things.list' },
    schema: { params: idParams, response: { 200: thing, 404: errorResponseSchema } },
    handler,
  });
  const owned = {
    method: 'POST' as const,
    url: '/api/user/things',
    config: { auth: true, flag: 'things_enabled', rateLimit: 'auth.login' as const },
    schema: {
      body: { type: 'object', properties: { name: { type: 'string', maxLength: 9 } } },
      querystring: { type: 'object', required: ['q'], properties: { q: { type: 'string', description: 'what to look for' } } },
      response: { 201: thing },
    },
    handler,
  };
  routes.record(owned);
  routes.claim(owned, 'things');
  const socket = { method: 'GET' as const, url: '/api/user/things/live', websocket: true, config: { auth: true }, handler };
  routes.record(socket);
  routes.claim(socket, 'things');
  const hidden = { method: 'GET' as const, url: '/api/hidden', schema: { response: { 200: thing } }, handler };
  routes.record(hidden);
  routes.claim(hidden, 'switched-off');
  routes.record({ method: 'GET', url: '/api/plugins/third/*', handler });
  routes.record({ method: 'GET', url: '/api/plugins/third', handler });
  routes.record({ method: 'GET', url: '/*', handler });
  routes.record({ method: 'GET', url: '/api/user/auth/logout', schema: { response: { 405: { description: 'Sign out with a POST' } } }, handler });
  return routes;
}

const active = new Map<string, DocumentedPlugin>([['things', { id: 'things', name: 'Things', description: 'Lists things.' }]]);
const doc = () => buildOpenApi({ routes: registry().list(), activePlugins: active, version: '9.9.9' });

describe('paths', () => {
  it('writes Fastify parameters the OpenAPI way and names them', () => {
    expect(openApiPath('/api/users/:uuid/flags/:id/clear')).toBe('/api/users/{uuid}/flags/{id}/clear');
    expect(openApiPath('/api/files/:name(^\\d+).png')).toBe('/api/files/{name}.png');
    expect(pathParamNames('/api/a/:provider/earn/:token')).toEqual(['provider', 'token']);
  });

  it('leaves out the browser files and the third-party dispatch placeholders', () => {
    expect(
      registry()
        .list()
        .filter(isDocumented)
        .map((r) => r.url),
    ).toEqual(['/api/admin/things/:id', '/api/user/things', '/api/user/things/live', '/api/hidden', '/api/user/auth/logout']);
  });
});

describe('schemaGaps', () => {
  const route = (over: Partial<RegisteredRoute>): RegisteredRoute => ({
    method: 'GET',
    url: '/api/x',
    auth: false,
    permission: null,
    flag: null,
    rateLimit: null,
    appRateLimit: true,
    input: {},
    websocket: false,
    responses: { 200: thing },
    plugin: null,
    ...over,
  });

  it('names a path parameter without a schema and a route without a success answer', () => {
    expect(schemaGaps(route({ url: '/api/x/:id/:slug', input: { params: idParams } }))).toEqual(['params.slug']);
    expect(schemaGaps(route({ responses: { 400: errorResponseSchema } }))).toEqual(['a 2xx response']);
    expect(schemaGaps(route({ url: '/api/x/:id', responses: {} }))).toEqual(['params.id', 'a 2xx response']);
  });

  it('takes a 2xx, a redirect, a refusal-only route and a websocket', () => {
    expect(schemaGaps(route({ responses: { 201: thing } }))).toEqual([]);
    expect(schemaGaps(route({ responses: { '2xx': thing } }))).toEqual([]);
    expect(schemaGaps(route({ responses: { 302: { type: 'null' } } }))).toEqual([]);
    expect(schemaGaps(route({ responses: { 405: errorResponseSchema } }))).toEqual([]);
    expect(schemaGaps(route({ websocket: true, responses: {} }))).toEqual([]);
  });
});

describe('buildOpenApi', () => {
  it('is an OpenAPI 3.1 document with the session cookie as its security scheme and the error shape', () => {
    const d = doc();
    expect(d.openapi).toBe('3.1.0');
    expect(d.info.version).toBe('9.9.9');
    expect(d.components.securitySchemes.session).toEqual(expect.objectContaining({ type: 'apiKey', in: 'cookie', name: 'op_session' }));
    expect(d.components.schemas.Error).toBe(errorResponseSchema);
  });

  it('lists only the core and the active plugins, never the catch-alls', () => {
    expect(Object.keys(doc().paths).sort()).toEqual(['/api/admin/things/{id}', '/api/user/auth/logout', '/api/user/things', '/api/user/things/live']);
  });

  it('gives each operation its guard, flag, plugin, parameters, body and answers', () => {
    const get = doc().paths['/api/admin/things/{id}'].get;
    expect(get).toMatchObject({
      'x-auth': true,
      'x-permission': 'admin.things.list',
      'x-feature-flag': null,
      'x-plugin': null,
      tags: ['core: admin/things'],
      security: [{ session: [] }],
    });
    expect(get.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: idParams.properties.id }]);
    expect(get.responses['200']).toEqual({ description: 'OK', content: { 'application/json': { schema: thing } } });
    expect(get.responses['404']).toEqual({ description: 'Not found', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
    // the pipeline's refusals: bad input, no session, no permission; a GET is no cross-site risk
    expect(get.responses['401']).toBeDefined();
    expect(String(get.responses['403'].description)).toMatch(/PERMISSION_DENIED/);
    expect(String(get.responses['403'].description)).not.toMatch(/CROSS_SITE/);
    expect(get.requestBody).toBeUndefined();

    const post = doc().paths['/api/user/things'].post;
    expect(post).toMatchObject({ 'x-auth': true, 'x-permission': null, 'x-feature-flag': 'things_enabled', 'x-plugin': 'things', tags: ['things'] });
    expect(post.parameters).toEqual([{ name: 'q', in: 'query', required: true, description: 'what to look for', schema: { type: 'string', description: 'what to look for' } }]);
    expect(post.requestBody).toEqual({ required: true, content: { 'application/json': { schema: { type: 'object', properties: { name: { type: 'string', maxLength: 9 } } } } } });
    expect(Object.keys(post.responses).sort()).toEqual(['201', '400', '401', '403', '429']);
    expect(String(post.responses['403'].description)).toMatch(/FEATURE_DISABLED \(things_enabled is off\).*CROSS_SITE_REQUEST/);
    expect(String(post.responses['429'].description)).toMatch(/auth\.login/);
  });

  it("shows an upload route's multipart form beside its JSON body, with its limits and refusals", () => {
    const routes = new RouteRegistry();
    const body = { type: 'object', required: ['note'], properties: { note: { type: 'string', maxLength: 9 } } };
    routes.record({
      method: 'POST',
      url: '/api/user/notes',
      config: { auth: true, upload: { maxFiles: 2, maxBytes: 1024, types: ['image/png'] } },
      schema: { body, response: { 200: thing } },
      handler: () => undefined,
    });
    routes.record({
      method: 'POST',
      url: '/api/user/images',
      config: { auth: true, upload: () => ({ maxFiles: 1, maxBytes: 9, types: ['image/png'] }) },
      schema: { response: { 200: thing } },
      handler: () => undefined,
    });
    const paths = buildOpenApi({ routes: routes.list(), activePlugins: active, version: '1' }).paths;
    const notes = paths['/api/user/notes'].post;
    const content = notes.requestBody?.content as Record<string, { schema: { required?: string[]; properties: Record<string, unknown>; description: string } }>;
    expect(content['application/json'].schema).toBe(body);
    expect(content['multipart/form-data'].schema.required).toEqual(['note']);
    expect(Object.keys(content['multipart/form-data'].schema.properties)).toEqual(['note', 'files']);
    expect(content['multipart/form-data'].schema.description).toMatch(/At most 2 file\(s\) of at most 1024 bytes each; types by their bytes: image\/png/);
    expect(Object.keys(notes.responses)).toEqual(expect.arrayContaining(['413', '415']));
    const images = paths['/api/user/images'].post.requestBody?.content as Record<string, { schema: { description: string } }>;
    expect(Object.keys(images)).toEqual(['multipart/form-data']);
    expect(images['multipart/form-data'].schema.description).toMatch(/read from settings at each request/);
  });

  it('describes a websocket as one, and a refusal-only route by its refusal', () => {
    const live = doc().paths['/api/user/things/live'].get;
    expect(live['x-websocket']).toBe(true);
    expect(live.responses['101']).toBeDefined();
    expect(live.summary).toMatch(/^WebSocket/);
    const logout = doc().paths['/api/user/auth/logout'].get;
    expect(logout.responses['405']).toEqual({ description: 'Sign out with a POST', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
    expect(logout.responses.default).toBeUndefined();
    expect(logout.security).toBeUndefined();
  });

  it('tags core routes by area and lists the core before the plugins', () => {
    const route = (url: string) => ({ url, plugin: null }) as RegisteredRoute;
    expect(tagOf(route('/api/admin/users/:uuid/flags'))).toBe('core: admin/users');
    expect(tagOf(route('/api/system/settings'))).toBe('core: system');
    expect(doc().tags.map((t) => t.name)).toEqual(['core: admin/things', 'core: user/auth', 'things']);
    expect(doc().tags[2]).toEqual({ name: 'things', description: 'Plugin Things: Lists things.', 'x-plugin': 'things' });
  });
});

describe('the page', () => {
  it('shows each operation with its method, path, permission and flag, and escapes what it shows', () => {
    const d = doc();
    d.info.title = 'Orepanel <API>';
    const html = renderApiDocsPage(d);
    expect(html).toContain('<title>Orepanel &lt;API&gt;</title>');
    expect(html).toContain('<code class="path">/api/admin/things/{id}</code>');
    expect(html).toContain('<span class="chip perm" title="Permission">admin.things.list</span>');
    expect(html).toContain('⚑ things_enabled');
    expect(html).toContain('<span class="method m-ws">WS</span>');
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain('Orepanel <API>');
  });

  it('reads a parameter schema in one line', () => {
    expect(schemaSummary({ type: 'integer', minimum: 1, maximum: 100, default: 20 })).toBe('integer · 1…100, default 20');
    expect(schemaSummary({ type: ['string', 'null'], maxLength: 9, enum: ['a', 'b'] })).toBe('string | null · one of "a", "b", length 0…9');
  });
});
