// A panel with something in every corner a backup must carry — accounts with passwords and 2FA, a
// wallet ledger, a support ticket with an attached file, a sealed secret setting, an integer beyond
// 2^53 — and the checks that a restore brought all of it back: every table's checksum in a fresh
// archive, every file, the ledger consistent, the accounts able to sign in.
import { join } from 'node:path';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { BackupManifest } from '../../sdk/server';
import { DiskFileStore } from '../../server/files/disk-store';
import { checkLedgerConsistency } from '../../server/wallet/consistency';
import { totpCode, totpStep } from '../../plugins/auth/server/totp';
import { cookieHeader, PASSWORD, register, userWithRole, type SignedInUser, type TestPanel } from './harness';
import { multipartForm } from './multipart-form';

/** 2^53 + 1: a JavaScript number cannot hold it */
export const BIG = 9007199254740993n;
/** a counter of the root account holding BIG: an integer no double holds, in a bigint column */
export const BIG_COUNTER = 'backup_test_big';
export const SECRET = 'hunter2 smtp password';

export interface Filled {
  root: SignedInUser;
  customer: SignedInUser;
  twoFactor: { username: string; secret: string };
  ticketId: number;
  fileKey: string;
  fileBytes: Buffer;
}

export async function fillPanel(panel: TestPanel): Promise<Filled> {
  const { app, services } = panel;
  const root = await userWithRole(panel, 8);
  const customer = await userWithRole(panel, 1);
  // an account with 2FA, switched on through the API
  const account = await register(app);
  const setup = await app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: account.cookie } });
  const { secret } = setup.json() as { secret: string };
  const confirmed = await app.inject({ method: 'POST', url: '/api/user/auth/2fa/setup', payload: { code: totpCode(secret, totpStep() - 1) }, headers: { cookie: account.cookie } });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  // the ledger, through the wallet
  await services.wallet.credit({ userId: customer.id, amount: 750, kind: 'admin.adjust', idempotencyKey: `fill:${customer.id}:credit`, reason: 'backup test' });
  await services.wallet.debit({ userId: customer.id, amount: 120, kind: 'admin.adjust', idempotencyKey: `fill:${customer.id}:debit`, reason: 'backup test' });
  await services.wallet.credit({ userId: root.id, amount: 5, kind: 'admin.adjust', idempotencyKey: `fill:${root.id}:credit`, reason: 'backup test' });
  // a ticket with an attachment (a plugin's rows and a file of the file service)
  const department = await app.inject({ method: 'POST', url: '/api/admin/departments', payload: { name: 'General' }, headers: { cookie: root.cookie } });
  expect(department.statusCode, department.body).toBe(201);
  const fileBytes = Buffer.from('[12:00:01] [Server thread/ERROR]: Crash — ünïcödé\n');
  const form = await multipartForm(
    [{ name: 'latest.log', bytes: fileBytes }],
    { department_id: String(department.json().department.id), subject: 'Server will not start', priority: 'high', message: 'See the log.' },
    'files',
  );
  const ticket = await app.inject({ method: 'POST', url: '/api/user/tickets', payload: form.payload, headers: { ...form.headers, cookie: customer.cookie } });
  expect(ticket.statusCode, ticket.body).toBe(201);
  const ticketId = (ticket.json() as { ticket: { id: number } }).ticket.id;
  const messages = await app.inject({ url: `/api/user/tickets/${ticketId}`, headers: { cookie: customer.cookie } });
  const fileKey = (messages.json() as { messages: { attachments: { key: string }[] }[] }).messages[0].attachments[0].key;
  // a secret setting (sealed with the install's key in the table) and a plain one
  await services.settings.set('smtp_pass', SECRET);
  await services.settings.set('app_name', 'Backup Test Panel');
  // an integer no double holds, in a bigint column
  await sql`insert into user_counters (user_id, name, value, updated_at) values (${root.id}, ${BIG_COUNTER}, ${services.database.dialect === 'sqlite' ? BIG : BIG.toString()}, ${new Date().toISOString()})`.execute(
    services.database.db,
  );
  // a lease held now: a process's, not the panel's — an archive leaves it out
  await sql`insert into leases (name, holder, expires_at) values (${'backup-test.lease'}, ${'test'}, ${Date.now() + 60_000})`.execute(services.database.db);
  return { root, customer, twoFactor: { username: account.body.username, secret }, ticketId, fileKey, fileBytes };
}

/** Changes and deletes things the restore must put back. */
export async function wipePanel(panel: TestPanel, filled: Filled): Promise<void> {
  const { services } = panel;
  const db = services.database.db;
  await register(panel.app);
  await db.deleteFrom('wallet_ledger').execute();
  await db.updateTable('users').set({ coins: 0, first_name: 'Changed' }).execute();
  await sql`delete from user_counters where name = ${BIG_COUNTER}`.execute(db);
  await services.settings.set('smtp_pass', 'another password');
  await services.settings.set('app_name', 'Wiped');
  await new DiskFileStore(join(panel.database.dataDir, 'files')).remove(filled.fileKey);
}

/** table → rows and checksum, from a manifest */
export function tableSums(manifest: BackupManifest): Record<string, string> {
  return Object.fromEntries(manifest.tables.map((t) => [t.name, `${t.rows}:${t.sha256}`]));
}

/**
 * Tables whose rows a running panel changes by itself between two archives (job leases; the cache
 * versions a restore moves, the instances' heartbeats and the jobs' last runs: server/cluster/), left
 * out of the comparison; everything else must be identical.
 */
const MOVING = new Set<string>(['cache_versions', 'panel_instances', 'job_runs']);

export function expectSameContent(actual: BackupManifest, expected: BackupManifest): void {
  const a = tableSums(actual);
  const e = tableSums(expected);
  for (const name of MOVING) {
    delete a[name];
    delete e[name];
  }
  expect(a).toEqual(e);
  expect(actual.files).toEqual(expected.files);
  expect(actual.migrations).toEqual(expected.migrations);
}

/** Everything a user of the restored panel would notice. */
export async function expectRestored(panel: TestPanel, filled: Filled): Promise<void> {
  const { app, services } = panel;
  const report = await checkLedgerConsistency(services.database.db);
  expect(report.mismatches).toEqual([]);
  expect(report.entries).toBe(3);
  expect(await services.settings.get('smtp_pass')).toBe(SECRET);
  expect(await services.settings.get('app_name')).toBe('Backup Test Panel');
  const login = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: filled.customer.username, password: PASSWORD } });
  expect(login.statusCode, login.body).toBe(200);
  const cookie = cookieHeader(login);
  const session = await app.inject({ url: '/api/user/session', headers: { cookie } });
  expect(session.json().billing.coins).toBe(630);
  const file = await app.inject({ url: `/api/user/tickets/${filled.ticketId}/attachments/${filled.fileKey}`, headers: { cookie } });
  expect(file.statusCode).toBe(200);
  expect(file.rawPayload.equals(filled.fileBytes)).toBe(true);
  // the 2FA account: password, then its code. A step is accepted once: the checks run several times
  // within one 30-second step, so the one recorded as used is forgotten first (set-up, not the rule)
  await sql`update auth_two_factor set last_used_step = null where user_id = (select id from users where username = ${filled.twoFactor.username})`.execute(services.database.db);
  const code = totpCode(filled.twoFactor.secret, totpStep());
  const pending = await app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: filled.twoFactor.username, password: PASSWORD } });
  expect(pending.statusCode, pending.body).toBe(200);
  const verified = await app.inject({
    method: 'POST',
    url: '/api/user/auth/2fa/verify',
    payload: { code },
    headers: { cookie: cookieHeader(pending) },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  const row = await sql<{ value: unknown }>`select value from user_counters where name = ${BIG_COUNTER}`.execute(services.database.db);
  // (its exact value is compared by the table checksums: the panel's own reads give doubles on SQLite)
  expect(row.rows).toHaveLength(1);
  // sessions and leases are not in archives: the sessions of before the restore (a revoked one
  // among them, in real life) are gone — everyone signs in again — and no lease of the past holds a job
  const before = await app.inject({ url: '/api/user/session', headers: { cookie: filled.customer.cookie } });
  expect(before.statusCode).toBe(401);
  const leases = await sql<{ name: string }>`select name from leases where name = ${'backup-test.lease'}`.execute(services.database.db);
  expect(leases.rows).toEqual([]);
}
