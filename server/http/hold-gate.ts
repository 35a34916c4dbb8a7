// The API's side of the database hold (server/db/database-hold.ts): while a restore replaces the
// database every /api request is answered 503 PANEL_RESTORING at once — nothing it would read is
// whole, and nothing it would write would survive — and the requests under way are counted, so the
// hold begins once they have ended. A WebSocket upgrade is not counted: it lasts as long as the socket.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { DatabaseHold } from '../db/database-hold';
import { errorBody } from './errors';

/** seconds a client is asked to wait before trying again (a small panel's restore takes a few) */
const RETRY_AFTER_SECONDS = 5;

export function addHoldGate(instance: FastifyInstance, hold: DatabaseHold): void {
  const ends = new WeakMap<FastifyRequest, () => void>();
  instance.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/api/')) return;
    if (hold.active) {
      return reply
        .code(503)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .header('cache-control', 'no-store')
        .send(errorBody('PANEL_RESTORING', 'A backup is being restored: the panel is back in a moment.'));
    }
    if (request.headers.upgrade === undefined) ends.set(request, hold.requestStarted());
  });
  const end = async (request: FastifyRequest) => {
    ends.get(request)?.();
  };
  instance.addHook('onResponse', end);
  instance.addHook('onRequestAbort', end);
}
