// GET /api/user/session with a valid cookie on the embedded SQLite default, against a bare
// node:http server answering a JSON body of the same size, both driven by the same load generator
// in the same run. Target (issue 2): ratio ≥ 0.5.
import { spawn } from 'node:child_process';
import { freePort, load, startPanel } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);

async function sessionCookie(panel) {
  const u = `bench${Date.now().toString(36)}`;
  const created = panel.cli(['user', 'create', '--username', u, '--email', `${u}@example.com`, '--password', 'bench-password-1', '--role', '1']);
  if (created.status !== 0) throw new Error(`user create failed: ${created.stderr || created.stdout}`);
  const res = await fetch(`${panel.url}/api/user/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: u, password: 'bench-password-1' }),
  });
  if (!res.ok) throw new Error(`login answered ${res.status}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]);
  return cookies.join('; ');
}

async function startBare(body) {
  const port = await freePort();
  const code = `
    const http = require('node:http');
    const body = ${JSON.stringify(body)};
    http.createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => process.send && process.send('up'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  return { port, stop: () => child.kill() };
}

export async function run() {
  const panel = await startPanel();
  try {
    const cookie = await sessionCookie(panel);
    const probe = await fetch(`${panel.url}/api/user/session`, { headers: { cookie } });
    const body = await probe.text();
    if (!probe.ok || !JSON.parse(body).success) throw new Error(`session probe failed: ${probe.status} ${body}`);
    const bare = await startBare(body);
    try {
      // warm-up both, then measure alternately so background noise hits both alike
      await load({ port: panel.port, path: '/api/user/session', headers: { cookie }, connections: CONNECTIONS, seconds: 1 });
      await load({ port: bare.port, path: '/api/user/session', connections: CONNECTIONS, seconds: 1 });
      const panelRun = await load({ port: panel.port, path: '/api/user/session', headers: { cookie }, connections: CONNECTIONS, seconds: SECONDS });
      const bareRun = await load({ port: bare.port, path: '/api/user/session', connections: CONNECTIONS, seconds: SECONDS });
      const okCount = panelRun.statuses[200] ?? 0;
      if (okCount !== panelRun.requests) throw new Error(`non-200 answers from the panel: ${JSON.stringify(panelRun.statuses)}`);
      const ratio = panelRun.rps / bareRun.rps;
      console.log(`session endpoint (SQLite, valid cookie): ${panelRun.rps.toFixed(0)} req/s`);
      console.log(`bare node:http, same body:               ${bareRun.rps.toFixed(0)} req/s`);
      console.log(`ratio: ${ratio.toFixed(2)}x (target >= 0.50x) ${ratio >= 0.5 ? 'OK' : 'BELOW TARGET'}`);
      return { panelRps: panelRun.rps, bareRps: bareRun.rps, ratio };
    } finally {
      bare.stop();
    }
  } finally {
    await panel.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
