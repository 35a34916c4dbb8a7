// GET /api/admin/health (issue 3, /mc-admin/health): the database with its latency, the rate-limit
// store, mail (on or off, the queue's pending and failed mails) and each scheduled job's last run —
// measured on each request, a broken part reported as not ok rather than as a 500 — and (issue 17)
// the instances serving the database and which of them ran each job last.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { secondInstance, servicesOf, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

/** the store the panel keeps rate limits in (Redis or memory), as the harness takes it */
type RateLimitStore = NonNullable<NonNullable<Parameters<typeof startPanel>[1]>['rateLimitStore']>;

interface Health {
  database: { dialect: string; ok: boolean; latency_ms: number | null };
  cache: { kind: 'redis' | 'memory'; ok: boolean };
  mail: { enabled: boolean; queue: { pending: number; failed: number } | null };
  jobs: { name: string; last_run_at: string | null; ok: boolean | null; message: string | null; instance: string | null; duration_ms: number | null }[];
  instances: { id: string; host: string; version: string; started_at: string; heartbeat_at: string; stopped_at: string | null; alive: boolean; self: boolean }[];
}

async function health(panel: TestPanel, who: SignedInUser): Promise<Health> {
  const response = await panel.app.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: who.cookie } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.json<Health>();
}

describe.each(testDialects())('admin health on %s', (dialect) => {
  let panel: TestPanel;
  let admin: SignedInUser;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('reports the database, the in-process store, mail off and the jobs not run yet', async () => {
    const answer = await health(panel, admin);
    expect(answer.database).toMatchObject({ dialect, ok: true });
    expect(typeof answer.database.latency_ms).toBe('number');
    expect(answer.database.latency_ms).toBeGreaterThanOrEqual(0);
    expect(answer.cache).toEqual({ kind: 'memory', ok: true });
    expect(answer.mail).toEqual({ enabled: false, queue: { pending: 0, failed: 0 } });
    expect(answer.jobs).toContainEqual({ name: 'mail.queue', last_run_at: null, ok: null, message: null, instance: null, duration_ms: null });
  });

  it('lists the instances and says which one ran each job last', async () => {
    const other = await secondInstance(panel, { jobs: false });
    try {
      const otherId = servicesOf(other).instances.id;
      const ownId = panel.services.instances.id;
      expect(otherId).not.toBe(ownId);
      const listed = (await health(panel, admin)).instances;
      expect(listed.find((i) => i.id === ownId)).toMatchObject({ alive: true, self: true, stopped_at: null });
      expect(listed.find((i) => i.id === otherId)).toMatchObject({ alive: true, self: false, stopped_at: null });
      // the job ran on the other instance: this one's page names it
      await servicesOf(other).scheduler.runNow('mail.queue');
      const job = (await health(panel, admin)).jobs.find((j) => j.name === 'mail.queue');
      expect(job).toMatchObject({ instance: otherId, ok: true });
      expect(job?.duration_ms).toBeGreaterThanOrEqual(0);
    } finally {
      await other.close();
    }
    // a stopped instance is listed as such, no longer alive
    const gone = (await health(panel, admin)).instances.find((i) => i.self === false && i.stopped_at !== null);
    expect(gone).toMatchObject({ alive: false });
  });

  it('counts pending and failed mails, says when mail is on and shows a job’s last run', async () => {
    const { mailer, settings, scheduler, database } = panel.services;
    const mail = { template: 'welcome', subject: 'Hi', html: '<p>Hi</p>', text: 'Hi' };
    await mailer.queue.enqueue({ ...mail, to: 'a@example.com' });
    await mailer.queue.enqueue({ ...mail, to: 'b@example.com' });
    await mailer.queue.enqueue({ ...mail, to: 'c@example.com' });
    await database.db.updateTable('mail_queue').set({ status: 'failed' }).where('to_address', '=', 'c@example.com').execute();
    // the job runs with mail off: it records that, and leaves the queue alone
    await scheduler.runNow('mail.queue');
    await settings.set('smtp_host', 'smtp.example.com');
    await settings.set('app_url', 'https://panel.example.com');
    try {
      const answer = await health(panel, admin);
      expect(answer.mail).toEqual({ enabled: true, queue: { pending: 2, failed: 1 } });
      const job = answer.jobs.find((j) => j.name === 'mail.queue');
      expect(job).toMatchObject({ ok: true, message: 'mail is off (no smtp_host)' });
      expect(Number.isNaN(Date.parse(job?.last_run_at ?? ''))).toBe(false);
    } finally {
      await settings.set('smtp_host', '');
      await database.db.deleteFrom('mail_queue').execute();
    }
  });

  it('answers 404 at once while the plugin is switched off, and again when it is back', async () => {
    const toggle = (action: 'disable' | 'enable') => panel.app.inject({ method: 'POST', url: `/api/admin/plugins/admin-health/${action}`, headers: { cookie: admin.cookie } });
    expect((await toggle('disable')).statusCode).toBe(200);
    try {
      const off = await panel.app.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: admin.cookie } });
      expect(off.statusCode).toBe(404);
    } finally {
      expect((await toggle('enable')).statusCode).toBe(200);
    }
    expect((await health(panel, admin)).database.ok).toBe(true);
  });

  it('is refused without admin.health.view', async () => {
    const user = await userWithRole(panel, 1);
    const response = await panel.app.inject({ method: 'GET', url: '/api/admin/health', headers: { cookie: user.cookie } });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ error: { code: expect.any(String) } });
  });
});

describe('admin health with a store that does not answer', () => {
  let panel: TestPanel;
  afterAll(async () => {
    await panel?.close();
  });

  it('reports the cache as not ok instead of failing', async () => {
    const lost = () => Promise.reject(new Error('connection lost'));
    const store: RateLimitStore = { kind: 'redis', hit: lost, ping: lost, close: async () => undefined };
    panel = await startPanel(testDialects()[0], { jobs: false, rateLimitStore: store });
    const admin = await userWithRole(panel, 8);
    const answer = await health(panel, admin);
    expect(answer.cache).toEqual({ kind: 'redis', ok: false });
    expect(answer.database.ok).toBe(true);
  });
});
