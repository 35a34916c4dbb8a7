// The API document (GET /api/docs/openapi.json and the page at /api/docs), built from the route
// registry of a panel with every repo plugin: every route declares the schemas it is documented
// by (a route added without them fails here, by name); the document lists each route with its
// guard, flag and plugin, follows the plugins as they are switched on and off (a third-party one
// started late included); and only administrators read it.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument, OpenApiOperation } from '../../server/http/openapi';
import { isDocumented, openApiPath, pathParamNames, schemaGaps } from '../../server/http/openapi';
import { SECURITY_HEADERS } from '../../server/http/security-headers';
import { roleWith, ROOT, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const DOC = '/api/docs/openapi.json';

describe.each(testDialects())('the API document (%s)', (dialect) => {
  let panel: TestPanel;
  let root: SignedInUser;
  beforeAll(async () => {
    panel = await startPanel(dialect, {
      prepareDataDir: (dataDir) => cpSync(join(ROOT, 'tests', 'fixtures', 'third-party', 'fx-late'), join(dataDir, 'plugins', 'fx-late'), { recursive: true }),
    });
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const get = (url: string, cookie?: string) => panel.app.inject({ url, headers: cookie ? { cookie } : {} });
  const document = async (): Promise<OpenApiDocument> => {
    const res = await get(DOC, root.cookie);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const operations = (doc: OpenApiDocument): [string, string, OpenApiOperation][] =>
    Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]): [string, string, OpenApiOperation] => [path, method, op]));

  it('every API route declares its path parameters and its success answer', () => {
    const routes = panel.services.routes.list().filter(isDocumented);
    expect(routes.length).toBeGreaterThan(140);
    const gaps = routes.flatMap((r) => schemaGaps(r).map((gap) => `${r.method} ${r.url}${r.plugin ? ` (${r.plugin})` : ''}: no schema for ${gap}`));
    expect(gaps, gaps.join('\n')).toEqual([]);
  });

  it('knows which plugin serves each plugin route', () => {
    const owners = new Map(panel.services.routes.list().map((r) => [`${r.method} ${r.url}`, r.plugin]));
    expect(owners.get('POST /api/user/earn/redeem')).toBe('earn-redeem');
    expect(owners.get('GET /api/user/earn/afk/socket')).toBe('earn-afk');
    expect(owners.get('GET /api/admin/users/:uuid')).toBeNull();
    // the plugin host's own list and the registry agree on every plugin route
    for (const plugin of panel.services.plugins.list()) {
      for (const route of plugin.routes) expect(owners.get(`${route.method} ${route.url}`), `${route.method} ${route.url}`).toBe(plugin.manifest.id);
    }
  });

  it('lists every documented route of the core and the active plugins, with its guard, flag, plugin, parameters and answers', async () => {
    const doc = await document();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.session).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'op_session' });
    const listed = new Set(operations(doc).map(([path, method]) => `${method.toUpperCase()} ${path}`));
    const served = panel.services.routes
      .list()
      .filter((r) => isDocumented(r) && (r.plugin === null || panel.services.plugins.isActive(r.plugin)))
      .map((r) => `${r.websocket ? 'GET' : r.method} ${openApiPath(r.url)}`);
    expect([...listed].sort()).toEqual([...new Set(served)].sort());
    expect(listed).toContain('GET /api/docs/openapi.json');
    expect([...listed].filter((op) => op.includes(':') || op.includes('*') || op.startsWith('GET /api/plugins/'))).toEqual([]);

    for (const [path, , op] of operations(doc)) {
      // every {name} of a path is a required path parameter with a schema, and there is an answer
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      expect(
        (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
        path,
      ).toEqual(inPath);
      expect(Object.keys(op.responses).length, path).toBeGreaterThan(0);
      expect(op['x-auth'] || op['x-permission'] === null, path).toBe(true);
    }

    const user = doc.paths['/api/admin/users/{uuid}'].patch;
    expect(user).toMatchObject({ 'x-auth': true, 'x-permission': 'admin.users.edit', 'x-feature-flag': null, 'x-plugin': null, security: [{ session: [] }] });
    expect(user.parameters).toEqual([
      expect.objectContaining({ name: 'uuid', in: 'path', required: true, schema: expect.objectContaining({ type: 'string', pattern: expect.any(String) }) }),
    ]);
    expect(user.requestBody).toMatchObject({ required: true, content: { 'application/json': { schema: { type: 'object', additionalProperties: false } } } });
    expect(user.responses['200']).toMatchObject({ content: { 'application/json': { schema: { required: ['user'] } } } });

    const redeem = doc.paths['/api/user/earn/redeem'].post;
    expect(redeem).toMatchObject({ 'x-auth': true, 'x-feature-flag': 'code_redemption_enabled', 'x-plugin': 'earn-redeem', tags: ['earn-redeem'] });
    expect(doc.tags).toContainEqual(expect.objectContaining({ name: 'earn-redeem', 'x-plugin': 'earn-redeem' }));

    const afk = doc.paths['/api/user/earn/afk/socket'].get;
    expect(afk).toMatchObject({ 'x-websocket': true, 'x-plugin': 'earn-afk', 'x-feature-flag': 'afk_enabled' });
    expect(afk.responses['101']).toBeDefined();

    // a ticket is opened with JSON or a form with attachments: both bodies are shown, the form with its files
    const opening = doc.paths['/api/user/tickets'].post;
    const bodies = opening.requestBody?.content as Record<string, { schema: { properties: Record<string, unknown>; required?: string[]; description?: string } }>;
    expect(Object.keys(bodies).sort()).toEqual(['application/json', 'multipart/form-data']);
    expect(bodies['multipart/form-data'].schema.required).toEqual(bodies['application/json'].schema.required);
    expect(Object.keys(bodies['multipart/form-data'].schema.properties)).toEqual(expect.arrayContaining(['department_id', 'subject', 'message', 'files']));
    expect(bodies['multipart/form-data'].schema.description).toMatch(/read from settings at each request/);
    expect(opening.responses['413']).toBeDefined();
    expect(opening.responses['415']).toBeDefined();
    expect(Object.keys((doc.paths['/api/admin/tickets/{id}/notes'].post.requestBody?.content ?? {}) as object)).toContain('multipart/form-data');

    const paged = doc.paths['/api/admin/users'].get;
    expect(paged.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'per_page', in: 'query', required: false, schema: expect.objectContaining({ maximum: 100 }) })]),
    );
  });

  it('follows the plugins: a plugin switched off drops out at once, and a third-party one enabled late comes in', async () => {
    expect((await document()).paths['/api/legal/{document}']).toBeDefined();
    await panel.services.plugins.setEnabled('legal', false);
    try {
      const doc = await document();
      expect(doc.paths['/api/legal/{document}']).toBeUndefined();
      expect(doc.tags.map((t) => t.name)).not.toContain('legal');
    } finally {
      await panel.services.plugins.setEnabled('legal', true);
    }
    expect((await document()).paths['/api/legal/{document}']).toBeDefined();

    expect(Object.keys((await document()).paths).filter((p) => p.startsWith('/api/plugins/'))).toEqual([]);
    const enabled = await panel.app.inject({ method: 'POST', url: '/api/admin/plugins/fx-late/enable', headers: { cookie: root.cookie } });
    expect(enabled.statusCode, enabled.body).toBe(200);
    const doc = await document();
    expect(doc.paths['/api/plugins/fx-late/items'].post).toMatchObject({ 'x-plugin': 'fx-late', 'x-permission': 'admin.fx_late.edit', requestBody: { required: true } });
    // a third-party plugin may leave its answers undeclared: the document says so
    expect(doc.paths['/api/plugins/fx-late/items'].get.responses.default).toEqual({ description: 'An answer the route declares no schema for' });
    expect(doc.paths['/api/plugins/fx-late/live'].get).toMatchObject({ 'x-websocket': true, 'x-plugin': 'fx-late' });
    expect(
      Object.keys(doc.paths)
        .filter((p) => p.startsWith('/api/plugins/'))
        .sort(),
    ).toEqual(['/api/plugins/fx-late/items', '/api/plugins/fx-late/live']);

    await panel.services.plugins.setEnabled('fx-late', false);
    expect(Object.keys((await document()).paths).filter((p) => p.startsWith('/api/plugins/'))).toEqual([]);
  });

  it('is read by administrators only: 401 anonymous, 403 a customer or a role with no admin permission, 200 any admin permission', async () => {
    const customer = await userWithRole(panel, 1);
    const nonAdmin = await userWithRole(panel, await roleWith(panel, ['user.permission.alt']));
    const healthOnly = await userWithRole(panel, await roleWith(panel, ['admin.health.view']));
    for (const url of [DOC, '/api/docs']) {
      const anonymous = await get(url);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json().error.code).toBe('INVALID_SESSION');
      for (const refused of [customer, nonAdmin]) {
        const res = await get(url, refused.cookie);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ error: { code: 'PERMISSION_DENIED', message: 'You do not have permission to access this resource.' } });
      }
      expect((await get(url, healthOnly.cookie)).statusCode, url).toBe(200);
      // a query the route does not declare is refused like everywhere else
      expect((await get(`${url}?x=1`, root.cookie)).statusCode).toBe(400);
    }
  });

  it('the page shows every operation with its permission and flag, in a page that needs no script from anywhere', async () => {
    const res = await get('/api/docs', root.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toBe(SECURITY_HEADERS['content-security-policy']);
    const html = res.body;
    // the CSP lets scripts come from the panel only; the page needs none, nor anything from elsewhere
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    const doc = await document();
    const count = operations(doc).length;
    expect(html.match(/<details class="op"/g)?.length).toBe(count);
    expect(html).toContain(`${count} operations`);
    expect(html).toContain('<code class="path">/api/admin/users/{uuid}</code>');
    expect(html).toContain('<span class="chip perm" title="Permission">admin.users.edit</span>');
    expect(html).toContain('⚑ code_redemption_enabled');
    expect(html).toContain('href="#tag-earn-redeem"');
  });
});
