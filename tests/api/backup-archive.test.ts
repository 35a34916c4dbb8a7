// The archive engine (ctx.panelBackup): an archive is made while the panel runs, listed from its
// sidecar, opened only with this install's key, and refused when damaged, cut short or misnamed.
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupArchiveError } from '../../sdk/server';
import { PanelBackups, type PanelBackupsOptions } from '../../server/backup/panel-backups';
import { main, type CliIO } from '../../server/cli';
import { CORE_MIGRATIONS } from '../../server/db/core-migrations';
import { CORE_MIGRATION_TABLE } from '../../server/db/migrate';
import { DiskFileStore } from '../../server/files/disk-store';
import { createTestDatabase, register, startPanel, type TestDatabase, type TestPanel } from './harness';

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupArchiveError) return error.code;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('backup archives', () => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel('sqlite');
    await register(panel.app);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('creates, lists, inspects, verifies and removes an archive', async () => {
    const backups = panel.services.panelBackup;
    const phases = new Set<string>();
    const made = await backups.create('manual', { onProgress: (p) => phases.add(p.phase) });
    expect(made.name).toMatch(/^orepanel-\d{8}-\d{6}-manual\.opbk$/);
    expect([...phases]).toEqual(expect.arrayContaining(['snapshot', 'tables', 'files', 'done']));
    const listed = await backups.list();
    expect(listed[0]).toEqual(made);
    const manifest = await backups.inspect(made.name);
    expect(manifest.kind).toBe('manual');
    expect(manifest.tables.find((t) => t.name === 'users')?.rows).toBe(1);
    expect(manifest.migrations.op_migrations_core.length).toBeGreaterThan(5);
    expect(await backups.verify(made.name)).toEqual(manifest);
    // nothing secret in clear: the user's e-mail address is not in the file
    const bytes = readFileSync(join(backups.directory, made.name));
    expect(bytes.includes(Buffer.from('@example.com'))).toBe(false);
    expect(await backups.remove(made.name)).toBe(true);
    expect(await backups.remove(made.name)).toBe(false);
    expect(await backups.list()).toEqual([]);
  });

  /** the engine over the same panel with another key or a passphrase */
  const variant = (changes: Partial<PanelBackupsOptions>) =>
    new PanelBackups({
      dataDir: panel.database.dataDir,
      secretKey: panel.services.config.secretKey,
      passphrase: null,
      database: panel.services.database,
      databaseConfig: panel.services.config.database,
      files: new DiskFileStore(join(panel.database.dataDir, 'files')),
      panelVersion: '0.1.0',
      plugins: () => [],
      migrationSets: async (tables) => [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: CORE_MIGRATIONS }, ...(await panel.services.plugins.migrationSets(tables))],
      ...changes,
    });

  it('refuses bad names, missing, damaged and foreign archives', async () => {
    const backups = panel.services.panelBackup;
    expect(await refusal(backups.inspect('../secret.key'))).toBe('BACKUP_NAME_INVALID');
    expect(await refusal(backups.verify('orepanel-20260101-000000-manual.opbk'))).toBe('BACKUP_NOT_FOUND');
    const made = await backups.create('scheduled');
    const path = join(backups.directory, made.name);
    const original = readFileSync(path);
    // one flipped byte in the data
    const flipped = Buffer.from(original);
    flipped[200] ^= 0x01;
    writeFileSync(path, flipped);
    expect(await refusal(backups.verify(made.name))).toBe('BACKUP_DAMAGED');
    // cut short
    writeFileSync(path, original.subarray(0, original.length - 10));
    expect(await refusal(backups.verify(made.name))).toBe('BACKUP_DAMAGED');
    writeFileSync(path, original);
    await backups.verify(made.name);
    // another install's key
    const other = variant({ secretKey: 'another-install-key-that-is-long-enough-000' });
    expect(await refusal(other.verify(made.name))).toBe('BACKUP_WRONG_KEY');
    expect(await refusal(other.receive('orepanel-20260101-000000-imported.opbk', Readable.from([original])))).toBe('BACKUP_WRONG_KEY');
    // receive: a copy under another name is kept; the same name twice is refused
    const received = await backups.receive('orepanel-20260101-000000-imported.opbk', Readable.from([original]));
    expect(received.kind).toBe('imported');
    expect(await refusal(backups.receive(received.name, Readable.from([original])))).toBe('BACKUP_EXISTS');
    const opened = await backups.open(received.name);
    const chunks: Buffer[] = [];
    for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(original)).toBe(true);
    // no temporary files left behind
    expect((await readdir(backups.directory)).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('encrypts with BACKUP_PASSPHRASE when one is set: the archive then opens with that passphrase only', async () => {
    const withPassphrase = variant({ passphrase: 'correct horse battery staple' });
    const made = await withPassphrase.create('manual');
    await expect(panel.services.panelBackup.inspect(made.name)).rejects.toThrow(/BACKUP_PASSPHRASE/);
    expect(await refusal(panel.services.panelBackup.verify(made.name))).toBe('BACKUP_WRONG_KEY');
    expect(await refusal(variant({ passphrase: 'another passphrase entirely' }).verify(made.name))).toBe('BACKUP_WRONG_KEY');
    // the passphrase alone opens it: another install's key does not matter
    const elsewhere = variant({ passphrase: 'correct horse battery staple', secretKey: 'the-key-of-the-new-machine-0123456789abcdef' });
    expect((await elsewhere.verify(made.name)).kind).toBe('manual');
  });
});

describe('orepanel backup (command line)', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    env = { DATA_DIR: database.dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' };
  });
  afterAll(async () => {
    await database?.drop();
  });

  const run = async (answer: boolean, ...argv: string[]) => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const asked: string[] = [];
    const io: CliIO = {
      out: (t) => stdout.push(t),
      err: (t) => stderr.push(t),
      confirm: async (question) => {
        asked.push(question);
        return answer;
      },
    };
    const code = await main(argv, io, env);
    return { code, out: stdout.join('\n'), err: stderr.join('\n'), asked };
  };

  it('creates, lists, verifies and restores, asking first unless --yes', { timeout: 120_000 }, async () => {
    const created = await run(false, 'backup', 'create');
    expect(created.code, created.err).toBe(0);
    const name = /Created (orepanel-\d{8}-\d{6}-manual\.opbk)/.exec(created.out)?.[1] ?? '';
    expect(name).not.toBe('');
    expect(created.err).toMatch(/^tables \d+\/\d+ rows$/m);
    expect((await run(false, 'backup', 'list')).out).toContain(`${name}  manual`);
    expect((await run(false, 'backup', 'verify', name)).out).toMatch(/is intact: taken .* on sqlite by panel/);
    const missing = await run(false, 'backup', 'verify', '../secret.key');
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/^error: There is no backup/);

    const declined = await run(false, 'backup', 'restore', name);
    expect(declined.code).toBe(1);
    expect(declined.asked).toEqual(['Restore now?']);
    expect(declined.err).toContain('Every table and file of this panel is replaced');
    expect(declined.err).toContain('Nothing was changed');
    expect((await run(false, 'backup', 'list')).out).not.toContain('before-restore');

    // a file from elsewhere is copied in as an imported archive, then restored
    const outside = join(database.dataDir, 'copy.opbk');
    copyFileSync(join(database.dataDir, 'backups', name), outside);
    const restored = await run(false, 'backup', 'restore', outside, '--yes');
    expect(restored.code, restored.err).toBe(0);
    expect(restored.asked).toEqual([]);
    expect(restored.err).toMatch(/^restore \d+\/\d+ rows$/m);
    expect(restored.out).toMatch(/^Restored orepanel-\d{8}-\d{6}(-\d+)?-imported\.opbk\. The panel as it was is in orepanel-.*-before-restore\.opbk\.$/);

    expect((await run(false, 'backup', 'frobnicate')).code).toBe(2);
    expect((await run(false, 'backup', 'create', 'extra')).code).toBe(2);
    expect((await run(false, 'backup', 'list', '--yes')).code).toBe(2);
  });
});
