#!/usr/bin/env node
// `npm test`: type-check, lint (biome and the import boundaries), build (the e2e and contract tests run against the real bundles), then every
// vitest project. Prints one closing line "tests: N passed, N failed" that CI can read.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const step = (title, cmd, args, env = {}) => {
  process.stdout.write(`\n== ${title}\n`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  process.stdout.write(`== ${title}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return res.status === 0;
};

if (!step('type-check (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json'])) process.exit(1);
if (!step('lint (biome, import boundaries)', 'npm', ['run', '-s', 'lint'])) process.exit(1);
if (!step('build (rollup)', bin('rollup'), ['-c', 'rollup.config.mjs'], { NODE_ENV: 'production' })) process.exit(1);

const reportDir = mkdtempSync(join(tmpdir(), 'orepanel-vitest-'));
const extra = process.argv.slice(2);
// Two runs: a project with fileParallelism off (e2e: one browser and panel at a time) makes vitest
// run every file one after another, so the in-process projects (unit and the API per dialect) run
// first, side by side, and the browser tests after them. Arguments (a file, -t …) go to one run.
const runs =
  extra.length > 0
    ? [{ title: 'vitest', args: extra }]
    : [
        { title: 'vitest: unit + API', args: ['--project', 'unit', '--project', 'api-*'] },
        { title: 'vitest: e2e (chromium)', args: ['--project', 'e2e'] },
      ];

let ok = true;
let passed = 0;
let failed = 0;
for (const [i, run] of runs.entries()) {
  const report = join(reportDir, `report-${i}.json`);
  const runOk = step(run.title, bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...run.args]);
  ok &&= runOk;
  try {
    const json = JSON.parse(readFileSync(report, 'utf8'));
    passed += json.numPassedTests ?? 0;
    let runFailed = json.numFailedTests ?? 0;
    // a suite that fails to load, or an error outside any test, fails no test of its own: count it
    if (!runOk && runFailed === 0) runFailed = Math.max(1, json.numFailedTestSuites ?? 0);
    failed += runFailed;
  } catch {
    if (!runOk) failed += 1;
  }
}
rmSync(reportDir, { recursive: true, force: true });
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(ok ? 0 : 1);
