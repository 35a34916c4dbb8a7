#!/usr/bin/env node
// The `orepanel` command (package.json "bin"): runs the built CLI from dist/server/cli.js.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/server/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('Run npm run build first\n');
  process.exit(1);
}
const { main } = await import(cli.href);
const code = await main(process.argv.slice(2));
// `serve` keeps running; every other command ends with its exit code
if (process.argv[2] !== 'serve' || code !== 0) process.exit(code);
