// Wallet transfers under contention (issue 4): WALLET_USERS accounts with coins, WALLET_WORKERS
// concurrent workers each sending a random amount plus a fee from one random account to another
// through the Wallet class (server/wallet/wallet.ts) for BENCH_SECONDS, on SQLite and on PostgreSQL.
// Baseline, same run, same PostgreSQL server: pgbench's tpcb-like transaction (three updates, a
// select and an insert), with as many clients as we have workers. Afterwards the bench checks that
// coins were conserved (balances + fees paid = coins funded) and that the ledger check finds no
// mismatch; a run that loses or mints a coin fails loudly.
//
// The Wallet class is not exported by the built server (dist/ has only the CLI's entry points), so
// the TypeScript sources are transpiled with esbuild — the transpiler the build and vitest use —
// into bench/results/ (git-ignored) and imported from there; the database code is the product's own.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import pg from 'pg';
import { ROOT } from './lib.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const USERS = Number(process.env.WALLET_USERS ?? 100);
const WORKERS = Number(process.env.WALLET_WORKERS ?? 16);
const START_COINS = 1000;
const MAX_AMOUNT = 50;
const FEE = 1;
const KIND = 'bench_transfer';
const ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PGBENCH = process.env.PGBENCH ?? '/usr/bin/pgbench';
const RESULTS = join(ROOT, 'bench', 'results');

/** Transpiles the wallet, the ledger check and the database opener into one importable module. */
async function loadServerCode() {
  mkdirSync(RESULTS, { recursive: true });
  const outfile = join(RESULTS, `.wallet-bench-${process.pid}.mjs`);
  await build({
    stdin: {
      contents: [
        "export { Wallet } from './server/wallet/wallet';",
        "export { checkLedgerConsistency } from './server/wallet/consistency';",
        "export { openDatabase } from './server/db/connect';",
        "export { runMigrations, CORE_MIGRATION_TABLE } from './server/db/migrate';",
        "export { CORE_MIGRATIONS } from './server/db/core-migrations';",
      ].join('\n'),
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile,
    logLevel: 'error',
  });
  try {
    return await import(outfile);
  } finally {
    rmSync(outfile, { force: true });
  }
}

// ---- PostgreSQL scratch databases --------------------------------------------------------------

function urlFor(database) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
}

async function admin(statement) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A database of our own for the duration of `fn`, dropped afterwards whatever happened. */
async function withScratchDatabase(prefix, fn) {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${name}`);
  try {
    return await fn(name);
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

// ---- the baseline: pgbench tpcb-like -----------------------------------------------------------

function pgbenchArgs(database) {
  const url = new URL(ADMIN_URL);
  return ['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username || 'postgres'), database];
}

function pgbenchRun(database) {
  const conn = pgbenchArgs(database);
  const init = spawnSync(PGBENCH, ['-i', '-s', '1', '-q', ...conn], { encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`pgbench -i failed: ${init.stderr || init.stdout}`);
  const runArgs = ['-c', String(WORKERS), '-j', '2', '-T', String(SECONDS), '-b', 'tpcb-like', ...conn];
  const result = spawnSync(PGBENCH, runArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pgbench failed: ${result.stderr || result.stdout}`);
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(result.stdout) ?? /tps = ([\d.]+)/.exec(result.stdout);
  if (!tps) throw new Error(`no tps in pgbench's output:\n${result.stdout}`);
  const failed = /number of failed transactions: (\d+)/.exec(result.stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(result.stdout);
  return { tps: Number(tps[1]), failed: failed ? Number(failed[1]) : 0, latencyAvgMs: latency ? Number(latency[1]) : null };
}

// ---- the workload ------------------------------------------------------------------------------

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function seedUsers(database, code) {
  const now = new Date().toISOString();
  const rows = Array.from({ length: USERS }, (_, i) => ({
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    username: `bench${i}`,
    username_lower: `bench${i}`,
    email: `bench${i}@example.com`,
    email_lower: `bench${i}@example.com`,
    first_name: 'Bench',
    last_name: String(i),
    password_hash: '!',
    created_at: now,
    updated_at: now,
  }));
  // SQLite and PostgreSQL both have RETURNING (the bench does not run on MySQL)
  const inserted = await database.db.insertInto('users').values(rows).returning('id').execute();
  const ids = inserted.map((r) => Number(r.id));
  // funded through the wallet itself, so every coin has its ledger entry
  const wallet = new code.Wallet(database);
  for (const id of ids) await wallet.credit({ userId: id, amount: START_COINS, kind: 'bench_funding', idempotencyKey: `bench-fund:${id}` });
  return ids;
}

async function transfers(database, code, ids) {
  const wallet = new code.Wallet(database);
  const failures = new Map();
  const latencies = [];
  let ok = 0;
  let replayed = 0;
  const end = performance.now() + SECONDS * 1000;
  const worker = async (w) => {
    for (let n = 0; performance.now() < end; n++) {
      const from = ids[Math.floor(Math.random() * ids.length)];
      let to = ids[Math.floor(Math.random() * (ids.length - 1))];
      if (to === from) to = ids[ids.length - 1];
      const started = performance.now();
      try {
        const result = await wallet.transfer({
          fromUserId: from,
          toUserId: to,
          amount: 1 + Math.floor(Math.random() * MAX_AMOUNT),
          fee: FEE,
          kind: KIND,
          idempotencyKey: `bench:${w}:${n}`,
        });
        if (result.replayed) replayed++;
        else ok++;
      } catch (error) {
        // http errors carry the API code (INSUFFICIENT_COINS…); driver errors their own (SQLITE_BUSY, 40P01…)
        const reason = error?.code ?? error?.name ?? 'UNKNOWN';
        failures.set(reason, (failures.get(reason) ?? 0) + 1);
      }
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: WORKERS }, (_, w) => worker(w)));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    transfersPerSecond: ok / elapsed,
    transfers: ok,
    attempts: latencies.length,
    replayed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    failures: Object.fromEntries(failures),
  };
}

/** Conservation and the ledger check; returns the problems found (none = the data is intact). */
async function verify(database, code, run) {
  const problems = [];
  const { sql } = await import('kysely');
  const balances = await database.db.selectFrom('users').select(sql`coalesce(sum(coins), 0)`.as('total')).executeTakeFirstOrThrow();
  const feeRows = await database.db
    .selectFrom('wallet_ledger')
    .select([sql`count(*)`.as('n'), sql`coalesce(sum(delta), 0)`.as('total')])
    .where('kind', '=', `${KIND}.fee`)
    .executeTakeFirstOrThrow();
  const funded = USERS * START_COINS;
  const total = Number(balances.total);
  const feesInLedger = -Number(feeRows.total);
  const feesCounted = run.transfers * FEE;
  if (total + feesCounted !== funded) problems.push(`balances ${total} + fees ${feesCounted} != ${funded} coins funded`);
  if (feesInLedger !== feesCounted) problems.push(`the ledger shows ${feesInLedger} coins of fees, ${feesCounted} were charged`);
  if (Number(feeRows.n) !== run.transfers) problems.push(`${feeRows.n} fee entries for ${run.transfers} transfers`);
  if (run.replayed !== 0) problems.push(`${run.replayed} fresh keys answered as replays`);
  const report = await code.checkLedgerConsistency(database.db);
  if (report.mismatches.length > 0) {
    const shown = report.mismatches.slice(0, 5).map((m) => `user ${m.userId}: balance ${m.balance}, ledger ${m.ledgerSum}, last ${m.lastBalanceAfter}`);
    problems.push(`${report.mismatches.length} of ${report.accounts} balances differ from the ledger (${shown.join('; ')})`);
  }
  return { problems, coinsLeft: total, feesPaid: feesCounted, ledgerEntries: report.entries, accountsChecked: report.accounts };
}

async function walletRun(label, databaseConfig, code) {
  const database = code.openDatabase(databaseConfig);
  try {
    await code.runMigrations(database.db, database.dialect, code.CORE_MIGRATION_TABLE, code.CORE_MIGRATIONS);
    const ids = await seedUsers(database, code);
    const run = await transfers(database, code, ids);
    const check = await verify(database, code, run);
    const failures =
      Object.entries(run.failures)
        .map(([c, n]) => `${c} ${n}`)
        .join(', ') || 'none';
    console.log(
      `${label}: ${run.transfersPerSecond.toFixed(0)} transfers/s (${run.transfers} ok of ${run.attempts}; p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms; failures: ${failures})`,
    );
    if (check.problems.length > 0) {
      console.error(`\n!!! ${label}: THE WALLET CORRUPTED DATA UNDER CONTENTION !!!`);
      for (const p of check.problems) console.error(`!!!   ${p}`);
      process.exitCode = 1;
    } else {
      console.log(
        `  conserved: ${check.coinsLeft} coins left + ${check.feesPaid} fees = ${USERS * START_COINS} funded; ledger check: ${check.accountsChecked} balances match ${check.ledgerEntries} entries`,
      );
    }
    return { ...run, ...check };
  } finally {
    await database.close();
  }
}

export async function run() {
  const code = await loadServerCode();
  console.log(`${USERS} accounts × ${START_COINS} coins, ${WORKERS} workers, random 1–${MAX_AMOUNT} coins + ${FEE} fee, ${SECONDS} s each`);

  const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-bench-wallet-'));
  let sqlite;
  try {
    sqlite = await walletRun('SQLite    ', { dialect: 'sqlite', file: join(dataDir, 'panel.sqlite') }, code);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const baseline = await withScratchDatabase('orepanel_bench_pgbench', async (name) => pgbenchRun(name));
  console.log(`pgbench tpcb-like, -c ${WORKERS} -j 2 -s 1: ${baseline.tps.toFixed(0)} tps (avg latency ${baseline.latencyAvgMs} ms, ${baseline.failed} failed)`);
  const postgres = await withScratchDatabase('orepanel_bench_wallet', (name) => walletRun('PostgreSQL', { dialect: 'postgres', url: urlFor(name) }, code));

  const ratio = postgres.transfersPerSecond / baseline.tps;
  console.log(`ratio (PostgreSQL wallet transfers / pgbench tpcb-like tps, same server): ${ratio.toFixed(2)}x`);
  console.log(`SQLite transfers / pgbench tps (different engines, for scale only): ${(sqlite.transfersPerSecond / baseline.tps).toFixed(2)}x`);
  const corrupted = sqlite.problems.length > 0 || postgres.problems.length > 0;
  const result = { date: new Date().toISOString(), users: USERS, workers: WORKERS, seconds: SECONDS, sqlite, postgres, pgbench: baseline, ratio, corrupted };
  writeFileSync(join(RESULTS, 'wallet-transfers.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (corrupted) throw new Error('wallet bench: coins were not conserved or the ledger disagrees with the balances (see above)');
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
