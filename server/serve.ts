// Starting and stopping the HTTP server (`orepanel serve`, node dist/server/main.js).
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { Config } from './config';

export async function serve(config: Config): Promise<FastifyInstance> {
  const app = await buildApp({ config });
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: closing`);
    app.close().then(
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
