// @vitest-environment jsdom
// The backups page: a job under way on arrival shows its phase and a bar at its share, followed until
// it ends and the list is read again; a list-only role sees no create, download, restore or delete; a
// refusal to start (another job runs) is said in words; an off-site-only archive has no actions and an
// unreachable copy plugin is a note; the restore dialog sends the panel's name, the password and the
// 2FA code, shows a wrong password on its field, and once the job starts follows it.
import { cleanup, renderPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import en from '../locales/en.json';
import manifest from '../plugin.json';
import type { BackupJob, BackupList, BackupRow } from '../shared/wire';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator', two_fa_enabled: true }, permissions: ['admin.root'] };
const NAME = 'orepanel-20261126-154000-manual.opbk';
const row = (extra: Partial<BackupRow> = {}): BackupRow => ({
  name: NAME,
  size: 70_000,
  created_at: '2026-11-26T15:40:00.000Z',
  kind: 'manual',
  where: 'local',
  panel_version: '1.0.0',
  ...extra,
});
const job = (extra: Partial<BackupJob> = {}): BackupJob => ({
  id: '0f0e0d0c-0b0a-4000-8000-000000000001',
  action: 'create',
  state: 'running',
  name: null,
  kind: 'manual',
  phase: 'tables',
  done: 3,
  total: 12,
  started_at: '2026-11-26T15:40:00.000Z',
  finished_at: null,
  started_by: 'ada',
  error: null,
  summary: null,
  before_restore: null,
  ...extra,
});
const listOf = (rows: BackupRow[], remote: BackupList['remote'] = 'off') => ({ body: { data: rows, remote } });

describe('the backups page (/mc-admin/backups)', () => {
  it('shows a job under way with its phase and share, follows it to its end and reads the list again', async () => {
    let lists = 0;
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/backups': () => listOf(++lists === 1 ? [] : [row()]),
        'GET /api/admin/backup-jobs/current': { body: { job: job() } },
        'GET /api/admin/backup-jobs/:id': { body: { job: job({ state: 'done', phase: 'done', name: NAME, finished_at: '2026-11-26T15:40:05.000Z' }) } },
      },
    });
    const bar = await app.findByRole('progressbar', en.phases.tables);
    expect(bar.getAttribute('aria-valuenow')).toBe('25');
    expect(app.getByText(/Copying the tables · 3 of 12/)).toBeTruthy();
    expect((app.getByRole('button', en.list.create) as HTMLButtonElement).disabled).toBe(true);
    await app.findByText(`Backup ${NAME} is ready.`, { timeout: 4000 });
    await app.findByText(NAME);
    expect(lists).toBe(2);
    expect(app.getByRole('link', `Download ${NAME}`).getAttribute('href')).toBe(`/api/admin/backups/${NAME}/download`);
  });

  it('says the panel is held while a restore replaces its tables, and follows the job on to its end', async () => {
    let polls = 0;
    const restoring = job({ action: 'restore', name: NAME, kind: null, phase: 'restore', done: 40, total: 100 });
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/backups': () => listOf([row()]),
        'GET /api/admin/backup-jobs/current': { body: { job: restoring } },
        'GET /api/admin/backup-jobs/:id': () =>
          ++polls === 1
            ? { status: 503, body: { error: { code: 'PANEL_RESTORING', message: 'A backup is being restored: the panel is back in a moment.' } } }
            : {
                body: {
                  job: { ...restoring, state: 'done', phase: 'done', finished_at: '2026-11-26T15:40:05.000Z', before_restore: 'orepanel-20261126-154001-before-restore.opbk' },
                },
              },
      },
    });
    expect(await app.findByText(en.job.restore.held)).toBeTruthy();
    await app.findByText(en.job.restore.beforeRestore.replace('{{name}}', 'orepanel-20261126-154001-before-restore.opbk'), { timeout: 4000 });
    expect(app.queryByText(en.job.restore.held)).toBeNull();
  });

  it('offers a list-only role verify alone, and says where the daily backup will appear', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.backups.list'] },
      http: { 'GET /api/admin/backups': listOf([row()]), 'GET /api/admin/backup-jobs/current': { body: { job: null } } },
    });
    await app.findByText(NAME);
    expect(app.queryByRole('button', en.list.create)).toBeNull();
    expect(app.getByRole('button', `Verify ${NAME}`)).toBeTruthy();
    for (const hidden of [`Download ${NAME}`, `Restore ${NAME}`, `Delete ${NAME}`]) {
      expect(app.queryByRole('link', hidden) ?? app.queryByRole('button', hidden)).toBeNull();
    }
    cleanup();
    const empty = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.backups.list'] },
      http: { 'GET /api/admin/backups': listOf([]), 'GET /api/admin/backup-jobs/current': { body: { job: null } } },
    });
    await empty.findByText(en.list.emptyTextReadOnly);
  });

  it('says in words that another job runs, and shows an off-site-only archive without actions', async () => {
    const remoteOnly = row({ name: 'orepanel-20261101-030000-scheduled.opbk', kind: 'scheduled', where: 'remote', panel_version: null });
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/backups': listOf([row({ where: 'both' }), remoteOnly], 'ok'),
        'GET /api/admin/backup-jobs/current': { body: { job: null } },
        'POST /api/admin/backups': { status: 409, body: { error: { code: 'BACKUP_JOB_RUNNING', message: 'busy' } } },
      },
    });
    await app.findByText(remoteOnly.name);
    expect(app.getByText(en.list.remoteOnly)).toBeTruthy();
    expect(app.queryByRole('button', `Verify ${remoteOnly.name}`)).toBeNull();
    expect(app.getByText(en.places.both)).toBeTruthy();
    await app.click(app.getByRole('button', en.list.create));
    await app.findByText(en.errors.BACKUP_JOB_RUNNING);
  });

  it('notes off-site copies that could not be listed', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/backups': listOf([row()], 'unavailable'), 'GET /api/admin/backup-jobs/current': { body: { job: null } } },
    });
    await app.findByText(en.list.remoteUnavailable);
  });

  it('restores only after the panel’s name, the password and the 2FA code, and follows the job', async () => {
    const sent: unknown[] = [];
    const app = await renderPlugin(plugin, {
      manifest,
      catalogues: { en },
      session: ROOT,
      settings: { app_name: 'Blockhost' },
      http: {
        'GET /api/admin/backups': listOf([row()]),
        'GET /api/admin/backup-jobs/current': { body: { job: null } },
        [`POST /api/admin/backups/${NAME}/restore`]: (call) => {
          sent.push(call.body);
          return sent.length === 1
            ? { status: 400, body: { error: { code: 'WRONG_PASSWORD', message: 'no', field: 'password' } } }
            : { status: 202, body: { job: job({ action: 'restore', name: NAME, phase: 'before-restore', done: 0, total: 0 }) } };
        },
        'GET /api/admin/backup-jobs/:id': { body: { job: job({ action: 'restore', name: NAME, phase: 'restore', done: 0, total: 0 }) } },
      },
    });
    await app.click(await app.findByRole('button', `Restore ${NAME}`));
    const dialog = await app.findByRole('dialog', en.restore.title);
    expect(dialog.textContent).toContain(en.restore.signOut);
    const confirm = app.getByRole('button', en.restore.confirm) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    await app.type(app.getByLabelText("Type the panel's name, Blockhost, to confirm"), 'blockhost');
    expect(confirm.disabled).toBe(true);
    await app.type(app.getByLabelText("Type the panel's name, Blockhost, to confirm"), 'Blockhost');
    expect(confirm.disabled).toBe(false);
    await app.type(app.getByLabelText(en.restore.password), 'wrong');
    await app.type(app.getByLabelText(en.restore.code), ' 123456 ');
    await app.click(confirm);
    await app.findByText(en.errors.WRONG_PASSWORD);
    expect(sent[0]).toEqual({ panel_name: 'Blockhost', password: 'wrong', code: '123456' });
    await app.type(app.getByLabelText(en.restore.password), 'right');
    await app.click(confirm);
    await app.waitFor(() => expect(app.queryByRole('dialog', en.restore.title)).toBeNull());
    await app.findByText(`Restoring ${NAME}…`);
    expect(app.getByText(en.job.restore.wait)).toBeTruthy();
    // a restore's progress has no total: the bar moves without claiming a share
    expect(app.getByRole('progressbar').getAttribute('aria-valuenow')).toBeNull();
  });
});
