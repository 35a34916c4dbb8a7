// Every route the app serves, with the guard its options ask for: a root onRoute hook records core
// and plugin routes alike. The authz matrix test walks it (every /api/admin route must carry a
// permission), and it lets an administrator see what guards what.
import type { RouteOptions } from 'fastify';
import { isWebsocketRoute } from '../realtime/websocket';

export interface RegisteredRoute {
  method: string;
  url: string;
  auth: boolean;
  permission: string | null;
  /** the feature flag (a boolean setting) the route needs, if any */
  flag: string | null;
  /** the input schemas the route validates (the fuzz test generates bad input from them) */
  input: RouteInput;
  /** a websocket upgrade rather than a request/answer */
  websocket: boolean;
}

export interface RouteInput {
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
}

export class RouteRegistry {
  private readonly routes: RegisteredRoute[] = [];

  record(route: RouteOptions): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD twin to every GET; it is the same route
      if (method === 'HEAD' && methods.length === 1 && route.url !== '/*' && this.routes.some((r) => r.method === 'GET' && r.url === route.url)) continue;
      const schema = route.schema ?? {};
      this.routes.push({
        method,
        url: route.url,
        auth: route.config?.auth === true,
        permission: route.config?.permission ?? null,
        flag: route.config?.flag ?? null,
        input: { body: schema.body, querystring: schema.querystring, params: schema.params },
        websocket: isWebsocketRoute(route),
      });
    }
  }

  list(): readonly RegisteredRoute[] {
    return this.routes;
  }

  /** Routes whose URL starts with `prefix`, e.g. '/api/admin/'. */
  under(prefix: string): RegisteredRoute[] {
    return this.routes.filter((r) => r.url === prefix.replace(/\/$/, '') || r.url.startsWith(prefix));
  }
}
