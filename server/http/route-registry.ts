// Every route the app serves, with the guard its options ask for: a root onRoute hook records core
// and plugin routes alike. The authz matrix test walks it (every /api/admin route must carry a
// permission), the fuzz test feeds it bad input, and the API document (http/openapi.ts) is built
// from it, so what guards a route and what it takes and answers is written down in one place.
import type { RouteOptions } from 'fastify';
import type { UploadRouteConfig } from '../../sdk/server';
import { isWebsocketRoute } from '../realtime/websocket';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: boolean;
  permission: string | null;
  /** the feature flag (a boolean setting) the route needs, if any */
  flag: string | null;
  /** the named rate-limit policy the route passes (config.rateLimit), if any */
  rateLimit: string | null;
  /** false: exempt from the app-wide per-IP request limit (config.appRateLimit) */
  appRateLimit: boolean;
  /** the input schemas the route validates (the fuzz test generates bad input from them) */
  input: RouteInput;
  /** a websocket upgrade rather than a request/answer */
  websocket: boolean;
  /** the answer schemas by status ('200', '4xx'…): they serialise the answers and document them */
  responses: Readonly<Record<string, unknown>>;
  /** the plugin that registered the route (told by the plugin host through claim()); null: the core */
  plugin: string | null;
  /** the route takes a multipart upload (config.upload): its fixed limits, or 'per-request' when a function reads them */
  upload?: UploadRouteConfig | 'per-request';
}

export interface RouteInput {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class RouteRegistry {
  private readonly routes: RegisteredRoute[] = [];
  /** the entries each route's options produced, so the plugin host can name their owner afterwards */
  private readonly recorded = new WeakMap<RouteOptions, RegisteredRoute[]>();

  record(route: RouteOptions): void {
    const entries: RegisteredRoute[] = [];
    this.recorded.set(route, entries);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD twin to every GET; it is the same route
      if (method === 'HEAD' && methods.length === 1 && route.url !== '/*' && this.routes.some((r) => r.method === 'GET' && r.url === route.url)) continue;
      const schema = route.schema ?? {};
      const entry: RegisteredRoute = {
        method,
        url: route.url,
        auth: route.config?.auth === true,
        permission: route.config?.permission ?? null,
        flag: route.config?.flag ?? null,
        rateLimit: route.config?.rateLimit ?? null,
        appRateLimit: route.config?.appRateLimit !== false,
        input: { body: schema.body, querystring: schema.querystring, params: schema.params },
        websocket: isWebsocketRoute(route),
        responses: isRecord(schema.response) ? schema.response : {},
        plugin: null,
      };
      const upload = route.config?.upload;
      if (upload !== undefined) entry.upload = typeof upload === 'function' ? 'per-request' : upload;
      entries.push(entry);
      this.routes.push(entry);
    }
  }

  /**
   * Marks the routes `route` produced as `plugin`'s. The app's onRoute hook records a route before
   * the hooks of the plugin's own scope see it (Fastify runs a parent's hooks first), so the owner
   * is told afterwards, by the scope that knows it.
   */
  claim(route: RouteOptions, plugin: string): void {
    for (const entry of this.recorded.get(route) ?? []) entry.plugin = plugin;
  }

  /** Drops the entries `routes` produced (a third-party plugin removed, or replaced by its update). */
  forget(routes: readonly RouteOptions[]): void {
    const gone = new Set(routes.flatMap((route) => this.recorded.get(route) ?? []));
    for (let i = this.routes.length - 1; i >= 0; i--) if (gone.has(this.routes[i])) this.routes.splice(i, 1);
  }

  list(): readonly RegisteredRoute[] {
    return this.routes;
  }

  /** Routes whose URL starts with `prefix`, e.g. '/api/admin/'. */
  under(prefix: string): RegisteredRoute[] {
    return this.routes.filter((r) => r.url === prefix.replace(/\/$/, '') || r.url.startsWith(prefix));
  }
}
