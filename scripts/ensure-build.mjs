#!/usr/bin/env node
// Runs the production build when dist/ is missing or older than any source file, so that
// `npm install && npm start` works on a fresh clone and a second `npm start` starts at once.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stamp = join(root, 'dist', 'plugins.json');
const sources = ['kernel', 'sdk', 'plugins', 'server', 'locales', 'public', 'rollup.config.mjs', 'package.json'];

function newestMtime(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry === 'tests') continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const built = existsSync(stamp) && existsSync(join(root, 'dist', 'server', 'cli.js')) ? statSync(stamp).mtimeMs : 0;
const newestSource = Math.max(...sources.map((s) => newestMtime(join(root, s))));
if (built && built >= newestSource && process.env.OREPANEL_FORCE_BUILD !== '1') process.exit(0);

process.stdout.write('Building Orepanel (first start, or sources changed)…\n');
const res = spawnSync(process.execPath, [join(root, 'node_modules', 'rollup', 'dist', 'bin', 'rollup'), '-c', join(root, 'rollup.config.mjs')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'production' },
});
process.exit(res.status ?? 1);
