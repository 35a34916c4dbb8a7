// node dist/server/main.js: start the panel with the environment's configuration.
import { ConfigError, loadConfig } from './config';
import { serve } from './serve';

try {
  await serve(loadConfig());
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : `Orepanel failed to start: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exit(1);
}
