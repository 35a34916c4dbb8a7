// @vitest-environment jsdom
// /mc-admin/mail-templates: what each screen shows from the server's answers and what it sends.
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

const summary = (id: number, name: string, isProtected: boolean) => ({
  id,
  name,
  description: `${name} mail`,
  subject: `Subject ${id}`,
  protected: isProtected,
  updated_at: '2026-01-01T12:00:00.000Z',
});

function templatesPage(call: RecordedHttpCall) {
  const page = Number(call.query.get('page') ?? 1);
  const perPage = Number(call.query.get('per_page') ?? 20);
  const all = [summary(1, 'verify', true), ...Array.from({ length: 24 }, (_, i) => summary(i + 2, `custom_${String(i + 1).padStart(2, '0')}`, false))];
  return { body: { data: all.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) } } };
}

const fullTemplate = (extra: Record<string, unknown> = {}) => ({
  ...summary(5, 'promo', false),
  html: '<p>Hi ${first_name}</p><script>parent.alert(1)</script>',
  text: 'Hi ${first_name} ${link}',
  placeholders: ['first_name', 'link'],
  created_at: '2026-01-01T10:00:00.000Z',
  ...extra,
});

const previewReply = (call: RecordedHttpCall) => {
  const body = call.body as { html?: string; subject?: string };
  return {
    body: {
      subject: body.subject ?? 'Subject 5',
      html: (body.html ?? '<p>Hi ${first_name}</p><script>parent.alert(1)</script>').replace('${first_name}', 'Ada'),
      text: 'Hi Ada',
      placeholders: { first_name: 'Ada', link: 'https://panel.example.com/x' },
    },
  };
};

describe('mail templates list', () => {
  it('pages on the server, marks protected templates and offers no delete for them', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/mail-templates': templatesPage },
    });
    await app.findByText('verify');
    expect(app.getByText(en.mailTemplates.protected)).toBeTruthy();
    expect(app.getByRole('link', 'Edit verify')).toBeTruthy();
    expect(app.queryByRole('link', 'Delete verify')).toBeNull();
    expect(app.getByRole('link', 'Delete custom_01').getAttribute('href')).toBe('/mc-admin/mail-templates/2/delete');
    expect(app.getByText('1–20 of 25')).toBeTruthy();
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('custom_20');
    expect(app.httpCalls.at(-1)?.query.get('page')).toBe('2');
  });

  it('shows neither create, edit nor delete without their permissions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.mail.templates.list'] },
      http: { 'GET /api/admin/mail-templates': templatesPage },
    });
    await app.findByText('verify');
    expect(app.queryByRole('link', en.mailTemplates.create)).toBeNull();
    expect(app.queryByRole('link', 'Edit custom_01')).toBeNull();
    expect(app.queryByRole('link', 'Delete custom_01')).toBeNull();
  });
});

describe('mail template edit', () => {
  it('previews inside a sandboxed iframe only, and previews unsaved edits when asked', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/5/edit',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/mail-templates/5': { body: { template: fullTemplate() } }, 'POST /api/admin/mail-templates/5/preview': previewReply },
    });
    const frame = await app.waitFor(() => {
      const found = document.querySelector<HTMLIFrameElement>(`iframe[title="${en.mailTemplates.preview.frame}"]`);
      expect(found).toBeTruthy();
      return found!;
    });
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('<p>Hi Ada</p>');
    // the mail's markup never reaches the page itself
    expect(app.container.querySelector('script')).toBeNull();
    expect(document.querySelectorAll('script').length).toBe(0);
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({});
    // the placeholders used, and the sample values
    expect(app.getByRole('list', en.mailTemplates.form.placeholders).textContent).toBe('${first_name}${link}');
    expect(app.getByText('https://panel.example.com/x')).toBeTruthy();

    await app.type(app.getByLabelText(en.mailTemplates.form.html), '<h1>Hello ${first_name}</h1>');
    await app.click(app.getByRole('button', en.mailTemplates.preview.refresh));
    await app.waitFor(() => expect(frame.getAttribute('srcdoc')).toBe('<h1>Hello Ada</h1>'));
    expect(app.httpCalls.filter((c) => c.method === 'POST').at(-1)?.body).toEqual({ subject: 'Subject 5', html: '<h1>Hello ${first_name}</h1>', text: 'Hi ${first_name} ${link}' });
    expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('sends only what changed and shows the server’s field error', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/5/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/mail-templates/5': { body: { template: fullTemplate() } },
        'POST /api/admin/mail-templates/5/preview': previewReply,
        'PATCH /api/admin/mail-templates/5': (call) => {
          const body = call.body as Record<string, string>;
          if (body.name === 'welcome')
            return { status: 409, body: { error: { code: 'MAIL_TEMPLATE_NAME_TAKEN', message: 'A mail template with this name already exists.', field: 'name' } } };
          return { body: { template: fullTemplate({ ...body, updated_at: '2026-02-01T00:00:00.000Z' }) } };
        },
      },
    });
    await app.findByRole('heading', 'Edit promo');
    await app.type(app.getByLabelText(en.mailTemplates.form.name), 'welcome');
    await app.type(app.getByLabelText(en.mailTemplates.form.subject), 'New subject');
    await app.click(app.getByRole('button', en.common.save));
    await app.findByText('A mail template with this name already exists.');
    expect(app.getByLabelText(en.mailTemplates.form.name).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ name: 'welcome', subject: 'New subject' });

    await app.type(app.getByLabelText(en.mailTemplates.form.name), 'promo_2026');
    await app.click(app.getByRole('button', en.common.save));
    await app.findByRole('heading', 'Edit promo_2026');
  });

  it('checks the fields before sending', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/5/edit',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/mail-templates/5': { body: { template: fullTemplate() } }, 'POST /api/admin/mail-templates/5/preview': previewReply },
    });
    await app.findByRole('heading', 'Edit promo');
    await app.type(app.getByLabelText(en.mailTemplates.form.name), 'Bad Name');
    await app.type(app.getByLabelText(en.mailTemplates.form.html), '   ');
    await app.click(app.getByRole('button', en.common.save));
    await app.findByText(en.validation.templateName);
    expect(app.getByText(en.validation.required)).toBeTruthy();
    expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('keeps a protected template’s name and never sends it', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/5/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/mail-templates/5': { body: { template: fullTemplate({ name: 'verify', protected: true }) } },
        'POST /api/admin/mail-templates/5/preview': previewReply,
        'PATCH /api/admin/mail-templates/5': (call) => ({
          body: { template: fullTemplate({ name: 'verify', protected: true, ...(call.body as object), updated_at: '2026-02-01T00:00:00.000Z' }) },
        }),
      },
    });
    await app.findByRole('heading', 'Edit verify');
    const name = app.getByLabelText(en.mailTemplates.form.name) as HTMLInputElement;
    expect(name.readOnly).toBe(true);
    expect(app.getByText(en.mailTemplates.form.nameProtected)).toBeTruthy();
    expect(app.queryByRole('link', en.common.delete)).toBeNull();
    await app.type(app.getByLabelText(en.mailTemplates.form.description), 'Sent on sign-up');
    await app.click(app.getByRole('button', en.common.save));
    await app.waitFor(() => expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ description: 'Sent on sign-up' }));
  });
});

describe('mail template create', () => {
  it('creates and goes on to the edit screen', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'POST /api/admin/mail-templates': (call) => ({ status: 201, body: { template: fullTemplate({ ...(call.body as object), id: 9 }) } }),
        'GET /api/admin/mail-templates/9': { body: { template: fullTemplate({ id: 9, name: 'promo' }) } },
        'POST /api/admin/mail-templates/9/preview': previewReply,
      },
    });
    await app.findByRole('heading', en.titles.mailTemplateCreate);
    await app.type(app.getByLabelText(en.mailTemplates.form.name), 'promo');
    await app.type(app.getByLabelText(en.mailTemplates.form.subject), '  Spring sale  ');
    await app.type(app.getByLabelText(en.mailTemplates.form.html), '<p>${first_name}</p>');
    await app.click(app.getByRole('button', en.mailTemplates.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/mail-templates/9/edit'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'promo', description: '', subject: 'Spring sale', html: '<p>${first_name}</p>', text: '' });
  });
});

describe('mail template delete', () => {
  it('says why a protected template cannot be deleted, and offers no confirmation', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/1/delete',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/mail-templates/1': { body: { template: fullTemplate({ id: 1, name: 'verify', protected: true }) } } },
    });
    await app.findByText('verify cannot be deleted');
    expect(app.container.textContent).toContain(en.mailTemplates.delete.protected);
    expect(app.queryByRole('button', en.mailTemplates.delete.confirm)).toBeNull();
  });

  it('deletes after the confirmation and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/mail-templates/5/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/mail-templates/5': { body: { template: fullTemplate() } },
        'DELETE /api/admin/mail-templates/5': { body: { success: true } },
        'GET /api/admin/mail-templates': templatesPage,
      },
    });
    await app.findByText('Delete the template promo?');
    await app.click(await app.findByRole('button', en.mailTemplates.delete.confirm));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/mail-templates'));
    expect(app.httpCalls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/mail-templates/5')).toBe(true);
  });
});
