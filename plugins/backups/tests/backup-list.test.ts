// The list's "kept" column: local archives alone while no copy plugin answers (absent, not set up),
// both / off-site-only rows from the copy plugin's answer (its odd entries left out), newest first, and
// a copy plugin that fails or hangs costs the list a note, never the list itself.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LocalBackup, PanelBackup, ServerPluginContext } from '@orepanel/sdk/server';
import type { BackupRemoteCopies, RemoteBackupCopy } from '../contract';
import { Backups } from '../server/backups';
import type { BackupWork } from '../server/work';

const local = (name: string, createdAt: string): LocalBackup => ({ name, size: 100, createdAt, kind: 'manual', panelVersion: '1.2.3' });

/** the parts of the context and the engine list() reads, nothing else */
function backupsWith(archives: LocalBackup[], copies: BackupRemoteCopies | null): Backups {
  const ctx = {
    services: { find: () => copies },
    log: { warn: () => undefined },
  } as unknown as ServerPluginContext;
  const engine = { list: async () => archives } as unknown as PanelBackup;
  return new Backups(ctx, engine, {} as BackupWork);
}

const A = local('orepanel-20261101-030000-scheduled.opbk', '2026-11-01T03:00:00.000Z');
const B = local('orepanel-20261102-030000-manual.opbk', '2026-11-02T03:00:00.000Z');

afterEach(() => {
  vi.useRealTimers();
});

describe('the backups list', () => {
  it('shows local archives as kept here while there is no copy plugin, or it is not set up', async () => {
    expect(await backupsWith([A, B], null).list()).toEqual({
      remote: 'off',
      data: [
        { name: B.name, size: 100, created_at: B.createdAt, kind: 'manual', where: 'local', panel_version: '1.2.3' },
        { name: A.name, size: 100, created_at: A.createdAt, kind: 'manual', where: 'local', panel_version: '1.2.3' },
      ],
    });
    expect((await backupsWith([A], { list: async () => null }).list()).remote).toBe('off');
  });

  it('marks archives kept in both places, adds off-site-only ones, and leaves out entries it cannot show', async () => {
    const remote: RemoteBackupCopy[] = [
      { name: A.name, size: 100, createdAt: A.createdAt, kind: 'scheduled' },
      { name: 'orepanel-20261103-030000-scheduled.opbk', size: 7, createdAt: '2026-11-03T03:00:00Z', kind: 'scheduled' },
      { name: '../etc/passwd', size: 1, createdAt: '2026-11-04T00:00:00Z', kind: null },
      { name: 'orepanel-20261105-030000-scheduled.opbk', size: Number.NaN, createdAt: '2026-11-05T00:00:00Z', kind: null },
      { name: 'orepanel-20261106-030000-scheduled.opbk', size: 1, createdAt: 'yesterday', kind: null },
      { name: 'orepanel-20261107-030000-imported.opbk', size: 1, createdAt: '2026-11-07T00:00:00Z', kind: 'strange' as never },
    ];
    const list = await backupsWith([A, B], { list: async () => remote }).list();
    expect(list.remote).toBe('ok');
    expect(list.data.map((row) => [row.name, row.where, row.kind, row.panel_version])).toEqual([
      ['orepanel-20261107-030000-imported.opbk', 'remote', null, null],
      ['orepanel-20261103-030000-scheduled.opbk', 'remote', 'scheduled', null],
      [B.name, 'local', 'manual', '1.2.3'],
      [A.name, 'both', 'manual', '1.2.3'],
    ]);
    expect(list.data[1]).toMatchObject({ size: 7, created_at: '2026-11-03T03:00:00.000Z' });
  });

  it('still lists the local archives when the copy plugin fails', async () => {
    const list = await backupsWith([A], {
      list: async () => {
        throw new Error('the bucket is unreachable');
      },
    }).list();
    expect(list).toMatchObject({ remote: 'unavailable', data: [{ name: A.name, where: 'local' }] });
  });

  it('waits a few seconds at most for a copy plugin that does not answer', async () => {
    vi.useFakeTimers();
    const pending = backupsWith([A], { list: () => new Promise<never>(() => undefined) }).list();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(await pending).toMatchObject({ remote: 'unavailable', data: [{ name: A.name, where: 'local' }] });
  });
});
