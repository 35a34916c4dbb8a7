#!/usr/bin/env node
// `npm run demo`: the panel with a Pterodactyl panel to talk to, for trying it by hand — the build
// (when the sources changed), the Application API stand-in of the tests (tests/fixtures/
// pterodactyl-panel.ts, seeded with two locations, Minecraft and Rust eggs and three nodes), and
// `orepanel serve` on a fresh data directory (data/demo, wiped on each run) wired to it, with an
// administrator, a customer holding some coins, and the catalogue imported from the panel.
// Ports: DEMO_PORT (panel, default 3000), DEMO_PTERODACTYL_PORT (stand-in, default 3010).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const dataDir = join(root, 'data', 'demo');
const port = Number(process.env.DEMO_PORT ?? 3000);
const standInPort = Number(process.env.DEMO_PTERODACTYL_PORT ?? 3010);
const base = `http://127.0.0.1:${port}`;
const ADMIN = { username: 'admin', email: 'admin@demo.test', password: 'demo-admin-pass', firstName: 'Demo', lastName: 'Admin' };
const CUSTOMER = { username: 'steve', email: 'steve@demo.test', password: 'demo-steve-pass', firstName: 'Steve', lastName: 'Miner' };
const CUSTOMER_COINS = 2500;

const env = { SHUTDOWN_DRAIN_SECONDS: '0', ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', APP_URL: base, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
delete env.DATABASE_URL; // the demo's own SQLite file, whatever the shell has

function run(args, what) {
  const result = spawnSync(process.execPath, args, { cwd: root, env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (result.status !== 0) {
    process.stderr.write(`demo: ${what} failed (exit ${result.status})\n${result.stdout ?? ''}`);
    process.exit(1);
  }
}

// 1. the build, when missing or older than the sources
const built = spawnSync(process.execPath, [join(root, 'scripts', 'ensure-build.mjs')], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

// 2. the stand-in (TypeScript: bundled for Node first)
rmSync(dataDir, { recursive: true, force: true });
mkdirSync(dataDir, { recursive: true });
const standInFile = join(dataDir, 'pterodactyl-stand-in.mjs');
await build({
  entryPoints: [join(root, 'tests', 'fixtures', 'pterodactyl-panel.ts')],
  outfile: standInFile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  logLevel: 'warning',
});
const { startPterodactylPanel } = await import(pathToFileURL(standInFile).href);
const standIn = await startPterodactylPanel({ port: standInPort });
const world = standIn.seedSample();

// 3. accounts and settings through the CLI, then the server
const cli = join(root, 'bin', 'orepanel.mjs');
for (const [who, role] of [
  [ADMIN, '8'],
  [CUSTOMER, '1'],
]) {
  run(
    [
      cli,
      'user',
      'create',
      '--username',
      who.username,
      '--email',
      who.email,
      '--password',
      who.password,
      '--role',
      role,
      '--first-name',
      who.firstName,
      '--last-name',
      who.lastName,
    ],
    `creating ${who.username}`,
  );
}
run([cli, 'settings', 'set', 'pterodactyl_base_url', standIn.url], 'setting pterodactyl_base_url');
run([cli, 'settings', 'set', 'pterodactyl_api_key', standIn.apiKey], 'setting pterodactyl_api_key');

const server = spawn(process.execPath, [cli, 'serve'], { cwd: root, env, stdio: 'inherit' });
let stopping = false;
const stop = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await standIn.close();
  process.exit(code);
};
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));
server.once('exit', (code) => {
  if (!stopping) {
    process.stderr.write(`demo: the panel stopped (exit ${code})\n`);
    void stop(code ?? 1);
  }
});

async function waitForPanel() {
  for (let i = 0; i < 600; i++) {
    try {
      const res = await fetch(`${base}/api/system/settings`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the panel did not start on ${base}`);
}

async function api(method, path, cookie, body) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { accept: 'application/json', ...(cookie ? { cookie } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  return { status: res.status, json, cookies: res.headers.getSetCookie?.() ?? [] };
}

/**
 * The catalogue from the panel, switched on so the customer can create a server at once: an import
 * adds rows disabled (and locations without slots) for an administrator to review.
 */
async function importCatalogue(cookie) {
  const counts = {};
  for (const kind of ['locations', 'categories', 'eggs']) {
    const sync = await api('POST', `/api/admin/catalog/sync/${kind}`, cookie, {});
    if (sync.status !== 200) return `not imported (${kind}): ${sync.status} ${JSON.stringify(sync.json)}`;
    counts[kind] = sync.json[kind].created;
  }
  for (const [list, key, patch] of [
    ['/api/admin/locations', 'location', { enabled: true, slots: 25 }],
    ['/api/admin/egg-categories', 'category', { enabled: true }],
    ['/api/admin/eggs', 'egg', { enabled: true }],
  ]) {
    const rows = await api('GET', `${list}?page=1&per_page=100`, cookie);
    for (const row of rows.json?.data ?? []) {
      const changed = await api('PATCH', `${list}/${row.id}`, cookie, patch);
      if (changed.status !== 200) return `imported, but ${key} ${row.id} could not be enabled: ${changed.status} ${JSON.stringify(changed.json)}`;
    }
  }
  return `imported and enabled: ${counts.locations} locations, ${counts.categories} categories, ${counts.eggs} eggs`;
}

try {
  await waitForPanel();
  // 4. as the administrator: the customer's coins and the catalogue from the panel
  const login = await api('POST', '/api/user/auth/login', null, { login: ADMIN.email, password: ADMIN.password });
  if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.json)}`);
  const cookie = login.cookies.map((c) => c.split(';')[0]).join('; ');
  const found = await api('GET', `/api/admin/users?search=${encodeURIComponent(CUSTOMER.email)}&page=1&per_page=5`, cookie);
  const customer = found.json?.data?.find((u) => u.email === CUSTOMER.email);
  if (!customer) throw new Error(`the customer account was not found: ${found.status}`);
  const coins = await api('POST', `/api/admin/users/${customer.uuid}/coins`, cookie, {
    amount: CUSTOMER_COINS,
    reason: 'Demo starting coins',
    idempotency_key: 'demo-starting-coins',
  });
  if (coins.status !== 200) throw new Error(`crediting coins failed: ${coins.status} ${JSON.stringify(coins.json)}`);
  const test = await api('POST', '/api/admin/pterodactyl/test', cookie, {});
  const catalogue = await importCatalogue(cookie);

  process.stdout.write(
    [
      '',
      'Orepanel demo is running (Ctrl+C stops it; data/demo is wiped on the next run)',
      '',
      `  Panel           ${base}`,
      `  Administrator   ${ADMIN.email} / ${ADMIN.password}   (${base}/mc-admin)`,
      `  Customer        ${CUSTOMER.email} / ${CUSTOMER.password}   (${CUSTOMER_COINS} coins)`,
      '',
      `  Pterodactyl     ${standIn.url}  (stand-in; application key ${standIn.apiKey})`,
      `                  ${world.locations.ro.long}, ${world.locations.us.long}; eggs ${Object.values(world.eggs)
        .map((e) => e.name)
        .join(', ')}`,
      `  Connection      ${test.status === 200 ? `ok, ${test.json.latency_ms} ms` : `${test.status} ${JSON.stringify(test.json)}`}`,
      `  Catalogue       ${catalogue}`,
      '',
    ].join('\n'),
  );
} catch (error) {
  process.stderr.write(`demo: ${error.message}\n`);
  await stop(1);
}
