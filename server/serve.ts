// Starting and stopping the HTTP server (`orepanel serve`, node dist/server/main.js).
import type { FastifyInstance } from 'fastify';
import { buildApp, servicesOf } from './app';
import type { Config } from './config';

/** A stop that takes longer than this (a stuck request or job) is cut short: the process manager is waiting. */
export const SHUTDOWN_LIMIT_MS = 30_000;

/**
 * SIGTERM, gracefully: /readyz answers 503 at once (balancers send no more) and, for `drainMs`, the
 * instance goes on serving with `Connection: close` on every answer, so a proxy stops reusing its
 * connections here one answer at a time and lets its idle ones expire (docs/deploy.md keeps them 4 s):
 * closing a connection a proxy still holds idle races with a request it is sending on it, which it
 * will not resend when it is a POST. Then the server stops accepting connections and finishes the
 * requests in flight, jobs stop after their current run and release their leases, and plugins close
 * their sockets with "going away" so clients reconnect to another instance (Fastify's preClose and
 * onClose hooks, app.ts).
 */
export async function gracefulShutdown(app: FastifyInstance, drainMs = 0): Promise<void> {
  servicesOf(app).readiness.markShuttingDown();
  if (drainMs > 0) await new Promise((resolve) => setTimeout(resolve, drainMs));
  await app.close();
}

export async function serve(config: Config): Promise<FastifyInstance> {
  const app = await buildApp({ config });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing the requests in flight, then stopping`);
    // a process manager (and a rolling restart) sends SIGTERM; Ctrl+C in a terminal stops at once
    const drainMs = signal === 'SIGTERM' ? config.shutdownDrainMs : 0;
    if (drainMs > 0) {
      app.log.info(`first serving ${config.shutdownDrainMs / 1000} s more with Connection: close (SHUTDOWN_DRAIN_SECONDS), so a proxy stops using this instance's connections`);
    }
    const limit = setTimeout(() => {
      app.log.error(`still stopping after ${SHUTDOWN_LIMIT_MS / 1000} s: exiting anyway`);
      process.exit(1);
    }, SHUTDOWN_LIMIT_MS);
    limit.unref();
    gracefulShutdown(app, drainMs).then(
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
