// A restore that cannot or must not happen leaves the panel exactly as it was: a damaged archive, one
// made with another key, one from a newer panel, and a restore whose process is killed halfway
// (SQLite and PostgreSQL restore in one transaction that then never commits). An archive from an
// older panel is brought forward by the migrations it did not have.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupArchiveError, type BackupManifest } from '../../sdk/server';
import { PanelBackups, type PanelBackupsOptions } from '../../server/backup/panel-backups';
import { CORE_MIGRATIONS } from '../../server/db/core-migrations';
import { CORE_MIGRATION_TABLE, runMigrations } from '../../server/db/migrate';
import { DiskFileStore } from '../../server/files/disk-store';
import { expectSameContent, fillPanel } from './backup-fixture';
import { ROOT, startPanel, testDialects, type TestPanel } from './harness';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupArchiveError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

// MariaDB has no transactional DDL: its put-back is covered by the round trip's own restores
describe.each(testDialects().filter((d) => d !== 'mysql'))('failed restores on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    await fillPanel(panel);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const backups = () => panel.services.panelBackup;
  /** the panel's content now, as a fresh archive's manifest */
  const content = async (): Promise<BackupManifest> => backups().verify((await backups().create('manual')).name);
  /** the same engine over the same database, with some options changed (another key, another version) */
  const variant = (changes: Partial<PanelBackupsOptions>) =>
    new PanelBackups({
      dataDir: panel.database.dataDir,
      secretKey: panel.services.config.secretKey,
      passphrase: null,
      database: panel.services.database,
      databaseConfig: panel.services.config.database,
      files: new DiskFileStore(join(panel.database.dataDir, 'files')),
      panelVersion: panel.services.paths.version,
      plugins: () => [],
      migrationSets: async (tables) => [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: CORE_MIGRATIONS }, ...(await panel.services.plugins.migrationSets(tables))],
      ...changes,
    });
  const beforeRestores = async () => (await backups().list()).filter((b) => b.kind === 'before-restore').length;

  it('refuses a damaged archive and one made with another key, before touching anything', async () => {
    const made = await backups().create('manual');
    const path = join(backups().directory, made.name);
    const bytes = readFileSync(path);
    bytes[Math.floor(bytes.length / 2)] ^= 0x40;
    writeFileSync(path, bytes);
    const foreign = await variant({ secretKey: 'a-key-of-another-install-0123456789abcdef' }).create('manual');
    await panel.services.settings.set('app_name', 'Untouched');
    const before = await content();
    const taken = await beforeRestores();
    expect(await refusal(backups().restore(made.name))).toBe('BACKUP_DAMAGED');
    expect(await refusal(backups().restore(foreign.name))).toBe('BACKUP_WRONG_KEY');
    expectSameContent(await content(), before);
    expect(await beforeRestores()).toBe(taken);
    expect(await panel.services.settings.get('app_name')).toBe('Untouched');
  });

  it('refuses an archive from a newer panel: a newer version, or a migration this code does not know', async () => {
    const newerVersion = await variant({ panelVersion: '99.0.0' }).create('manual');
    const db = panel.services.database.db;
    await sql`insert into op_migrations_core (name, timestamp) values (${'9999_from_a_newer_panel'}, ${new Date().toISOString()})`.execute(db);
    const newerSchema = await backups().create('manual');
    await sql`delete from op_migrations_core where name = ${'9999_from_a_newer_panel'}`.execute(db);
    const before = await content();
    expect(await refusal(backups().restore(newerVersion.name))).toBe('BACKUP_TOO_NEW');
    expect(await refusal(backups().verify(newerSchema.name))).toBe('BACKUP_TOO_NEW');
    await expect(backups().restore(newerSchema.name)).rejects.toThrow(/9999_from_a_newer_panel/);
    expectSameContent(await content(), before);
  });

  it('brings an archive from an older panel forward with the migrations it did not have', async () => {
    const db = panel.services.database.db;
    // this panel's archive is an older release's to a panel that ships one more core migration
    const next = '9999_next_release';
    const newer: typeof CORE_MIGRATIONS = {
      ...CORE_MIGRATIONS,
      [next]: {
        up: async (tx, kit) =>
          void (await kit
            .createTable('backup_test_next_release')
            .addColumn('id', 'integer', (c) => c.primaryKey())
            .execute()),
      },
    };
    const newerPanel = variant({
      migrationSets: async (tables) => [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: newer }, ...(await panel.services.plugins.migrationSets(tables))],
    });
    const older = await backups().create('manual');
    expect((await backups().inspect(older.name)).migrations.op_migrations_core).not.toContain(next);
    try {
      await newerPanel.restore(older.name);
      const applied = await sql<{ name: string }>`select name from op_migrations_core`.execute(db);
      expect(applied.rows.map((r) => r.name).sort()).toEqual(Object.keys(newer).sort());
      await sql`select count(*) from backup_test_next_release`.execute(db);
      // and Kysely's own migrator, at the next start, finds its history in order with nothing to do
      expect(await runMigrations(db as unknown as Kysely<unknown>, panel.services.database.dialect, CORE_MIGRATION_TABLE, newer)).toEqual([]);
    } finally {
      // back to the code this suite runs
      await sql`drop table if exists backup_test_next_release`.execute(db);
      await sql`delete from op_migrations_core where name = ${next}`.execute(db);
    }
  });

  it('leaves the old data when the restoring process is killed halfway', { timeout: 120_000 }, async () => {
    const db = panel.services.database.db;
    // enough rows that the restore is still inserting them when the process dies
    const rows = Array.from({ length: 500 }, (_, i) => ({
      actor_user_id: null,
      target_user_id: null,
      action: 'backup.test',
      details: `row ${i} ${'x'.repeat(200)}`,
      ip: null,
      created_at: new Date().toISOString(),
    }));
    for (let i = 0; i < 80; i++) await db.insertInto('audit_log').values(rows).execute();
    const made = await backups().create('manual');
    await db.deleteFrom('audit_log').where('action', '=', 'backup.test').execute();
    await panel.services.settings.set('app_name', 'Before the kill');
    const before = await content();

    const child = spawn(process.execPath, ['--import', './tests/api/ts-child.mjs', 'tests/api/run-cli.mjs', 'backup', 'restore', made.name, '--yes'], {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: panel.database.dataDir, DATABASE_URL: panel.database.url, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      // the rows are going in: the tables were dropped and made again, inside the transaction
      if (/^restore \d+\/\d+ rows$/m.test(stderr)) child.kill('SIGKILL');
    });
    const { signal } = await ended;
    expect(signal, `the restore ended before it could be killed:\n${stderr}`).toBe('SIGKILL');

    expectSameContent(await content(), before);
    panel.services.settings.invalidate();
    expect(await panel.services.settings.get('app_name')).toBe('Before the kill');
  });
});
