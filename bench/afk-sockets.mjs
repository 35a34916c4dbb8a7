// AFK sockets (issue 4): N concurrent AFK sockets on one panel instance (BENCH_AFK_SOCKETS, default
// 10,000), each a different user heart-beating every 10 s as a visible page does. Reports the panel's
// memory and CPU per socket against a baseline measured in the same run — N idle connections to a
// bare `ws` server — and checks the payouts exactly: every socket must be paid each full minute it
// was observed, once, and nothing else. Real time: it runs BENCH_AFK_MINUTES (default 2) paid
// minutes, about 3–4 minutes in all.
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import WebSocket from 'ws';
import { freePort, ROOT, startPanel } from './lib.mjs';

const SOCKETS = Number(process.env.BENCH_AFK_SOCKETS ?? 10_000);
const MINUTES = Math.max(1, Number(process.env.BENCH_AFK_MINUTES ?? 2));
// as the page does (plugins/earn-afk/shared/protocol.ts HEARTBEAT_INTERVAL_MS)
const HEARTBEAT_MS = 10_000;
const CONNECT_CONCURRENCY = 200;
const MINUTE_MS = 60_000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- process figures (Linux /proc; `ps` elsewhere) -------------------------------------------

const CLOCK_TICKS = 100; // USER_HZ on every Linux the panel targets

/** Resident memory (bytes) and CPU time used so far (ms) of process `pid`, from /proc. */
function processFigures(pid) {
  if (existsSync(`/proc/${pid}/stat`)) {
    const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) * 1024;
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime and stime are fields 14 and 15
    const cpuMs = ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    return { rss, cpuMs };
  }
  throw new Error('the AFK bench reads /proc: run it on Linux');
}

/** Memory settles after a burst of connections: the lowest of a few samples, a second apart. */
async function settledRss(pid, samples = 5) {
  let low = Infinity;
  for (let i = 0; i < samples; i++) {
    low = Math.min(low, processFigures(pid).rss);
    await sleep(1_000);
  }
  return low;
}

// ---- the baseline: a bare ws server --------------------------------------------------------------

async function startBareWs() {
  const port = await freePort();
  const code = `
    const { WebSocketServer } = require(${JSON.stringify(join(ROOT, 'node_modules', 'ws'))});
    const server = new WebSocketServer({ port: ${port}, host: '127.0.0.1', perMessageDeflate: false });
    server.on('listening', () => process.send('up'));
    server.on('connection', (socket) => socket.on('error', () => {}));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  return { url: `ws://127.0.0.1:${port}/`, pid: child.pid, stop: () => child.kill() };
}

// ---- users with sessions, straight into the panel's database -----------------------------------

/**
 * N accounts with a live session each, written into the SQLite file directly: signing up 10,000
 * accounts through the API would benchmark the password hash, not the sockets.
 */
function seedUsers(dataDir, count) {
  const db = new Database(join(dataDir, 'orepanel.sqlite'));
  db.pragma('busy_timeout = 10000');
  const now = new Date().toISOString();
  const expires = new Date(Date.now() + 86_400_000).toISOString();
  const tag = randomBytes(3).toString('hex');
  const user = db.prepare(
    'insert into users (uuid, username, username_lower, email, email_lower, first_name, last_name, password_hash, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const session = db.prepare('insert into sessions (public_id, user_id, token_hash, created_at, last_seen_at, expires_at) values (?, ?, ?, ?, ?, ?)');
  const users = [];
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const name = `afk${tag}${i}`;
      const { lastInsertRowid } = user.run(randomUUID(), name, name, `${name}@bench.example`, `${name}@bench.example`, 'Bench', 'User', '!', now, now);
      const token = randomBytes(32).toString('base64url');
      session.run(randomBytes(16).toString('base64url'), Number(lastInsertRowid), createHash('sha256').update(token).digest('hex'), now, now, expires);
      users.push({ id: Number(lastInsertRowid), cookie: `op_session=${token}` });
    }
  })();
  db.close();
  return users;
}

function paidMinutesByUser(dataDir) {
  const db = new Database(join(dataDir, 'orepanel.sqlite'), { readonly: true });
  const rows = db.prepare("select user_id, count(*) as n, sum(delta) as coins from wallet_ledger where kind = 'afk.minute' group by user_id").all();
  db.close();
  return new Map(rows.map((r) => [Number(r.user_id), { minutes: Number(r.n), coins: Number(r.coins) }]));
}

// ---- clients ----------------------------------------------------------------------------------

/** Opens `count` sockets to `url` (CONNECT_CONCURRENCY at a time); `setup` attaches behaviour. */
async function openAll(count, open) {
  const sockets = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      sockets[i] = await open(i);
    }
  };
  await Promise.all(Array.from({ length: CONNECT_CONCURRENCY }, worker));
  return sockets;
}

function connect(url, headers) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, perMessageDeflate: false });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** One AFK page: heartbeats every 10 s (first one at once, the rest spread out), remembers the server's word. */
function afkPage(socket, user) {
  const page = { user, socket, firstPayableEnd: null, session: { minutes: 0, coins: 0 }, status: null, beat: null, dropped: null, stopping: false };
  socket.on('error', () => {});
  socket.on('close', (code) => {
    if (!page.stopping) page.dropped = code;
  });
  socket.on('message', (data) => {
    const state = JSON.parse(String(data));
    page.session = state.session;
    page.status = state.status;
    if (state.status === 'earning' && page.firstPayableEnd === null) page.firstPayableEnd = state.nextPayoutAt;
  });
  const send = () => socket.readyState === WebSocket.OPEN && socket.send('{"type":"heartbeat","visible":true}');
  send();
  const offset = Math.floor(Math.random() * HEARTBEAT_MS);
  page.beat = setTimeout(() => {
    send();
    page.beat = setInterval(send, HEARTBEAT_MS);
  }, offset);
  return page;
}

function stopPage(page) {
  page.stopping = true;
  clearTimeout(page.beat);
  clearInterval(page.beat);
  return new Promise((resolve) => {
    if (page.socket.readyState === WebSocket.CLOSED) return resolve();
    page.socket.once('close', resolve);
    page.socket.close();
  });
}

const mib = (bytes) => (bytes / 1024 / 1024).toFixed(1);
const kib = (bytes) => (bytes / 1024).toFixed(1);

export async function run() {
  console.log(`${SOCKETS} sockets, ${MINUTES} paid minute(s)`);

  // baseline: N idle connections to a bare ws server
  const bare = await startBareWs();
  let baseline;
  try {
    const before = await settledRss(bare.pid, 2);
    const cpuBefore = processFigures(bare.pid).cpuMs;
    const idle = await openAll(SOCKETS, () => connect(bare.url, {}));
    const after = await settledRss(bare.pid);
    const windowStart = Date.now();
    const cpuIdle = processFigures(bare.pid).cpuMs;
    await sleep(10_000);
    const cpuAfter = processFigures(bare.pid).cpuMs;
    const minutes = (Date.now() - windowStart) / MINUTE_MS;
    baseline = { bytesPerSocket: (after - before) / SOCKETS, connectCpuMs: cpuIdle - cpuBefore, cpuMsPerSocketMinute: (cpuAfter - cpuIdle) / SOCKETS / minutes };
    await Promise.all(idle.map((socket) => new Promise((resolve) => (socket.once('close', resolve), socket.close()))));
  } finally {
    bare.stop();
  }
  console.log(`baseline, bare ws (idle):      ${kib(baseline.bytesPerSocket)} KiB/socket resident, ${baseline.cpuMsPerSocketMinute.toFixed(3)} ms CPU per socket per minute`);

  const panel = await startPanel();
  try {
    // thousands of upgrades from one address: the per-IP request limit would (rightly) stop them
    const set = panel.cli(['settings', 'set', 'rate_limit_enabled', 'false']);
    if (set.status !== 0) throw new Error(`settings set failed: ${set.stderr || set.stdout}`);
    const users = seedUsers(panel.dataDir, SOCKETS);
    await sleep(6_000); // the panel re-reads settings every 5 s

    const rssBefore = await settledRss(panel.pid, 2);
    const socketUrl = `${panel.url.replace(/^http/, 'ws')}/api/user/earn/afk/socket`;
    const started = Date.now();
    const pages = await openAll(SOCKETS, async (i) => afkPage(await connect(socketUrl, { cookie: users[i].cookie, origin: panel.url }), users[i]));
    const connectSeconds = (Date.now() - started) / 1000;
    // every page earning before the measuring starts
    for (let waited = 0; pages.some((p) => p.firstPayableEnd === null); waited += 250) {
      if (waited > 60_000) throw new Error(`${pages.filter((p) => p.firstPayableEnd === null).length} sockets never started earning`);
      await sleep(250);
    }
    const rssAfter = await settledRss(panel.pid);
    const bytesPerSocket = (rssAfter - rssBefore) / SOCKETS;

    // steady state over the paid minutes, then close half a minute after the last boundary
    const lastPayable = Math.max(...pages.map((p) => p.firstPayableEnd));
    const closeAt = lastPayable + (MINUTES - 1) * MINUTE_MS + MINUTE_MS / 2;
    const cpuStart = processFigures(panel.pid).cpuMs;
    const windowStart = Date.now();
    await sleep(closeAt - Date.now());
    const cpuMs = processFigures(panel.pid).cpuMs - cpuStart;
    const windowMinutes = (Date.now() - windowStart) / MINUTE_MS;
    const closedAt = Date.now();
    const dropped = pages.filter((p) => p.dropped !== null);
    const statuses = {};
    for (const page of pages) statuses[page.status] = (statuses[page.status] ?? 0) + 1;
    await Promise.all(pages.map(stopPage));
    await sleep(2_000);

    // exact payouts: a page is owed every minute that ended between its first payable end and its close
    const paid = paidMinutesByUser(panel.dataDir);
    let owed = 0;
    let short = 0;
    let over = 0;
    let reportMismatch = 0;
    for (const page of pages) {
      const expected = Math.floor((closedAt - page.firstPayableEnd) / MINUTE_MS) + 1;
      const got = paid.get(page.user.id) ?? { minutes: 0, coins: 0 };
      owed += expected;
      if (got.minutes < expected) short++;
      if (got.minutes > expected) over++;
      if (got.coins !== page.session.coins) reportMismatch++;
    }
    const totalPaid = [...paid.values()].reduce((sum, p) => sum + p.minutes, 0);

    console.log(`connected ${SOCKETS} AFK sockets in ${connectSeconds.toFixed(1)} s`);
    console.log(
      `panel, AFK sockets:            ${kib(bytesPerSocket)} KiB/socket resident (${mib(rssAfter)} MiB in all) — ${(bytesPerSocket / baseline.bytesPerSocket).toFixed(1)}x the bare ws baseline`,
    );
    console.log(
      `panel CPU:                     ${(cpuMs / SOCKETS / windowMinutes).toFixed(3)} ms per socket per minute (${((cpuMs / (windowMinutes * MINUTE_MS)) * 100).toFixed(0)} % of one core; heartbeats, leases and one wallet payout per socket-minute)`,
    );
    console.log(
      `payouts:                       ${totalPaid} of ${owed} owed minutes paid; ${short} sockets short, ${over} over, ${reportMismatch} told a different total than the ledger`,
    );
    console.log(
      `sockets at the end:            ${JSON.stringify(statuses)}; dropped by the server: ${dropped.length}${dropped.length ? ` (codes ${[...new Set(dropped.map((p) => p.dropped))].join(', ')})` : ''}`,
    );
    const exact = short === 0 && over === 0 && reportMismatch === 0 && totalPaid === owed && dropped.length === 0;
    console.log(`exact payouts: ${exact ? 'OK' : 'MISMATCH'}`);
    return {
      sockets: SOCKETS,
      bytesPerSocket,
      baselineBytesPerSocket: baseline.bytesPerSocket,
      cpuMsPerSocketMinute: cpuMs / SOCKETS / windowMinutes,
      owed,
      paid: totalPaid,
      exact,
    };
  } finally {
    await panel.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
