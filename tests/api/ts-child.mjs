// Runs the panel's TypeScript sources in a child process (node --import ./tests/api/ts-child.mjs
// tests/api/run-cli.mjs …), for the tests that must kill a real process: Node 20 cannot strip types,
// so .ts files are transpiled with esbuild (already a dependency) as they load, and the imports the
// sources write without an extension, or through the sdk's aliases, are resolved as vitest does.
import { register } from 'node:module';

register('./ts-child-hooks.mjs', import.meta.url);
