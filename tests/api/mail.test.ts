// Mail: templates from the database (seeded), placeholders escaped in HTML, a persistent queue sent
// through a real local SMTP server, retries with exponential backoff, a lease so two instances never
// send one mail (the templates' editor is the mail-templates plugin: plugins/mail-templates/tests).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_RETRY_DELAY_MS, LEASE_MS, MailQueue, MAX_ATTEMPTS, retryDelayMs } from '../../server/mail/mail-queue';
import type { Mailer } from '../../server/mail/mailer';
import { MAIL_SETTINGS, readSmtpSettings } from '../../server/mail/mail-settings';
import { SettingsStore } from '../../server/settings/store';
import { renderTemplate } from '../../server/mail/render';
import { SmtpSender } from '../../server/mail/smtp-transport';
import { startPanel, testDialects, type TestPanel } from './harness';
import { startSmtpServer, useSmtpServer, type TestSmtpServer } from './smtp-server';

const SEEDED = [
  // the announcements plugin's
  'announcement',
  'new_login',
  'reset_password',
  'server_deleted',
  'server_renewal_reminder',
  'server_suspended',
  'ticket_autoclosed',
  'ticket_closed',
  'ticket_created',
  'ticket_customer_replied',
  'ticket_staff_replied',
  'verify',
  'welcome',
];

describe('renderTemplate', () => {
  it('escapes placeholder values in the HTML part only, keeps unknown placeholders and makes the subject one line', () => {
    const out = renderTemplate(
      { subject: 'Hi ${first_name}', html: '<p>${first_name} ${unknown}</p><a href="${link}">x</a>', text: '${first_name} ${link}' },
      { first_name: '<b>Eve</b>\r\nBcc: x@y.z', link: 'https://a.example/?a=1&b="2"' },
    );
    expect(out.html).toBe('<p>&lt;b&gt;Eve&lt;/b&gt;\r\nBcc: x@y.z ${unknown}</p><a href="https://a.example/?a=1&amp;b=&quot;2&quot;">x</a>');
    expect(out.text).toBe('<b>Eve</b>\r\nBcc: x@y.z https://a.example/?a=1&b="2"');
    expect(out.subject).toBe('Hi <b>Eve</b> Bcc: x@y.z');
  });

  it('doubles the retry delay after each failed attempt', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([1, 2, 4, 8].map((m) => m * FIRST_RETRY_DELAY_MS));
  });
});

describe.each(testDialects())('mail on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  let mailer: Mailer;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    mailer = panel.services.mailer;
    smtp = await startSmtpServer({ user: 'mailer', pass: 's3cret' });
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });
  afterEach(async () => {
    smtp.mails.length = 0;
    smtp.refuseNext(0);
    await panel.services.database.db.deleteFrom('mail_queue').execute();
  });

  const queueRows = () => panel.services.database.db.selectFrom('mail_queue').selectAll().orderBy('id').execute();

  it('seeds the reference templates', async () => {
    const names = (await panel.services.database.db.selectFrom('mail_templates').select('name').orderBy('name').execute()).map((r) => r.name);
    expect(names).toEqual(SEEDED);
  });

  it('is off without an SMTP host: nothing is queued', async () => {
    await panel.services.settings.set('smtp_host', '');
    expect(await mailer.enabled()).toBe(false);
    expect(await mailer.send({ to: 'a@example.com', template: 'welcome', placeholders: { first_name: 'A' } })).toBe(false);
    expect(await queueRows()).toEqual([]);
  });

  it('queues a rendered mail and sends it through SMTP with the configured login and sender', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    await panel.services.settings.set('app_name', 'Ore & Co');
    expect(await mailer.send({ to: 'eve@example.com', template: 'reset_password', placeholders: { first_name: '<b>Eve</b>', link: 'https://p.example/r?token=abc' } })).toBe(true);
    const [row] = await queueRows();
    expect(row).toMatchObject({ to_address: 'eve@example.com', template: 'reset_password', status: 'pending', attempts: 0, subject: 'Reset your Ore & Co password' });
    expect(smtp.mails).toHaveLength(0);

    expect(await mailer.runQueue()).toBe('sent 1, retried 0, failed 0');
    const [mail] = await smtp.waitForMails(1);
    expect(mail.to).toEqual(['eve@example.com']);
    expect(mail.from).toBe('panel@example.com');
    expect(mail.user).toBe('mailer');
    expect(mail.subject).toBe('Reset your Ore & Co password');
    expect(mail.html).toContain('Hello &lt;b&gt;Eve&lt;/b&gt;,');
    expect(mail.html).toContain('href="https://p.example/r?token=abc"');
    expect(mail.text).toContain('Hello <b>Eve</b>,');
    expect(mail.text).toContain('https://p.example/r?token=abc');
    const [sent] = await queueRows();
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, lease_until: null, last_error: null });
    expect(sent.sent_at).toMatch(/Z$/);
    await panel.services.settings.set('app_name', 'Orepanel');
  });

  it('stores the SMTP password encrypted with SECRET_KEY', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    const row = await panel.services.database.db.selectFrom('settings').select('value').where('key', '=', 'smtp_pass').executeTakeFirstOrThrow();
    expect(row.value).toMatch(/^enc:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
    expect(row.value).not.toContain('s3cret');
    expect(await panel.services.settings.get('smtp_pass')).toBe('s3cret');
    // another key cannot read it: the secret reads as unset rather than as garbage
    const other = new SettingsStore(panel.services.database.db, 'another-secret-key-of-at-least-32-chars');
    other.declare('core', MAIL_SETTINGS);
    expect(await other.get('smtp_pass')).toBe('');
    // a value written before encryption (no prefix) still reads
    await panel.services.database.db.updateTable('settings').set({ value: 'legacy-plain' }).where('key', '=', 'smtp_pass').execute();
    panel.services.settings.invalidate();
    expect(await panel.services.settings.get('smtp_pass')).toBe('legacy-plain');
  });

  it('refuses an unknown template', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    await expect(mailer.send({ to: 'a@example.com', template: 'nope' })).rejects.toThrow(/nope/);
    expect(await queueRows()).toEqual([]);
  });

  it('keeps the templates the panel sends by name, whoever edits the templates (ctx.mail.templates)', async () => {
    const { templates } = mailer;
    const verify = (await panel.services.database.db.selectFrom('mail_templates').select('id').where('name', '=', 'verify').executeTakeFirstOrThrow()).id;
    await expect(templates.delete(verify)).rejects.toMatchObject({ statusCode: 409, code: 'MAIL_TEMPLATE_PROTECTED' });
    await expect(templates.update(verify, { name: 'verify_old' })).rejects.toMatchObject({ statusCode: 409, code: 'MAIL_TEMPLATE_PROTECTED', field: 'name' });
    const own = await templates.create({ name: 'store_test', description: '', subject: 'S', html: '<p>${first_name}</p>', text: '' });
    await expect(templates.create({ name: 'store_test', description: '', subject: 'S', html: 'h', text: '' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'MAIL_TEMPLATE_NAME_TAKEN',
      field: 'name',
    });
    await expect(templates.update(own.id, { name: 'welcome' })).rejects.toMatchObject({ statusCode: 409, code: 'MAIL_TEMPLATE_NAME_TAKEN' });
    expect(await templates.delete(own.id)).toBe(true);
    expect(await templates.delete(own.id)).toBe(false);
    expect(await templates.update(own.id, { subject: 'gone' })).toBeNull();
    // the protected template is whole and still sent
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    expect(await mailer.send({ to: 'kept@example.com', template: 'verify', placeholders: { first_name: 'K' } })).toBe(true);
  });

  it('retries a refused mail with exponential backoff and sends it when it is due', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    await mailer.send({ to: 'retry@example.com', template: 'welcome', placeholders: { first_name: 'R' } });
    smtp.refuseNext(2);
    const t0 = new Date(Date.now() + 1000);
    expect(await mailer.runQueue(t0)).toBe('sent 0, retried 1, failed 0');
    let [row] = await queueRows();
    expect(row).toMatchObject({ status: 'pending', attempts: 1, lease_until: null });
    expect(row.last_error).toMatch(/451|Try again later/);
    expect(row.next_attempt_at).toBe(new Date(t0.getTime() + FIRST_RETRY_DELAY_MS).toISOString());

    // not due yet: nothing is tried
    expect(await mailer.runQueue(new Date(t0.getTime() + FIRST_RETRY_DELAY_MS - 1))).toBe('sent 0, retried 0, failed 0');
    const t1 = new Date(t0.getTime() + FIRST_RETRY_DELAY_MS);
    expect(await mailer.runQueue(t1)).toBe('sent 0, retried 1, failed 0');
    [row] = await queueRows();
    expect(row.next_attempt_at).toBe(new Date(t1.getTime() + 2 * FIRST_RETRY_DELAY_MS).toISOString());
    expect(await mailer.runQueue(new Date(t1.getTime() + 2 * FIRST_RETRY_DELAY_MS))).toBe('sent 1, retried 0, failed 0');
    expect(smtp.mails.map((m) => m.to[0])).toEqual(['retry@example.com']);
    [row] = await queueRows();
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
  });

  it(`gives a mail up as failed after ${MAX_ATTEMPTS} attempts (wrong SMTP password)`, async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 'wrong' });
    await mailer.send({ to: 'never@example.com', template: 'welcome' });
    let now = Date.now() + 1000;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const summary = await mailer.runQueue(new Date(now));
      expect(summary).toBe(attempt < MAX_ATTEMPTS ? 'sent 0, retried 1, failed 0' : 'sent 0, retried 0, failed 1');
      now += retryDelayMs(attempt);
    }
    const [row] = await queueRows();
    expect(row).toMatchObject({ status: 'failed', attempts: MAX_ATTEMPTS });
    expect(row.last_error).toMatch(/auth|Invalid/i);
    expect(await mailer.runQueue(new Date(now + 86_400_000))).toBe('sent 0, retried 0, failed 0');
    expect(smtp.mails).toHaveLength(0);
  });

  it('never sends one mail twice when two instances run the queue at the same time', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    for (let i = 0; i < 12; i++) await mailer.send({ to: `m${i}@example.com`, template: 'welcome' });
    const settings = await readSmtpSettings(panel.services.settings);
    const senders = [new SmtpSender(), new SmtpSender()];
    const instances = senders.map((sender) => new MailQueue(panel.services.database.db, (s, m) => sender.send(s, m)));
    const results = await Promise.all([...instances, mailer.queue].map((q) => q.processDue(settings)));
    senders.forEach((s) => s.close());
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(12);
    await smtp.waitForMails(12);
    const addresses = smtp.mails.map((m) => m.to[0]).sort();
    expect(new Set(addresses).size).toBe(12);
    expect(addresses).toHaveLength(12);
  });

  it('leaves a mail whose lease another instance holds until the lease runs out', async () => {
    await useSmtpServer(panel.services.settings, smtp, { user: 'mailer', pass: 's3cret' });
    await mailer.send({ to: 'leased@example.com', template: 'welcome' });
    const now = Date.now();
    await panel.services.database.db
      .updateTable('mail_queue')
      .set({ lease_until: new Date(now + LEASE_MS).toISOString(), lease_owner: 'another-instance' })
      .execute();
    expect(await mailer.runQueue(new Date(now + 1000))).toBe('sent 0, retried 0, failed 0');
    expect(await mailer.runQueue(new Date(now + LEASE_MS + 1))).toBe('sent 1, retried 0, failed 0');
    expect((await smtp.waitForMails(1))[0].to).toEqual(['leased@example.com']);
  });
});

describe.each(testDialects())('the mail job on %s', (dialect) => {
  let panel: TestPanel;
  let smtp: TestSmtpServer;
  beforeAll(async () => {
    panel = await startPanel(dialect);
    smtp = await startSmtpServer();
  });
  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
  });

  it('sends a queued mail by itself and reports its run', async () => {
    await useSmtpServer(panel.services.settings, smtp);
    await panel.services.mailer.send({ to: 'job@example.com', template: 'welcome', placeholders: { first_name: 'Jo' } });
    const [mail] = await smtp.waitForMails(1);
    expect(mail).toMatchObject({ to: ['job@example.com'], subject: 'Welcome to Orepanel', user: null });
    await expect.poll(() => panel.services.scheduler.statuses().find((j) => j.name === 'mail.queue')?.lastOk).toBe(true);
  });
});
