#!/usr/bin/env node
// `npm test`: type-check, lint (biome and the import boundaries) and build (the e2e and contract tests run against the real
// bundles) side by side, then every vitest project. Prints one closing line "tests: N passed, N failed" that CI can read.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = (name) => join('node_modules', '.bin', name);
const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);
const step = (title, cmd, args, env = {}) => {
  process.stdout.write(`\n== ${title}\n`);
  const started = Date.now();
  const res = spawnSync(cmd, args, { stdio: 'inherit', env: { ...process.env, ...env } });
  process.stdout.write(`== ${title}: ${res.status === 0 ? 'ok' : 'FAILED'} in ${seconds(started)} s\n`);
  return res.status === 0;
};

/** Runs a step with its output kept, so that steps running side by side print one after another. */
function quietStep(title, cmd, args, env = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env } });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => resolve({ title, ok: code === 0, output: Buffer.concat(output), took: seconds(started) }));
  });
}

// The three checks share nothing and each leaves a core idle much of the time: run them side by side.
const checks = await Promise.all([
  quietStep('type-check (tsc --noEmit)', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']),
  quietStep('lint (biome, import boundaries)', 'npm', ['run', '-s', 'lint']),
  quietStep('build (rollup)', bin('rollup'), ['-c', 'rollup.config.mjs'], { NODE_ENV: 'production' }),
]);
// a failed check prints last: CI shows only the tail of a long log
for (const check of [...checks.filter((c) => c.ok), ...checks.filter((c) => !c.ok)]) {
  process.stdout.write(`\n== ${check.title}\n`);
  process.stdout.write(check.output);
  process.stdout.write(`== ${check.title}: ${check.ok ? 'ok' : 'FAILED'} in ${check.took} s\n`);
}
if (checks.some((check) => !check.ok)) process.exit(1);

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
/** what failed, repeated at the very end: CI shows only the tail of a long log */
const failures = [];

/** The failed tests of a vitest JSON report, each with the first lines of its error. */
function failedTests(json) {
  const out = [];
  for (const file of json.testResults ?? []) {
    const where = String(file.name ?? '').replace(`${process.cwd()}/`, '');
    if (file.status === 'failed' && (file.assertionResults ?? []).every((test) => test.status !== 'failed')) {
      out.push(
        `${where}: ${String(file.message ?? 'the file failed to run')
          .split('\n')
          .slice(0, 6)
          .join('\n    ')}`,
      );
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const error = String(test.failureMessages?.[0] ?? '')
        .split('\n')
        .filter((line) => !line.includes('node_modules/'))
        .slice(0, 8)
        .join('\n    ');
      out.push(`${where} > ${test.fullName ?? test.title}\n    ${error}`);
    }
  }
  return out;
}
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
    failures.push(...failedTests(json));
  } catch {
    if (!runOk) failed += 1;
  }
}
rmSync(reportDir, { recursive: true, force: true });
if (failures.length > 0) process.stdout.write(`\n== failed tests\n${failures.map((f) => `✗ ${f}`).join('\n')}\n`);
process.stdout.write(`\ntests: ${passed} passed, ${failed} failed\n`);
process.exit(ok ? 0 : 1);
