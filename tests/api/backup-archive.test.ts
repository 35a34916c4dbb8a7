// The archive engine (ctx.panelBackup): an archive is made while the panel runs, listed from its
// sidecar, opened only with this install's key, and refused when damaged, cut short or misnamed.
import { readFileSync, writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupArchiveError } from '../../sdk/server';
import { loadConfig } from '../../server/config';
import { PanelBackups } from '../../server/backup/panel-backups';
import { register, startPanel, type TestPanel } from './harness';

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
    const other = new PanelBackups({
      dataDir: panel.database.dataDir,
      secretKey: 'another-install-key-that-is-long-enough-000',
      passphrase: null,
      database: panel.services.database,
      databaseConfig: panel.services.config.database,
      files: { list: async function* () {}, get: async () => null, put: async () => undefined, remove: async () => false },
      panelVersion: '0.1.0',
      plugins: () => [],
      migrationSets: async () => [],
    });
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
    void loadConfig;
  });
});
