// node dist/server/main.js: start the panel with the environment's configuration.
import { ConfigError, loadConfig } from './config';
import { serve } from './serve';
import { SecretKeyMismatchError } from './cluster/secret-check';

try {
  await serve(loadConfig());
} catch (error) {
  // a configuration mistake is told as such; anything else with its stack
  const known = error instanceof ConfigError || error instanceof SecretKeyMismatchError;
  process.stderr.write(`${known ? error.message : `Orepanel failed to start: ${(error as Error).stack ?? String(error)}`}\n`);
  process.exit(1);
}
