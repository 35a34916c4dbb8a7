// Starting and stopping the HTTP server (`orepanel serve`, node dist/server/main.js).
import type { FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from './app';
import type { Config } from './config';

/** A stop that takes longer than this (a stuck request or job) is cut short: the process manager is waiting. */
export const SHUTDOWN_LIMIT_MS = 30_000;

/**
 * SIGTERM, gracefully: /readyz answers 503 at once (balancers send no more), the server stops
 * accepting connections and finishes the requests in flight, jobs stop after their current run and
 * release their leases, and plugins close their sockets with "going away" so clients reconnect to
 * another instance (Fastify's preClose and onClose hooks, app.ts).
 */
export async function gracefulShutdown(app: FastifyInstance): Promise<void> {
  servicesOf(app).readiness.markShuttingDown();
  await app.close();
}

export async function serve(config: Config): Promise<FastifyInstance> {
  const app = await buildApp({ config });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing the requests in flight, then stopping`);
    const limit = setTimeout(() => {
      app.log.error(`still stopping after ${SHUTDOWN_LIMIT_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    limit.unref();
    gracefulShutdown(app).then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'closing failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  return app;
}
