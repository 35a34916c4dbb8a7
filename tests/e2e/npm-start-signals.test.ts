// `npm start` under a process manager (issue 16): the signal sent to npm's pid reaches the panel, which
// stops gracefully ("SIGTERM received: finishing the requests in flight") — no node server is left
// running. npm runs a script through `sh -c`, and a shell that does not hand its place to node (dash
// does not) dies of the forwarded signal while node keeps serving; package.json's start script
// therefore `exec`s node. Runs the built panel (dist/), as `npm start` does after its prestart build
// (--ignore-scripts leaves that step out: the build is the e2e run's own).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, ROOT } from './harness';

const dataDirs: string[] = [];
afterAll(() => {
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

/** Every process below `pid` (Linux: /proc/<pid>/task/<pid>/children lists what its main thread started). */
function descendants(pid: number): number[] {
  const file = `/proc/${pid}/task/${pid}/children`;
  if (!existsSync(file)) return [];
  const children = readFileSync(file, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  return children.flatMap((child) => [child, ...descendants(child)]);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // a zombie waiting for its parent to read its status has stopped running
    return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

async function until(condition: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function listening(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/healthz`)).ok;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`passes ${signal} sent to npm on to the panel, which stops gracefully`, async () => {
      const port = await freePort();
      const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-npm-start-'));
      dataDirs.push(dataDir);
      const npm = spawn('npm', ['start', '--ignore-scripts'], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      npm.stdout.on('data', (d) => (output += d));
      npm.stderr.on('data', (d) => (output += d));
      const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
      const url = `http://127.0.0.1:${port}`;
      try {
        await until(() => listening(url), 60_000, `the panel on port ${port}:\n${output}`);
        const below = descendants(npm.pid ?? 0);
        const servers = below.filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('orepanel.mjs'));
        expect(servers, 'the node server under npm').toHaveLength(1);

        npm.kill(signal);
        await until(() => !alive(servers[0]), 30_000, `the node server (pid ${servers[0]}) to stop after ${signal}:\n${output}`);
        await exited;
        expect(below.filter(alive)).toEqual([]);
        expect(await listening(url)).toBe(false);
        expect(output).toContain(`${signal} received: finishing the requests in flight, then stopping`);
      } finally {
        for (const pid of descendants(npm.pid ?? 0)) process.kill(pid, 'SIGKILL');
        npm.kill('SIGKILL');
      }
    }, 120_000);
  }
});
