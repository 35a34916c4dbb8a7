// WebSocket support for plugin routes declared `{ websocket: true }` (GET only). The upgrade request
// goes through the ordinary route pipeline first — rate limit, origin check, feature flag, session
// and permission guards — and is answered with the usual HTTP error when one of them refuses, so a
// socket only ever opens for a request every other route would have let in.
import fastifyWebsocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';

/** No realtime message of ours comes near this; anything bigger is an abuse, refused by ws itself. */
const MAX_MESSAGE_BYTES = 4 * 1024;
/** RFC 6455 "going away": the page reconnects — to another instance, behind a load balancer. */
export const GOING_AWAY = 1001;

/** Must run before any route is added, so upgrades to every route are intercepted. */
export async function registerWebsockets(app: FastifyInstance): Promise<void> {
  await app.register(fastifyWebsocket, {
    options: { maxPayload: MAX_MESSAGE_BYTES, perMessageDeflate: false },
    // a client going away mid-frame is ordinary life for a socket, not an error worth a log line
    errorHandler(error, socket, request) {
      request.log.debug({ err: error }, 'websocket closed on error');
      socket.terminate();
    },
    // the plugin's own stop closes every socket with no code (the page reads 1005, not a reason to
    // reconnect), and it runs before the features' stops that would say "going away" themselves
    async preClose(this: FastifyInstance) {
      for (const client of this.websocketServer.clients) client.close(GOING_AWAY, 'server restarting');
      this.websocketServer.close();
    },
  });
}

/** True for a route that upgrades to a WebSocket (the origin check treats it as state-changing). */
export function isWebsocketRoute(route: { websocket?: boolean; wsHandler?: unknown }): boolean {
  return route.websocket === true || typeof route.wsHandler === 'function';
}
