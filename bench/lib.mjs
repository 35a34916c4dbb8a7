// Shared pieces of the benchmarks: start the built panel on a free port, and a small closed-loop
// HTTP load generator (keep-alive connections, each sending its next request when the last answered).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = new URL('../', import.meta.url).pathname;

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the panel built in `root` (this checkout by default; a bench may compare another build). */
export async function startPanel(extraEnv = {}, root = ROOT) {
  const CLI = join(root, 'bin', 'orepanel.mjs');
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-bench-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  const child = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the panel exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/system/settings`)).ok) break;
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error('the panel did not start within 30 s');
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    port,
    /** the panel's process id and data directory (benchmarks read its memory, CPU and database) */
    pid: child.pid,
    dataDir,
    cli: (args) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' }),
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Closed-loop load: `connections` keep-alive sockets, each sends GET `path` with `headers` as soon
 * as the previous answer ended, for `seconds`. Returns requests/s and the status counts.
 */
export async function load({ port, path, headers = {}, connections = 32, seconds = 5 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map();
  let done = 0;
  const end = Date.now() + seconds * 1000;
  const one = () =>
    new Promise((resolve, reject) => {
      const req = http.request({ host: '127.0.0.1', port, path, headers, agent }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          resolve();
        });
      });
      req.on('error', reject);
      req.end();
    });
  const worker = async () => {
    while (Date.now() < end) {
      await one();
      done++;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: connections }, worker));
  const elapsed = (Date.now() - started) / 1000;
  agent.destroy();
  return { rps: done / elapsed, requests: done, statuses: Object.fromEntries(statuses) };
}
