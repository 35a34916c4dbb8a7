// The mail-templates plugin: the editor of the mails the panel sends (/api/admin/mail-templates) —
// list, one, create, edit, preview, delete, the panel's own templates protected, bad input refused
// without a change — on every dialect; and the plugin switched off by an administrator: its routes
// answer 404 at once, while the panel's own mails (a password reset) are still sent, since the
// templates and the sending are the core mail transport's; switched back on, the routes return.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

describe.each(testDialects())('the mail template editor on %s', (dialect) => {
  let panel: TestPanel;
  let admin: SignedInUser;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    panel.app.inject({ method, url: `/api/admin/mail-templates${url}`, payload: payload as Record<string, unknown>, headers: { cookie: admin.cookie } });
  const idOf = async (name: string) => (await panel.services.database.db.selectFrom('mail_templates').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
  const snapshot = () => panel.services.database.db.selectFrom('mail_templates').selectAll().orderBy('id').execute();

  it('lists the templates paged and shows one with its placeholders', async () => {
    const page = await api('GET', '?page=1&per_page=5');
    expect(page.statusCode).toBe(200);
    expect(page.json().meta).toEqual({ page: 1, per_page: 5, total: 13, total_pages: 3 });
    expect(page.json().data.map((t: { name: string }) => t.name)).toEqual(['announcement', 'new_login', 'reset_password', 'server_deleted', 'server_renewal_reminder']);
    expect(page.json().data[1]).toMatchObject({ name: 'new_login', protected: true });
    const one = await api('GET', `/${await idOf('verify')}`);
    expect(one.json().template).toMatchObject({ name: 'verify', protected: true, subject: 'Verify your e-mail address for ${app_name}' });
    expect(one.json().template.placeholders).toEqual(expect.arrayContaining(['app_name', 'first_name', 'link', 'app_url']));
    expect((await api('GET', '/999999')).json().error.code).toBe('MAIL_TEMPLATE_NOT_FOUND');
  });

  it('creates, edits, previews and deletes a template, with an audit entry each', async () => {
    const created = await api('POST', '', {
      name: 'promo',
      subject: 'News from ${app_name}',
      html: '<p>Hi ${first_name}</p>',
      text: 'Hi ${first_name}',
      description: 'Promotions',
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().template.id;
    expect(created.json().template).toMatchObject({ name: 'promo', protected: false, placeholders: ['app_name', 'first_name'] });
    expect((await api('POST', '', { name: 'promo', subject: 's', html: 'h' })).json().error).toMatchObject({ code: 'MAIL_TEMPLATE_NAME_TAKEN', field: 'name' });

    const edited = await api('PATCH', `/${id}`, { subject: 'Fresh news', name: 'promo2' });
    expect(edited.json().template).toMatchObject({ name: 'promo2', subject: 'Fresh news' });

    const preview = await api('POST', `/${id}/preview`, { placeholders: { first_name: '<script>x</script>' } });
    expect(preview.statusCode).toBe(200);
    expect(preview.json().html).toBe('<p>Hi &lt;script&gt;x&lt;/script&gt;</p>');
    expect(preview.json().text).toBe('Hi <script>x</script>');
    const unsaved = await api('POST', `/${id}/preview`, { html: '<i>${username}</i>' });
    expect(unsaved.json().html).toBe('<i>ada</i>');

    expect((await api('DELETE', `/${id}`)).json()).toEqual({ success: true });
    expect((await api('GET', `/${id}`)).statusCode).toBe(404);
    const actions = (await panel.services.database.db.selectFrom('audit_log').select('action').where('action', 'like', 'admin.mail_template.%').orderBy('id').execute()).map(
      (r) => r.action,
    );
    expect(actions).toEqual(['admin.mail_template.create', 'admin.mail_template.update', 'admin.mail_template.delete']);
  });

  it('previews a seeded template with sample placeholders', async () => {
    const res = await api('POST', `/${await idOf('reset_password')}/preview`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().subject).toBe('Reset your Orepanel password');
    expect(res.json().html).toContain('Hello Ada,');
    expect(res.json().placeholders).toMatchObject({ first_name: 'Ada', app_name: 'Orepanel' });
  });

  it('protects the seeded templates from renaming and deletion', async () => {
    const id = await idOf('verify');
    expect((await api('DELETE', `/${id}`)).json().error.code).toBe('MAIL_TEMPLATE_PROTECTED');
    const renamed = await api('PATCH', `/${id}`, { name: 'verify2' });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json().error).toMatchObject({ code: 'MAIL_TEMPLATE_PROTECTED', field: 'name' });
    const edited = await api('PATCH', `/${id}`, { subject: 'Please verify' });
    expect(edited.json().template.subject).toBe('Please verify');
  });

  it('answers bad input with a 4xx and changes nothing', async () => {
    const before = await snapshot();
    const id = await idOf('welcome');
    const bad: [string, 'POST' | 'PATCH' | 'GET', string, unknown, string | undefined][] = [
      ['missing html', 'POST', '', { name: 'x', subject: 's' }, 'html'],
      ['bad name', 'POST', '', { name: 'Bad Name', subject: 's', html: 'h' }, 'name'],
      ['blank subject', 'POST', '', { name: 'x2', subject: '   ', html: 'h' }, 'subject'],
      ['empty patch', 'PATCH', `/${id}`, {}, undefined],
      ['html too long', 'PATCH', `/${id}`, { html: 'x'.repeat(100_001) }, 'html'],
      ['bad placeholder name', 'POST', `/${id}/preview`, { placeholders: { 'bad-name': 'x' } }, undefined],
      ['placeholder not text', 'POST', `/${id}/preview`, { placeholders: { a: { b: 1 } } }, undefined],
      ['bad id', 'GET', '/abc', undefined, 'id'],
    ];
    for (const [name, method, url, payload, field] of bad) {
      const res = await api(method, url, payload);
      expect(res.statusCode, name).toBe(400);
      expect(res.json().error.code, name).toBe('VALIDATION_ERROR');
      if (field) expect(res.json().error.field, name).toBe(field);
    }
    expect(await snapshot()).toEqual(before);
  });

  describe('switched off and on again', () => {
    const asAdmin = (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => panel.app.inject({ method, url, payload, headers: { cookie: admin.cookie } });
    const queuedFor = (address: string) => panel.services.database.db.selectFrom('mail_queue').select(['template', 'status']).where('to_address', '=', address).execute();

    it('hides every route of the editor at once, keeps the panel sending its own mails, and brings the routes back', async () => {
      const user = await userWithRole(panel, 1);
      const verify = (await panel.services.database.db.selectFrom('mail_templates').select('id').where('name', '=', 'verify').executeTakeFirstOrThrow()).id;
      // mail is on: an SMTP server (never reached: jobs are off, the mail stays queued) and the public address
      await panel.services.settings.set('smtp_host', 'smtp.example.com');
      await panel.services.settings.set('app_url', 'https://panel.example.com');

      expect((await asAdmin('GET', '/api/admin/mail-templates')).statusCode).toBe(200);
      const off = await asAdmin('POST', '/api/admin/plugins/mail-templates/disable');
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().plugin).toMatchObject({ id: 'mail-templates', enabled: false });
      try {
        // no restart: the very next requests meet a 404, whatever the method
        for (const [method, url, payload] of [
          ['GET', '/api/admin/mail-templates', undefined],
          ['GET', `/api/admin/mail-templates/${verify}`, undefined],
          ['POST', '/api/admin/mail-templates', { name: 'off_switch', subject: 's', html: 'h' }],
          ['POST', `/api/admin/mail-templates/${verify}/preview`, {}],
        ] as const) {
          const res = await asAdmin(method, url, payload);
          expect(res.statusCode, `${method} ${url}`).toBe(404);
        }
        expect(await panel.services.database.db.selectFrom('mail_templates').select('id').where('name', '=', 'off_switch').executeTakeFirst()).toBeUndefined();

        // the core mail transport still renders the seeded template and queues the mail
        const forgot = await panel.app.inject({ method: 'POST', url: '/api/user/auth/forgot', payload: { email: user.email } });
        expect(forgot.statusCode, forgot.body).toBe(200);
        await expect.poll(() => queuedFor(user.email), { timeout: 5_000 }).toEqual([{ template: 'reset_password', status: 'pending' }]);
      } finally {
        const on = await asAdmin('POST', '/api/admin/plugins/mail-templates/enable');
        expect(on.statusCode, on.body).toBe(200);
      }
      const back = await asAdmin('GET', `/api/admin/mail-templates/${verify}`);
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().template).toMatchObject({ name: 'verify', protected: true });
    });
  });
});
