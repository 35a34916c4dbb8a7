// The backups screen's API on every dialect: who may do what (list, create, delete; download needs
// create; restore only admin.root), names that are not archives refused before anything is read, one
// archive job at a time across instances (the lease), a job followed to its end, verify, download
// (streamed, audited) and delete; the daily schedule and its retention on the manual clock; and the
// restore: refused without root, with a wrong panel name, password or 2FA code (each a warning in the
// audit log), and a real one — the panel as the archive had it, a before-restore archive beside it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeader, PASSWORD, register, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { totpCode, totpStep } from '../../../tests/fixtures/authenticator-app';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import type { BackupJob, BackupList } from '../shared/wire';

const API = '/api/admin/backups';
const SCHEDULE = 'backups.schedule';
const DAY = 86_400_000;

describe.each(testDialects())('the backups API on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let root: SignedInUser;
  let lister: SignedInUser;
  let operator: SignedInUser;
  let plain: SignedInUser;
  let appName: string;

  const call = (who: SignedInUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: who ? { cookie: who.cookie } : {} });
  const list = async (who: SignedInUser = root): Promise<BackupList> => {
    const res = await call(who, 'GET', API);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  /** follows a job as the page does, until it ends */
  const finished = async (job: BackupJob, who: SignedInUser = root): Promise<BackupJob> => {
    const deadline = Date.now() + 30_000;
    let current = job;
    while (current.state === 'running') {
      if (Date.now() > deadline) throw new Error(`job ${job.id} still running: ${JSON.stringify(current)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const res = await call(who, 'GET', `/api/admin/backup-jobs/${job.id}`);
      expect(res.statusCode, res.body).toBe(200);
      current = res.json().job;
    }
    return current;
  };
  const createArchive = async (who: SignedInUser = root): Promise<BackupJob> => {
    const res = await call(who, 'POST', API);
    expect(res.statusCode, res.body).toBe(202);
    const job = await finished(res.json().job, who);
    expect(job, JSON.stringify(job)).toMatchObject({ action: 'create', state: 'done', kind: 'manual', error: null });
    return job;
  };
  const audit = (action: string) =>
    panel.services.database.db.selectFrom('audit_log').select(['action', 'details', 'actor_user_id']).where('action', '=', action).orderBy('id', 'desc').execute();

  beforeAll(async () => {
    // the engine stamps archives with the wall clock: the panel's clock starts there and moves by hand
    clock = new ManualClock(Date.now());
    panel = await startPanel(dialect, { jobs: false, clock });
    root = await userWithRole(panel, 8);
    plain = await userWithRole(panel, 1);
    lister = await userWithRole(panel, await roleWith(panel, ['admin.backups.list']));
    operator = await userWithRole(panel, await roleWith(panel, ['admin.backups.list', 'admin.backups.create', 'admin.backups.delete']));
    appName = String(await panel.services.settings.get('app_name'));
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('guards every route: anonymous 401, a customer 403, each permission its own routes', async () => {
    expect((await call(null, 'GET', API)).statusCode).toBe(401);
    expect((await call(plain, 'GET', API)).statusCode).toBe(403);
    expect((await call(plain, 'POST', API)).statusCode).toBe(403);
    expect((await call(lister, 'GET', API)).statusCode).toBe(200);
    expect((await call(lister, 'GET', '/api/admin/backup-jobs/current')).statusCode).toBe(200);
    // listing is not making, downloading or removing
    expect((await call(lister, 'POST', API)).statusCode).toBe(403);
    expect((await call(lister, 'GET', `${API}/orepanel-20200101-000000-manual.opbk/download`)).statusCode).toBe(403);
    expect((await call(lister, 'DELETE', `${API}/orepanel-20200101-000000-manual.opbk`)).statusCode).toBe(403);
    // a restore is for admin.root alone, whatever backups permissions a role holds
    const restore = await call(operator, 'POST', `${API}/orepanel-20200101-000000-manual.opbk/restore`, { panel_name: appName, password: PASSWORD });
    expect(restore.statusCode).toBe(403);
  });

  it('refuses names that are not archives before reading anything, and answers 404 for an unknown one', async () => {
    for (const bad of [
      '..',
      '.orepanel-20260101-000000-manual.opbk',
      'orepanel-20260101-000000-manual.opbk%2F..',
      '..%2Forepanel-20260101-000000-manual.opbk',
      'orepanel-20260101-000000-manual.zip',
      'orepanel-20260101-000000-other.opbk',
      'x.opbk',
    ]) {
      for (const [method, url] of [
        ['GET', `${API}/${bad}/download`],
        ['DELETE', `${API}/${bad}`],
        ['POST', `${API}/${bad}/verify`],
      ] as const) {
        const res = await call(root, method, url);
        expect([400, 404], `${method} ${url}: ${res.body}`).toContain(res.statusCode);
        if (res.statusCode === 400) expect(res.json().error.code).toBe('VALIDATION_ERROR');
      }
    }
    for (const [method, url] of [
      ['GET', `${API}/orepanel-20200101-000000-manual.opbk/download`],
      ['DELETE', `${API}/orepanel-20200101-000000-manual.opbk`],
      ['POST', `${API}/orepanel-20200101-000000-manual.opbk/verify`],
    ] as const) {
      const res = await call(root, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error.code).toBe('BACKUP_NOT_FOUND');
    }
    expect((await call(root, 'GET', '/api/admin/backup-jobs/not-a-job')).statusCode).toBe(400);
    const unknownJob = await call(root, 'GET', '/api/admin/backup-jobs/00000000-0000-4000-8000-000000000000');
    expect(unknownJob.statusCode).toBe(404);
    expect(unknownJob.json().error.code).toBe('BACKUP_JOB_NOT_FOUND');
  });

  it('makes an archive as a job the page follows, and lists it', async () => {
    const before = await list();
    expect(before.data).toEqual([]);
    const job = await createArchive(operator);
    expect(job.name).toMatch(/\.opbk$/);
    expect(job.started_by).toBe(operator.username);
    const after = await list(lister);
    expect(after.data).toEqual([expect.objectContaining({ name: job.name, kind: 'manual', where: 'local', panel_version: expect.any(String) })]);
    expect(after.data[0].size).toBeGreaterThan(0);
    // the page finds the last job on arrival
    expect((await call(lister, 'GET', '/api/admin/backup-jobs/current')).json().job).toMatchObject({ id: job.id, state: 'done' });
    expect((await audit('admin.backup.create')).length).toBeGreaterThan(0);
    // no off-site store is set up: nothing to say about off-site copies
    expect(before.remote).toBe('off');
  });

  it('runs one archive job at a time: another instance holding the lease, or a job under way, means 409', async () => {
    // another instance's job: the plugin's lease, held by someone else
    expect(await panel.services.leases.acquire('backups:archive', 'another-instance', 60_000, false)).toBe(true);
    try {
      const res = await call(root, 'POST', API);
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().error.code).toBe('BACKUP_JOB_RUNNING');
      const name = (await list()).data[0].name;
      expect((await call(root, 'POST', `${API}/${name}/verify`)).statusCode).toBe(409);
    } finally {
      await panel.services.leases.release('backups:archive', 'another-instance');
    }
    // two clicks at once: one job, one refusal
    const [first, second] = await Promise.all([call(root, 'POST', API), call(root, 'POST', API)]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([202, 409]);
    await finished((first.statusCode === 202 ? first : second).json().job);
  });

  it('verifies an archive as a job: every checksum, and what it holds', async () => {
    const { name } = (await list()).data[0];
    const res = await call(lister, 'POST', `${API}/${name}/verify`);
    expect(res.statusCode, res.body).toBe(202);
    const job = await finished(res.json().job, lister);
    expect(job).toMatchObject({ action: 'verify', state: 'done', name, error: null });
    expect(job.summary).toMatchObject({ dialect, tables: expect.any(Number), rows: expect.any(Number) });
    expect(job.summary!.tables).toBeGreaterThan(5);
    expect(job.summary!.rows).toBeGreaterThan(3);
  });

  it('streams a download as an attachment of the archive’s size, and audits it', async () => {
    const [row] = (await list()).data;
    const res = await call(operator, 'GET', `${API}/${row.name}/download`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${row.name}"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.rawPayload.length).toBe(row.size);
    const [entry] = await audit('admin.backup.download');
    expect(JSON.parse(entry.details)).toMatchObject({ archive: row.name, size: row.size });
  });

  it('deletes an archive (delete permission), then answers 404 for it', async () => {
    const job = await createArchive();
    const removed: { name: string; reason: string }[] = [];
    const off = panel.services.events.on('test', 'backup.deleted', (payload) => void removed.push(payload));
    try {
      const res = await call(operator, 'DELETE', `${API}/${job.name}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true });
    } finally {
      off();
    }
    expect(removed).toEqual([{ name: job.name, reason: 'admin' }]);
    expect((await list()).data.map((row) => row.name)).not.toContain(job.name);
    expect((await call(operator, 'DELETE', `${API}/${job.name}`)).statusCode).toBe(404);
    expect((await call(operator, 'GET', `${API}/${job.name}/download`)).statusCode).toBe(404);
    expect((await audit('admin.backup.delete'))[0].details).toContain(job.name!);
  });

  describe('the daily schedule', () => {
    const scheduled = async () => (await list()).data.filter((row) => row.kind === 'scheduled');
    const runSchedule = () => panel.services.scheduler.runNow(SCHEDULE);
    const status = () => panel.services.scheduler.statuses().find((job) => job.name === SCHEDULE)!;

    it('is on the health page, makes nothing while switched off, and tells so', async () => {
      expect(status()).toBeDefined();
      await panel.services.settings.set('backup_schedule_enabled', false);
      await runSchedule();
      expect(status()).toMatchObject({ lastOk: true, lastMessage: expect.stringContaining('switched off') });
      expect(await scheduled()).toEqual([]);
      await panel.services.settings.set('backup_schedule_enabled', true);
    });

    it('makes one archive per daily slot, announces it, and removes what the retention no longer keeps', async () => {
      // the rule itself (days, ISO weeks, before-restore, manual) is tested on made-up folders in
      // retention.test.ts; here: the job on the panel's clock, the engine, the events
      await panel.services.settings.set('backup_keep_daily', 1);
      await panel.services.settings.set('backup_keep_weekly', 0);
      const created: { name: string; kind: string }[] = [];
      const deleted: { name: string; reason: string }[] = [];
      const offCreated = panel.services.events.on('test', 'backup.created', (payload) => void created.push(payload));
      const offDeleted = panel.services.events.on('test', 'backup.deleted', (payload) => void deleted.push(payload));
      const manual = (await list()).data.filter((row) => row.kind === 'manual').map((row) => row.name);
      try {
        await runSchedule();
        expect(status().lastOk, status().lastMessage ?? '').toBe(true);
        const [first] = await scheduled();
        expect(first).toBeDefined();
        // the same slot again: nothing new
        await runSchedule();
        expect((await scheduled()).map((row) => row.name)).toEqual([first.name]);
        expect(status().lastMessage).toMatch(/next one is due/);
        // a day later the next slot has come: a new archive, and the retention (one day kept) removes the first
        clock.advance(DAY);
        await runSchedule();
        expect(status().lastOk, status().lastMessage ?? '').toBe(true);
        const kept = await scheduled();
        expect(kept).toHaveLength(1);
        expect(kept[0].name).not.toBe(first.name);
        expect(created.filter((event) => event.kind === 'scheduled').map((event) => event.name)).toEqual([first.name, kept[0].name]);
        expect(deleted).toEqual([{ name: first.name, reason: 'retention' }]);
      } finally {
        offCreated();
        offDeleted();
      }
      // archives made by hand stay, whatever the retention says
      expect((await list()).data.filter((row) => row.kind === 'manual').map((row) => row.name)).toEqual(manual);
      expect(manual.length).toBeGreaterThan(0);
    });
  });

  describe('restore', () => {
    const restore = (who: SignedInUser, name: string, body: Record<string, unknown>) => call(who, 'POST', `${API}/${name}/restore`, body);

    it('is refused with a wrong panel name or password, each a warning in the audit log', async () => {
      const { name } = (await list()).data[0];
      let res = await restore(root, name, { panel_name: `${appName} `, password: PASSWORD });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'PANEL_NAME_MISMATCH', field: 'panel_name' });
      res = await restore(root, name, { panel_name: appName.toLowerCase() === appName ? appName.toUpperCase() : appName.toLowerCase(), password: PASSWORD });
      expect(res.json().error.code).toBe('PANEL_NAME_MISMATCH');
      res = await restore(root, name, { panel_name: appName, password: 'not the password' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'WRONG_PASSWORD', field: 'password' });
      // missing fields and unknown ones are refused by the schema
      expect((await restore(root, name, { panel_name: appName })).statusCode).toBe(400);
      expect((await restore(root, name, { panel_name: appName, password: PASSWORD, force: true })).statusCode).toBe(400);
      const refusals = await audit('admin.backup.restore_refused');
      expect(refusals.map((entry) => JSON.parse(entry.details).reason)).toEqual(['password', 'panel_name', 'panel_name']);
      // a dry run with everything right restores nothing and says what the archive holds
      res = await restore(root, name, { panel_name: appName, password: PASSWORD, dry_run: true });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ dry_run: true, summary: { panel_version: expect.any(String) } });
      res = await restore(root, 'orepanel-20200101-000000-manual.opbk', { panel_name: appName, password: PASSWORD, dry_run: true });
      expect(res.statusCode).toBe(404);
    });

    it('asks a root administrator with two-factor authentication for a fresh code as well', async () => {
      const account = await register(panel.app);
      const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: account.cookie } });
      const { secret } = setup.json() as { secret: string };
      const confirmed = await panel.app.inject({
        method: 'POST',
        url: '/api/user/auth/2fa/setup',
        payload: { code: totpCode(secret, totpStep() - 1) },
        headers: { cookie: account.cookie },
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const db = panel.services.database.db;
      await db.updateTable('users').set({ role_id: 8 }).where('username', '=', account.body.username).execute();
      const admin = {
        ...(await db.selectFrom('users').select(['id', 'uuid', 'username', 'email']).where('username', '=', account.body.username).executeTakeFirstOrThrow()),
        cookie: cookieHeader(confirmed),
      };
      const { name } = (await list()).data[0];

      let res = await restore(admin, name, { panel_name: appName, password: PASSWORD, dry_run: true });
      expect(res.json().error).toMatchObject({ code: 'TWO_FA_CODE_REQUIRED', field: 'code' });
      res = await restore(admin, name, { panel_name: appName, password: PASSWORD, code: '000000', dry_run: true });
      expect(res.json().error).toMatchObject({ code: 'TWO_FA_INVALID_CODE', field: 'code' });
      // a right code with a wrong password: refused, and the code is not used up
      const code = totpCode(secret, totpStep());
      res = await restore(admin, name, { panel_name: appName, password: 'wrong password', code, dry_run: true });
      expect(res.json().error.code).toBe('WRONG_PASSWORD');
      res = await restore(admin, name, { panel_name: appName, password: PASSWORD, code, dry_run: true });
      expect(res.statusCode, res.body).toBe(200);
      // and a code is good once
      res = await restore(admin, name, { panel_name: appName, password: PASSWORD, code, dry_run: true });
      expect(res.json().error.code).toBe('TWO_FA_INVALID_CODE');
    });

    it('puts the panel back as the archive had it, after a before-restore archive, as a job', async () => {
      const archive = await createArchive();
      // made after the archive: gone once it is restored
      const later = await register(panel.app);
      const created: { name: string; kind: string }[] = [];
      const off = panel.services.events.on('test', 'backup.created', (payload) => void created.push(payload));
      let job: BackupJob;
      let reader = root;
      try {
        const res = await restore(root, archive.name!, { panel_name: appName, password: PASSWORD });
        expect(res.statusCode, res.body).toBe(202);
        expect(res.json().job).toMatchObject({ action: 'restore', state: 'running', name: archive.name });
        // the job is known in memory, not in a table the restore replaces: follow it to its end,
        // signing in again if the restore ended the session
        const deadline = Date.now() + 60_000;
        let restoringAnswers = 0;
        job = res.json().job;
        while (job.state === 'running') {
          if (Date.now() > deadline) throw new Error(`restore still running: ${JSON.stringify(job)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
          const current = await call(reader, 'GET', `/api/admin/backup-jobs/${job.id}`);
          if (current.statusCode === 401) {
            // signed out while the accounts are replaced: wait for the outcome the job writes to the
            // audit log once it has ended (asking the database, whose tables may be half there on
            // MariaDB for a moment), then sign in again and read the job
            while (!(await audit('admin.backup.restore').catch(() => [])).some((entry) => entry.details.includes(archive.name!))) {
              if (Date.now() > deadline) throw new Error('the restore wrote no outcome');
              await new Promise((resolve) => setTimeout(resolve, 50));
            }
            const login = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: root.username, password: PASSWORD } });
            expect(login.statusCode, login.body).toBe(200);
            reader = { ...root, cookie: cookieHeader(login) };
            continue;
          }
          // while the tables are replaced the panel is held still: the API answers 503 PANEL_RESTORING at
          // once (never a request meeting half-replaced tables), and the page asks again, as this loop does
          if (current.statusCode === 503) {
            expect(current.json().error.code).toBe('PANEL_RESTORING');
            restoringAnswers++;
            continue;
          }
          expect(current.statusCode, current.body).toBe(200);
          job = current.json().job;
        }
        expect(job, JSON.stringify(job)).toMatchObject({ state: 'done', error: null, name: archive.name, before_restore: expect.stringMatching(/\.opbk$/) });
        expect(restoringAnswers).toBeGreaterThan(0);
        // announced (and audited) just after the job is marked done
        await expect.poll(() => created.find((event) => event.kind === 'before-restore')?.name).toBe(job.before_restore);
      } finally {
        off();
      }
      const users = await panel.services.database.db.selectFrom('users').select('username').execute();
      expect(users.map((u) => u.username)).not.toContain(later.body.username);
      expect(users.map((u) => u.username)).toContain(root.username);
      expect((await list(reader)).data.find((row) => row.name === job.before_restore)).toMatchObject({ kind: 'before-restore', where: 'local' });
      // the archive carried the lease its own job held: the next job is not kept waiting by it
      const next = await call(reader, 'POST', API);
      expect(next.statusCode, next.body).toBe(202);
      await finished(next.json().job, reader);
      const [entry] = await audit('admin.backup.restore');
      expect(JSON.parse(entry.details)).toMatchObject({ archive: archive.name, before_restore: job.before_restore });
    });
  });
});
