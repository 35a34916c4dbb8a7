// "Also send by mail" through a real SMTP server, on every dialect: a published announcement marked
// `mail` reaches its audience's accounts that accept announcement mail (not another role, not one
// that unticked it on /account, not a banned or unverified one) with its title, summary, link and a
// way to stop; a scheduled one mails when its time comes (manual clock); running the job again
// mails nobody twice; a draft or one without `mail` mails nobody.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pluginView, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';
import { deliverQueued, startSmtpServer, useSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../../tests/api/smtp-server';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import type { AnnouncementTables } from '../server/tables';
import { AnnouncementMail } from '../server/announcement-mail';

const ADMIN = '/api/admin/announcements';
const APP_URL = 'https://panel.example.com';
const JOB = 'announcements.mail';
const STAFF_ROLE = 3;
const START = Date.parse('2030-05-01T10:00:00.000Z');

describe.each(testDialects())('announcement mail on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  let clock: ManualClock;
  let root: SignedInUser;
  let reader: SignedInUser;
  let declined: SignedInUser;
  let banned: SignedInUser;
  let unverified: SignedInUser;
  let staff: SignedInUser;

  const db = () => panel.services.database.db;
  const at = (minutes: number) => new Date(clock.now() + minutes * 60_000).toISOString();
  const call = (who: SignedInUser, method: 'POST' | 'PATCH' | 'PUT', url: string, payload: Record<string, unknown>) =>
    panel.app.inject({ method, url, payload, headers: { cookie: who.cookie } });
  async function create(fields: Record<string, unknown>): Promise<number> {
    const res = await call(root, 'POST', ADMIN, { title: 'Maintenance tonight', summary: 'Restart at 22:00.', body: 'Details', severity: 'info', ...fields });
    if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
    return res.json().announcement.id;
  }
  const runJob = () => panel.services.scheduler.runNow(JOB);
  /** Every mail queued since the last call, delivered; exactly `count` were queued. */
  async function mails(count: number): Promise<ReceivedMail[]> {
    const delivered = count === 0 ? [] : await deliverQueued(panel, smtp, count);
    const queued = await db().selectFrom('mail_queue').select(['to_address', 'template']).execute();
    expect(queued, JSON.stringify(queued)).toHaveLength(count);
    await db().deleteFrom('mail_queue').execute();
    return delivered;
  }
  const recipients = (list: ReceivedMail[]) => list.flatMap((m) => m.to).sort();
  const emails = (...who: SignedInUser[]) => who.map((w) => w.email).sort();

  beforeAll(async () => {
    clock = new ManualClock(START);
    panel = await startPanel(dialect, { jobs: false, clock });
    smtp = await startSmtpServer();
    await useSmtpServer(panel.services.settings, smtp);
    await panel.services.settings.set('app_url', APP_URL);
    root = await userWithRole(panel, 8);
    reader = await userWithRole(panel, 1);
    declined = await userWithRole(panel, 1);
    banned = await userWithRole(panel, 1);
    unverified = await userWithRole(panel, 1);
    staff = await userWithRole(panel, STAFF_ROLE);
    await db().updateTable('users').set({ verified: 1 }).execute();
    await db().updateTable('users').set({ verified: 0 }).where('id', '=', unverified.id).execute();
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', banned.id).execute();
    const off = await call(declined, 'PUT', '/api/user/mail-preferences', { preferences: [{ plugin: 'announcements', key: 'announcements', accepts: false }] });
    expect(off.statusCode).toBe(200);
    await db().deleteFrom('mail_queue').execute();
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    // nothing left for the next test: every announcement so far is mailed or never will be
    await db().withTables<AnnouncementTables>().updateTable('announcements').set({ mail: 0 }).execute();
    await db().deleteFrom('mail_queue').execute();
  });

  it('mails a published one to its audience that accepts, verified and not banned, once', async () => {
    const id = await create({ publish_at: at(-1), mail: true });
    await runJob();
    const delivered = await mails(3);
    expect(recipients(delivered)).toEqual(emails(root, reader, staff));
    const mail = delivered.find((m) => m.to.includes(reader.email))!;
    expect(mail.subject).toBe('Maintenance tonight');
    expect(mail.text).toContain('Restart at 22:00.');
    expect(mail.text).toContain(`${APP_URL}/announcements?id=${id}`);
    expect(mail.text).toContain(`${APP_URL}/account`);
    expect(mail.html).toContain(`${APP_URL}/account`);
    // again, and once more: nobody twice
    await runJob();
    await runJob();
    await mails(0);
  });

  it('mails only the chosen roles', async () => {
    await create({ publish_at: at(-1), mail: true, role_ids: [STAFF_ROLE] });
    await runJob();
    expect(recipients(await mails(1))).toEqual(emails(staff));
  });

  it('mails a scheduled one when it goes live, not before', async () => {
    await create({ publish_at: at(30), mail: true, role_ids: [1] });
    await runJob();
    await mails(0);
    clock.advance(31 * 60_000);
    await runJob();
    expect(recipients(await mails(1))).toEqual(emails(reader));
    await runJob();
    await mails(0);
  });

  it('never mails a draft, or one not marked for mail', async () => {
    const draft = await create({ mail: true });
    await create({ publish_at: at(-1) });
    await runJob();
    await mails(0);
    // publishing the draft later sends it then
    expect((await call(root, 'PATCH', `${ADMIN}/${draft}`, { publish_at: at(-1), role_ids: [1] })).statusCode).toBe(200);
    await runJob();
    expect(recipients(await mails(1))).toEqual(emails(reader));
  });

  it('shows the choice to the administrators and takes only a boolean', async () => {
    const res = await call(root, 'POST', ADMIN, { title: 'x', body: 'y', severity: 'info', mail: 'yes' });
    expect(res.statusCode).toBe(400);
    const made = await call(root, 'POST', ADMIN, { title: 'x', body: 'y', severity: 'info', mail: true });
    expect(made.json().announcement.mail).toBe(true);
  });

  it('goes out in batches over several runs, and two runs at once never mail one account twice', async () => {
    const id = await create({ publish_at: at(-1) });
    const sent: string[] = [];
    const ctx = {
      mail: { enabled: async () => true, publicUrl: async () => APP_URL, send: async (m: { to: string }) => (sent.push(m.to), true) },
      mailPreferences: { accepting: async (_key: string, ids: readonly number[]) => [...ids] },
      accounts: { contact: async (userId: number) => ({ email: `u${userId}@example.com`, firstName: 'U' }) },
      clock: clock,
      log: { error: () => undefined },
    } as unknown as ConstructorParameters<typeof AnnouncementMail>[1];
    const tables = pluginView(panel).withTables<AnnouncementTables>();
    await tables.updateTable('announcements').set({ mail: 1 }).where('id', '=', id).execute();
    const mailer = new AnnouncementMail(tables, ctx, 2);
    // four accounts are verified and not banned: root, reader, declined (this stub accepts all), staff
    await Promise.all([mailer.run(), mailer.run()]);
    // two runs at once: each sends only a batch it claimed — the same one (one of them sends nothing)
    // or, when one run reads after the other's claim, the next one; never an account twice
    expect([2, 4]).toContain(sent.length);
    expect(new Set(sent).size).toBe(sent.length);
    await mailer.run();
    expect(sent).toHaveLength(4);
    await mailer.run(); // finds no one left: done
    await mailer.run();
    expect(sent).toHaveLength(4);
    expect(new Set(sent).size).toBe(4);
    expect((await tables.selectFrom('announcements').select('mail_done').where('id', '=', id).executeTakeFirstOrThrow()).mail_done).toBe(1);
  });
});
