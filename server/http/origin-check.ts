// CSRF defence for state-changing requests: the session cookies are SameSite=Lax, and on top of
// that a browser request whose Origin is not the panel's own is refused before it is parsed.
import type { FastifyRequest, onRequestHookHandler, RouteOptions } from 'fastify';
import { isWebsocketRoute } from '../realtime/websocket';
import { errorBody, sendError } from './errors';

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function sameOrigin(request: FastifyRequest, origin: string, appUrl: string | null): boolean {
  let host: string;
  try {
    const parsed = new URL(origin);
    if (appUrl && parsed.origin === new URL(appUrl).origin) return true;
    host = parsed.host;
  } catch {
    return false;
  }
  return host === request.host;
}

function originCheck(appUrl: string | null): onRequestHookHandler {
  return (request, reply, done) => {
    const origin = request.headers.origin;
    // no Origin header: not a cross-site browser request (browsers send it on cross-origin writes)
    if (origin === undefined || sameOrigin(request, origin, appUrl)) return done();
    sendError(reply, 403, errorBody('CROSS_SITE_REQUEST', 'Cross-site requests are not allowed.'));
  };
}

/**
 * The origin check for a route with an unsafe method, or null for read-only routes. A WebSocket
 * upgrade is a GET but opens a channel that acts for the user: browsers always send its Origin, so
 * another site's page cannot ride the user's cookies into it (cross-site WebSocket hijacking).
 */
export function originCheckFor(appUrl: string | null): (route: RouteOptions) => onRequestHookHandler | null {
  const check = originCheck(appUrl);
  return (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    return methods.some((m) => UNSAFE.has(m)) || isWebsocketRoute(route) ? check : null;
  };
}
