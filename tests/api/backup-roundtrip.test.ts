// A round trip on each database: a filled panel is backed up, changed, and restored over itself
// while it runs; a fresh archive then holds exactly the tables and files of the first one, the
// ledger is consistent and the accounts sign in (password, then 2FA).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRestored, expectSameContent, fillPanel, wipePanel, type Filled } from './backup-fixture';
import { startPanel, testDialects, type TestPanel } from './harness';

describe.each(testDialects())('backup round trip on %s', (dialect) => {
  let panel: TestPanel;
  let filled: Filled;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    filled = await fillPanel(panel);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('answers the API 503 PANEL_RESTORING while held, and /readyz not ready; as before after', async () => {
    const { app, services } = panel;
    const cookie = filled.customer.cookie;
    const during = await services.hold.during(async () => ({
      session: await app.inject({ url: '/api/user/session', headers: { cookie } }),
      ready: await app.inject({ url: '/readyz' }),
      alive: await app.inject({ url: '/healthz' }),
    }));
    expect(during.session.statusCode).toBe(503);
    expect(during.session.headers['retry-after']).toBe('5');
    expect(during.session.json()).toEqual({ error: { code: 'PANEL_RESTORING', message: 'A backup is being restored: the panel is back in a moment.' } });
    expect(during.ready.statusCode).toBe(503);
    expect(during.ready.json()).toMatchObject({ ready: false, restoring: true });
    expect(during.alive.statusCode).toBe(200);
    const after = await app.inject({ url: '/api/user/session', headers: { cookie } });
    expect(after.statusCode, after.body).toBe(200);
    expect((await app.inject({ url: '/readyz' })).json()).toMatchObject({ ready: true, restoring: false });
  });

  it('restores every table and file, and the panel works as before', async () => {
    const backups = panel.services.panelBackup;
    const made = await backups.create('manual');
    const original = await backups.verify(made.name);
    expect(original.dialect).toBe(dialect);
    await wipePanel(panel, filled);
    expect(await panel.services.settings.get('app_name')).toBe('Wiped');

    const phases: string[] = [];
    // whether the rest of the panel was held still (server/db/database-hold.ts) in each phase
    const held: Record<string, boolean> = {};
    const { manifest, beforeRestore } = await backups.restore(made.name, {
      onProgress: (p) => {
        if (phases.at(-1) !== p.phase) phases.push(p.phase);
        held[p.phase] = panel.services.hold.active;
      },
    });
    expect(manifest).toEqual(original);
    expect(beforeRestore.kind).toBe('before-restore');
    expect(phases).toEqual(['verify', 'before-restore', 'restore', 'migrate', 'done']);
    expect(held).toEqual({ verify: false, 'before-restore': true, restore: true, migrate: true, done: false });
    // the in-process settings copy was read again: no wait for its refresh
    expect(await panel.services.settings.get('app_name')).toBe('Backup Test Panel');

    const again = await backups.verify((await backups.create('manual')).name);
    expectSameContent(again, original);
    await expectRestored(panel, filled);

    // the before-restore archive holds the wiped panel: restoring it brings the wipe back (not
    // repeated on MariaDB, whose schema changes are slow: its restores are covered by the move test)
    if (dialect !== 'mysql') {
      await backups.restore(beforeRestore.name);
      expect(await panel.services.settings.get('app_name')).toBe('Wiped');
    }
  });
});
