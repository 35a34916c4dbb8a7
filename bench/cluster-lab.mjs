// Several built panels behind Debian's nginx, as docs/deploy.md sets them up: the two-instance test
// (tests/e2e/cluster-nginx.test.ts) and `npm run bench cluster` share it. The nginx configuration is
// the one printed in docs/deploy.md, with only the addresses and TLS changed, so the page is what is
// tested. Each instance is `orepanel serve` from dist/ in a process of its own.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, ROOT } from './lib.mjs';

export { freePort, ROOT };

const CLI = join(ROOT, 'bin', 'orepanel.mjs');
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const POSTGRES_URL = process.env.OREPANEL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const REDIS_URL = process.env.OREPANEL_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** the most of an instance's output kept for an error message */
const OUTPUT_KEEP = 64 * 1024;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh PostgreSQL database on the local server; `drop()` removes it. */
export async function createPostgresDatabase() {
  const name = `op_cluster_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`drop database if exists "${name}" with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** The environment every instance of one test panel shares (docs/deploy.md: same DATABASE_URL, SECRET_KEY, REDIS_*). */
export function clusterEnv({ databaseUrl, redis = true, extra = {} }) {
  return {
    DATABASE_URL: databaseUrl,
    SECRET_KEY: randomBytes(32).toString('base64url'),
    REDIS_URL: redis ? REDIS_URL : '',
    // a panel of its own on the shared Redis: nothing heard from or sent to other test runs
    REDIS_PREFIX: `op-cluster-${randomBytes(4).toString('hex')}:`,
    TRUST_PROXY: '127.0.0.1',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    ...extra,
  };
}

/**
 * One instance: `orepanel serve` on a port of its own with its own DATA_DIR. `kill()` is a crash
 * (SIGKILL), `stop()` the graceful stop a process manager sends (SIGTERM), `start()` starts it again
 * on the same port. Its output (JSON log lines) is kept in `output`.
 */
export async function startInstance(name, sharedEnv, { port } = {}) {
  if (!existsSync(join(ROOT, 'dist', 'server', 'cli.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm test does it).');
  const instance = {
    name,
    port: port ?? (await freePort()),
    dataDir: mkdtempSync(join(tmpdir(), `orepanel-cluster-${name}-`)),
    output: '',
    child: null,
    get url() {
      return `http://127.0.0.1:${this.port}`;
    },
    get running() {
      return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
    },
    async start() {
      const child = spawn(process.execPath, [CLI, 'serve'], {
        env: { ...process.env, ...sharedEnv, PORT: String(this.port), DATA_DIR: this.dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      this.child = child;
      const keep = (d) => {
        this.output += d;
        if (this.output.length > OUTPUT_KEEP * 2) this.output = this.output.slice(-OUTPUT_KEEP);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const deadline = Date.now() + 60_000;
      for (;;) {
        if (child.exitCode !== null) throw new Error(`instance ${name} exited with ${child.exitCode}:\n${this.output.slice(-4000)}`);
        try {
          if ((await fetch(`${this.url}/readyz`)).ok) return this;
        } catch {
          /* not listening yet */
        }
        if (Date.now() > deadline) {
          child.kill('SIGKILL');
          throw new Error(`instance ${name} was not ready within 60 s:\n${this.output.slice(-4000)}`);
        }
        await sleep(100);
      }
    },
    /** Sends `signal` and resolves with the exit code (null after a kill) once the process is gone. */
    async signal(signal) {
      const child = this.child;
      if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
      const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
    kill() {
      return this.signal('SIGKILL');
    },
    stop() {
      return this.signal('SIGTERM');
    },
    async close() {
      await this.stop();
      rmSync(this.dataDir, { recursive: true, force: true });
    },
  };
  return instance.start();
}

/**
 * The nginx block of docs/deploy.md turned into a configuration that runs here: the upstream's
 * servers become `ports` (their parameters kept), `listen 443 ssl` becomes a local port without TLS.
 * Everything else — websockets, forwarded headers, proxy_next_upstream, /metrics denied — is the
 * page's own text.
 */
export function nginxConfigFromDocs({ ports, listenPort, dir }) {
  const doc = readFileSync(join(ROOT, 'docs', 'deploy.md'), 'utf8');
  const block = /```nginx\n([\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/deploy.md has no ```nginx block');
  const upstreamServer = /^(\s*)server\s+[\w.-]+:\d+(\s+[^;]*)?;\s*$/;
  const lines = block.split('\n');
  const first = lines.findIndex((line) => upstreamServer.test(line));
  if (first < 0) throw new Error('docs/deploy.md: the upstream block lists no `server host:port` line');
  const [, indent, params = ''] = upstreamServer.exec(lines[first]);
  const servers = ports.map((port) => `${indent}server 127.0.0.1:${port}${params};`);
  const body = lines
    .flatMap((line, i) => {
      if (upstreamServer.test(line)) return i === first ? servers : [];
      if (/^\s*listen\s+443\b/.test(line)) return [line.replace(/listen\s+443[^;]*;/, `listen 127.0.0.1:${listenPort};`)];
      if (/^\s*ssl_/.test(line)) return [];
      return [line];
    })
    .join('\n');
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  return [
    // the master process stays in the foreground, a child of the test; its workers keep root's rights
    // only when the test runs as root (they write their temp files in `dir`)
    'daemon off;',
    asRoot ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${dir}/nginx.pid;`,
    `error_log ${dir}/error.log warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  access_log off;',
    `  client_body_temp_path ${dir}/body;`,
    `  proxy_temp_path ${dir}/proxy;`,
    `  fastcgi_temp_path ${dir}/fastcgi;`,
    `  uwsgi_temp_path ${dir}/uwsgi;`,
    `  scgi_temp_path ${dir}/scgi;`,
    body,
    '}',
    '',
  ].join('\n');
}

/** Debian's nginx in front of `ports`, configured from docs/deploy.md. Missing nginx fails loudly. */
export async function startNginx(ports) {
  if (!existsSync(NGINX)) {
    throw new Error(`${NGINX} is missing: install Debian's nginx (apt-get install -y nginx-light); .ci/run does it.`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'orepanel-nginx-'));
  const listenPort = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfigFromDocs({ ports, listenPort, dir }));
  const check = spawnSync(NGINX, ['-t', '-q', '-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t refused the configuration from docs/deploy.md:\n${check.stderr}\n${readFileSync(conf, 'utf8')}`);
  const child = spawn(NGINX, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}: ${stderr}`);
    try {
      await fetch(`${url}/healthz`);
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`nginx did not listen within 10 s: ${stderr}`);
      await sleep(50);
    }
  }
  return {
    port: listenPort,
    url,
    conf,
    errorLog: () => (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : ''),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A small HTTP client with keep-alive connections (as a browser's), answering
 * { status, headers, body, json } and never throwing for a status; a network error answers status 0.
 */
export function httpClient({ maxSockets = 64 } = {}) {
  const agent = new http.Agent({ keepAlive: true, maxSockets });
  const request = (base, { method = 'GET', path, headers = {}, body } = {}) =>
    new Promise((resolve) => {
      const { hostname, port } = new URL(base);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = http.request(
        {
          host: hostname,
          port,
          method,
          path,
          agent,
          headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
        },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let json = null;
            try {
              json = JSON.parse(text);
            } catch {
              /* not JSON (an nginx error page) */
            }
            resolve({ status: res.statusCode, headers: res.headers, body: text, json });
          });
          res.on('error', (error) => resolve({ status: 0, headers: {}, body: String(error), json: null }));
        },
      );
      req.on('error', (error) => resolve({ status: 0, headers: {}, body: String(error), json: null }));
      if (payload) req.write(payload);
      req.end();
    });
  return { request, close: () => agent.destroy() };
}

let addressCounter = 0;
/** A client address from TEST-NET-2 for X-Forwarded-For: each request its own, so no per-IP limit is reached by load. */
export function nextClientAddress() {
  addressCounter++;
  return `198.51.${100 + ((addressCounter >> 8) % 100)}.${addressCounter & 255}`;
}

export const PASSWORD = 'Cluster-password-1!';

/** Registers an account through `base` (from a client address of its own); its uuid, username and cookie. */
export async function registerUser(client, base, tag) {
  const suffix = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const body = { first_name: 'Clu', last_name: 'Ster', email: `${tag}${suffix}@example.com`, username: `${tag}_${suffix}`, password: PASSWORD };
  const res = await client.request(base, { method: 'POST', path: '/api/user/auth/register', body, headers: { 'x-forwarded-for': nextClientAddress() } });
  if (res.status !== 201) throw new Error(`register answered ${res.status}: ${res.body}`);
  const cookie = []
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
  return { uuid: res.json.user.uuid, username: body.username, cookie };
}

/** Signs `username` in through `base`; the cookie header. */
export async function login(client, base, username, password = PASSWORD) {
  const res = await client.request(base, {
    method: 'POST',
    path: '/api/user/auth/login',
    body: { login: username, password },
    headers: { 'x-forwarded-for': nextClientAddress() },
  });
  if (res.status !== 200) throw new Error(`login answered ${res.status}: ${res.body}`);
  return []
    .concat(res.headers['set-cookie'] ?? [])
    .map((c) => c.split(';')[0])
    .join('; ');
}

/** Gives `uuid` the role `roleId` straight in the database: test set-up (the first administrator), not under test. */
export async function setRole(databaseUrl, uuid, roleId) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('update users set role_id = $1 where uuid = $2', [roleId, uuid]);
    if (rowCount !== 1) throw new Error(`no account ${uuid}`);
  } finally {
    await client.end();
  }
}

/** Root's adjustment of `uuid`'s coins through the admin API (a ledger entry). */
export async function credit(client, base, rootCookie, uuid, amount) {
  const res = await client.request(base, {
    method: 'POST',
    path: `/api/admin/users/${uuid}/coins`,
    body: { amount, reason: 'cluster test float', idempotency_key: randomBytes(12).toString('hex') },
    headers: { cookie: rootCookie, 'x-forwarded-for': nextClientAddress() },
  });
  if (res.status !== 200) throw new Error(`credit answered ${res.status}: ${res.body}`);
}

/** One gift submission: its idempotency key is kept so a failed one can be sent again safely. */
export function giftSubmission(sender, recipientUuid, amount) {
  return { sender, body: { recipient: recipientUuid, amount, idempotency_key: randomBytes(12).toString('hex') } };
}

export function sendGift(client, base, submission) {
  return client.request(base, {
    method: 'POST',
    path: '/api/user/gift',
    body: submission.body,
    headers: { cookie: submission.sender.cookie, 'x-forwarded-for': nextClientAddress() },
  });
}

/**
 * The wallet's books straight from the database: the coins every account holds, the fees taken out
 * of circulation, the coins put in by administrators, the gifts booked, and the accounts whose ledger
 * does not add up to their balance (sum of deltas and last balance_after).
 */
export async function walletBooks(databaseUrl) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async (text) => Number((await client.query(text)).rows[0].n ?? 0);
    const held = await one('select coalesce(sum(coins), 0) as n from users');
    const fees = await one(`select coalesce(-sum(delta), 0) as n from wallet_ledger where kind = 'gift.fee'`);
    const minted = await one(`select coalesce(sum(delta), 0) as n from wallet_ledger where kind not like 'gift.%'`);
    const gifts = await one(`select count(*) as n from wallet_ledger where kind = 'gift.sent'`);
    const mismatched = await one(`
      select count(*) as n from users u
      left join (select user_id, sum(delta) as total, max(id) as last_id from wallet_ledger group by user_id) s on s.user_id = u.id
      left join wallet_ledger l on l.id = s.last_id
      where coalesce(s.total, 0) <> u.coins or coalesce(l.balance_after, 0) <> u.coins`);
    return { held, fees, minted, gifts, mismatched };
  } finally {
    await client.end();
  }
}

/** Runs `work(0)` … `work(total - 1)`, `concurrency` at a time. */
export async function pool(concurrency, total, work) {
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      await work(i);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
