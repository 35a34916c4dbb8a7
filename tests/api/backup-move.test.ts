// Moving a panel between databases with a backup: taken on one dialect, restored into a panel whose
// DATABASE_URL names another, and back. Both panels share the install's key (the README says to
// keep SECRET_KEY or DATA_DIR/secret.key); every table's checksum, every file and the accounts come
// through each move.
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BackupManifest } from '../../sdk/server';
import { archiveName } from '../../server/backup/archive-name';
import { expectRestored, expectSameContent, fillPanel, type Filled } from './backup-fixture';
import { startPanel, testDialects, type TestDialect, type TestPanel } from './harness';

const SECRET_KEY = 'the-same-install-key-on-both-machines-0123456789';

/** Copies the archive `name` of `from` into `to`'s folder, restores it there; returns the restored manifest. */
async function move(from: TestPanel, name: string, to: TestPanel): Promise<BackupManifest> {
  // as the command line imports a file: under a name of its own (the other folder may hold one called the same)
  const received = await to.services.panelBackup.receive(archiveName('imported', new Date()), createReadStream(join(from.services.panelBackup.directory, name)));
  const { manifest } = await to.services.panelBackup.restore(received.name);
  return manifest;
}

describe.each(testDialects())('moving a panel into %s and back', (dialect) => {
  const partner: TestDialect = dialect === 'sqlite' ? 'postgres' : 'sqlite';
  const panels: TestPanel[] = [];
  const start = async (which: TestDialect) => {
    // the cache counters read all the time: a reload in the middle of a restore (it once wrote the
    // settings' defaults into the emptied table while MariaDB's put-back ran) would show here
    const panel = await startPanel(which, { jobs: false, env: { SECRET_KEY }, cacheSyncPollMs: 20 });
    panels.push(panel);
    return panel;
  };
  afterAll(async () => {
    for (const panel of panels) await panel.close();
  });

  it(`${partner} → ${dialect} → ${partner}: the same tables, files and accounts`, { timeout: 120_000 }, async () => {
    const first = await start(partner);
    const filled: Filled = await fillPanel(first);
    const made = await first.services.panelBackup.create('manual');
    const original = await first.services.panelBackup.verify(made.name);
    expect(original.dialect).toBe(partner);

    const second = await start(dialect);
    expect(await move(first, made.name, second)).toEqual(original);
    const onSecond = await second.services.panelBackup.verify((await second.services.panelBackup.create('manual')).name);
    expect(onSecond.dialect).toBe(dialect);
    expectSameContent(onSecond, original);
    await expectRestored(second, filled);

    if (partner === 'sqlite') {
      // SQLite does not enforce a varchar's length; the other databases refuse the row halfway
      // through the restore: PostgreSQL rolls the transaction back, MariaDB puts the before-restore
      // archive back. Either way the panel is as it was.
      await first.services.database.db
        .updateTable('users')
        .set({ first_name: 'x'.repeat(100) })
        .where('id', '=', filled.customer.id)
        .execute();
      const tooLong = await first.services.panelBackup.create('manual');
      const asItWas = await second.services.panelBackup.verify((await second.services.panelBackup.create('manual')).name);
      await expect(move(first, tooLong.name, second)).rejects.toThrow();
      expectSameContent(await second.services.panelBackup.verify((await second.services.panelBackup.create('manual')).name), asItWas);
      await expectRestored(second, filled);
    }

    // and back: over the first panel, changed meanwhile
    await first.services.settings.set('app_name', 'Changed on the first machine');
    const back = await second.services.panelBackup.create('manual');
    const beforeBack = await second.services.panelBackup.verify(back.name);
    await move(second, back.name, first);
    const onFirst = await first.services.panelBackup.verify((await first.services.panelBackup.create('manual')).name);
    expectSameContent(onFirst, beforeBack);
    await expectRestored(first, filled);
  });
});
