// @vitest-environment jsdom
// /mc-admin/redirect-links: the list (paged on the server, actions by permission), create, edit
// (only what changed) and delete; the address checked before sending and the server's field errors
// shown; and every change announced so the app shell reloads its navigation.
import { cleanup, renderPlugin, type RecordedHttpCall, type RenderedPlugin } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
/** the event announcing a change on the bus (the plugin's own navigation section hears it in-bundle) */
const CHANGED = 'redirect-links:changed';

/** how many times the page announced a change */
const announced = (app: RenderedPlugin) => app.events.filter((e) => e.name === CHANGED).length;
afterEach(async () => {
  await cleanup();
});

const link = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Link ${String(id).padStart(2, '0')}`,
  url: `https://example.com/${id}`,
  icon: null,
  order: id,
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  ...extra,
});

function linksPage(call: RecordedHttpCall) {
  const page = Number(call.query.get('page') ?? 1);
  const perPage = Number(call.query.get('per_page') ?? 20);
  const all = Array.from({ length: 23 }, (_, i) => link(i + 1, i === 0 ? { name: 'Discord', url: 'https://discord.gg/x', icon: 'users' } : {}));
  return { body: { data: all.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) } } };
}

describe('redirect links list', () => {
  it('pages on the server, opens each address in a new tab and offers edit and delete', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/redirect-links': linksPage },
    });
    await app.findByText('Discord');
    const address = app.getByRole('link', 'https://discord.gg/x');
    expect(address.getAttribute('target')).toBe('_blank');
    expect(address.getAttribute('rel')).toBe('noopener noreferrer');
    expect(app.getByRole('link', 'Edit Discord').getAttribute('href')).toBe('/mc-admin/redirect-links/1/edit');
    expect(app.getByRole('link', 'Delete Discord').getAttribute('href')).toBe('/mc-admin/redirect-links/1/delete');
    expect(app.getByRole('link', en.redirectLinks.create).getAttribute('href')).toBe('/mc-admin/redirect-links/create');
    expect(app.getByText('1–20 of 23')).toBeTruthy();
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('Link 21');
    expect(app.httpCalls.at(-1)?.query.get('page')).toBe('2');
  });

  it('shows neither create, edit nor delete without their permissions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.redirect.links.list'] },
      http: { 'GET /api/admin/redirect-links': linksPage },
    });
    await app.findByText('Discord');
    expect(app.queryByRole('link', en.redirectLinks.create)).toBeNull();
    expect(app.queryByRole('link', 'Edit Discord')).toBeNull();
    expect(app.queryByRole('link', 'Delete Discord')).toBeNull();
  });

  it('says so when there are none', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/redirect-links': { body: { data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } } } },
    });
    await app.findByText(en.redirectLinks.empty);
  });
});

describe('redirect link create', () => {
  it('checks the fields before sending: an address that is not http(s) is refused', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/redirect-links/create', catalogues: { en }, session: ROOT, http: {} });
    await app.findByRole('heading', en.titles.redirectLinkCreate);
    await app.type(app.getByLabelText(en.redirectLinks.form.url), 'javascript:alert(1)');
    await app.type(app.getByLabelText(en.redirectLinks.form.order), '1.5');
    await app.click(app.getByRole('button', en.redirectLinks.form.create));
    await app.findByText(en.validation.url);
    expect(app.getByText(en.validation.required)).toBeTruthy();
    expect(app.getByText(en.validation.integer)).toBeTruthy();
    expect(app.getByLabelText(en.redirectLinks.form.url).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('creates the link, announces the change and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'POST /api/admin/redirect-links': (call) => ({ status: 201, body: { link: link(30, call.body as Record<string, unknown>) } }),
        'GET /api/admin/redirect-links': linksPage,
      },
    });
    await app.findByRole('heading', en.titles.redirectLinkCreate);
    await app.type(app.getByLabelText(en.redirectLinks.form.name), '  Status page ');
    await app.type(app.getByLabelText(en.redirectLinks.form.url), ' https://status.example.com ');
    await app.type(app.getByLabelText(en.redirectLinks.form.icon), 'chart');
    await app.type(app.getByLabelText(en.redirectLinks.form.order), '-5');
    // the entry as the sidebar will show it
    expect(document.querySelector('[data-testid="redirect-link-preview"]')?.textContent).toBe('Status page');
    await app.click(app.getByRole('button', en.redirectLinks.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/redirect-links'));
    expect(app.httpCalls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Status page', url: 'https://status.example.com', icon: 'chart', order: -5 });
    expect(announced(app)).toBe(1);
  });

  it('shows the server’s error next to the field it names, and announces nothing', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'POST /api/admin/redirect-links': { status: 400, body: { error: { code: 'INVALID_URL', message: 'The address must be an http:// or https:// address.', field: 'url' } } },
      },
    });
    await app.findByRole('heading', en.titles.redirectLinkCreate);
    await app.type(app.getByLabelText(en.redirectLinks.form.name), 'Wiki');
    await app.type(app.getByLabelText(en.redirectLinks.form.url), 'https://wiki.example.com');
    await app.click(app.getByRole('button', en.redirectLinks.form.create));
    await app.findByText(en.errors.INVALID_URL);
    expect(app.getByLabelText(en.redirectLinks.form.url).getAttribute('aria-invalid')).toBe('true');
    expect(app.location().pathname).toBe('/mc-admin/redirect-links/create');
    expect(announced(app)).toBe(0);
  });
});

describe('redirect link edit', () => {
  it('sends only what changed, and says when nothing did', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links/4/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/redirect-links/4': { body: { link: link(4, { name: 'Wiki', icon: 'link' }) } },
        'PATCH /api/admin/redirect-links/4': (call) => ({
          body: { link: link(4, { name: 'Wiki', icon: 'link', ...(call.body as object), updated_at: '2026-02-01T00:00:00.000Z' }) },
        }),
      },
    });
    await app.findByRole('heading', 'Edit Wiki');
    await app.click(app.getByRole('button', en.common.save));
    await app.findByText(en.userEdit.nothingChanged);
    expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(false);

    await app.type(app.getByLabelText(en.redirectLinks.form.url), 'https://docs.example.com/wiki');
    await app.type(app.getByLabelText(en.redirectLinks.form.icon), '');
    await app.click(app.getByRole('button', en.common.save));
    await app.waitFor(() => expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ url: 'https://docs.example.com/wiki', icon: null }));
    await app.waitFor(() => expect(announced(app)).toBe(1));
    expect((app.getByLabelText(en.redirectLinks.form.url) as HTMLInputElement).value).toBe('https://docs.example.com/wiki');
  });

  it('shows the server’s message with a retry when the link cannot be loaded', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links/99/edit',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/redirect-links/99': { status: 404, body: { error: { code: 'REDIRECT_LINK_NOT_FOUND', message: 'There is no such redirect link.' } } } },
    });
    await app.findByText(en.errors.REDIRECT_LINK_NOT_FOUND);
    expect(app.getByRole('button', 'Try again')).toBeTruthy();
  });
});

describe('redirect link delete', () => {
  it('deletes after the confirmation, announces it and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redirect-links/1/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/redirect-links/1': { body: { link: link(1, { name: 'Discord', url: 'https://discord.gg/x' }) } },
        'DELETE /api/admin/redirect-links/1': { body: { success: true } },
        'GET /api/admin/redirect-links': linksPage,
      },
    });
    await app.findByText('Delete the link Discord?');
    expect(app.getByText('https://discord.gg/x')).toBeTruthy();
    await app.click(app.getByRole('button', en.redirectLinks.delete.confirm));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/redirect-links'));
    expect(app.httpCalls.some((c) => c.method === 'DELETE' && c.path === '/api/admin/redirect-links/1')).toBe(true);
    expect(announced(app)).toBe(1);
  });
});
