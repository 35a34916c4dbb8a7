// The HTTP API's documentation, built at each request from the route registry (http/openapi.ts):
// - GET /api/docs/openapi.json  the OpenAPI 3.1 document, for tools and integrators
// - GET /api/docs               the same as a page, for people (http/api-docs-page.ts)
// Read by administrators only — anyone signed in holding an admin.* permission (admin.root
// included): the list names every admin endpoint and the permission guarding it, which tells a
// customer nothing they need and an attacker where to look. Not a permission of its own: the spec's
// permission table is closed, and any administrator may already see the routes of their own area.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { httpError } from '../../sdk/server';
import type { SessionService } from '../auth/sessions';
import { renderApiDocsPage } from '../http/api-docs-page';
import { errorResponseSchema } from '../http/errors';
import { buildOpenApi, type DocumentedPlugin, type OpenApiDocument } from '../http/openapi';
import type { RouteRegistry } from '../http/route-registry';
import type { PluginHost } from '../plugins/host';

export interface ApiDocsOptions {
  routes: RouteRegistry;
  plugins: PluginHost;
  sessions: SessionService;
  version: string;
}

/** True for a permission list that makes its holder an administrator of some area. */
export function isAdministrator(permissions: readonly string[]): boolean {
  return permissions.some((p) => p.startsWith('admin.'));
}

const adminOnly = { 401: errorResponseSchema, 403: errorResponseSchema } as const;

export function apiDocsRoutes(app: FastifyInstance, options: ApiDocsOptions): void {
  const { routes, plugins, sessions, version } = options;

  const requireAdministrator = async (request: FastifyRequest) => {
    const resolved = await sessions.resolve(request);
    if (!isAdministrator(resolved.role?.permissions ?? [])) throw httpError(403, 'PERMISSION_DENIED', 'You do not have permission to access this resource.');
  };

  const documentNow = (): OpenApiDocument => {
    const activePlugins = new Map<string, DocumentedPlugin>();
    for (const plugin of plugins.list()) {
      const { id, name, description } = plugin.manifest;
      if (plugins.isActive(id)) activePlugins.set(id, { id, name, ...(description ? { description } : {}) });
    }
    return buildOpenApi({ routes: routes.list(), activePlugins, version });
  };

  app.get(
    '/api/docs/openapi.json',
    {
      config: { auth: true },
      preHandler: requireAdministrator,
      schema: { response: { 200: { description: 'This document (OpenAPI 3.1)', type: 'object', additionalProperties: true }, ...adminOnly } },
    },
    async (_request, reply) => {
      // it follows the plugins as they are switched on and off, and it is not for shared caches
      reply.header('cache-control', 'no-store');
      return documentNow();
    },
  );

  app.get(
    '/api/docs',
    {
      config: { auth: true },
      preHandler: requireAdministrator,
      schema: { response: { 200: { description: 'The API documentation as a page', content: { 'text/html': { schema: { type: 'string' } } } }, ...adminOnly } },
    },
    async (_request, reply) => {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderApiDocsPage(documentNow()));
    },
  );
}
