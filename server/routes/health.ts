// For load balancers and process managers: /healthz says the process is alive (it answers without
// touching any store), /readyz whether it should get traffic (server/cluster/readiness.ts). Outside
// /api: no session, no rate limit, no settings read — a probe must not depend on what it probes.
import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../cluster/readiness';

const aliveAnswer = {
  type: 'object',
  required: ['status'],
  additionalProperties: false,
  properties: { status: { type: 'string', enum: ['ok'] } },
} as const;

const readyAnswer = {
  type: 'object',
  required: ['ready', 'database', 'redis', 'migrations', 'shuttingDown', 'restoring'],
  additionalProperties: false,
  properties: {
    ready: { type: 'boolean' },
    database: { type: 'boolean' },
    /** null: no REDIS_URL */
    redis: { type: ['boolean', 'null'] },
    migrations: { type: 'boolean' },
    shuttingDown: { type: 'boolean' },
    restoring: { type: 'boolean' },
  },
} as const;

export function healthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get('/healthz', { schema: { response: { 200: aliveAnswer } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });
  app.get('/readyz', { schema: { response: { 200: readyAnswer, 503: readyAnswer } } }, async (_request, reply) => {
    const report = await readiness.report();
    reply.header('cache-control', 'no-store');
    return reply.code(report.ready ? 200 : 503).send(report);
  });
}
