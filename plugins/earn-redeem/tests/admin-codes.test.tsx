// @vitest-environment jsdom
// /mc-admin/redeem-codes: the list (paged and searched on the server, state and uses per row, actions
// by permission), create (checked before sending, the server's field errors on the field), edit
// (only what changed; uses never below the redemptions made) and delete.
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

const code = (id: number, extra: Record<string, unknown> = {}) => ({
  id,
  code: `CODE-${String(id).padStart(2, '0')}`,
  coins: 10 * id,
  uses: 5,
  redeemed: 0,
  enabled: true,
  expires_at: null,
  state: 'active',
  created_at: '2026-01-01T12:00:00.000Z',
  updated_at: '2026-01-01T12:00:00.000Z',
  ...extra,
});

function codesPage(call: RecordedHttpCall) {
  const page = Number(call.query.get('page') ?? 1);
  const perPage = Number(call.query.get('per_page') ?? 20);
  const search = (call.query.get('search') ?? '').toLowerCase();
  const all = Array.from({ length: 23 }, (_, i) =>
    code(23 - i, i === 0 ? { code: 'Summer', redeemed: 2, expires_at: '2030-01-01T00:00:00.000Z' } : i === 1 ? { enabled: false, state: 'disabled' } : {}),
  ).filter((c) => c.code.toLowerCase().includes(search));
  return { body: { data: all.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) } } };
}

describe('redeem codes list', () => {
  it('shows each code with its state and uses, pages and searches on the server, and offers edit and delete', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/redeem-codes', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/redeem-codes': codesPage } });
    await app.findByText('Summer');
    expect(app.getByText('2 of 5')).toBeTruthy();
    expect(document.body.textContent).toContain(en.manage.state.disabled);
    expect(app.getByRole('link', 'Edit Summer').getAttribute('href')).toBe('/mc-admin/redeem-codes/23/edit');
    expect(app.getByRole('link', 'Delete Summer').getAttribute('href')).toBe('/mc-admin/redeem-codes/23/delete');
    expect(app.getByRole('link', en.manage.create).getAttribute('href')).toBe('/mc-admin/redeem-codes/create');
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('CODE-03');
    expect(app.httpCalls.at(-1)?.query.get('page')).toBe('2');

    await app.type(app.getByLabelText(en.manage.search), 'summ');
    await app.waitFor(() => expect(app.httpCalls.at(-1)?.query.get('search')).toBe('summ'), { timeout: 3000 });
    await app.waitFor(() => expect(app.queryByText('CODE-03')).toBeNull());
    expect(app.getByText('Summer')).toBeTruthy();
  });

  it('shows neither create, edit nor delete without their permissions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.redeem.codes.list'] },
      http: { 'GET /api/admin/redeem-codes': codesPage },
    });
    await app.findByText('Summer');
    expect(app.queryByRole('link', en.manage.create)).toBeNull();
    expect(app.queryByRole('link', 'Edit Summer')).toBeNull();
    expect(app.queryByRole('link', 'Delete Summer')).toBeNull();
  });

  it('says so when there are none', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/redeem-codes': { body: { data: [], meta: { page: 1, per_page: 20, total: 0, total_pages: 0 } } } },
    });
    await app.findByText(en.manage.empty);
  });
});

describe('redeem code create', () => {
  it('checks the fields before sending', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/redeem-codes/create', catalogues: { en }, session: ROOT, http: {} });
    await app.findByRole('heading', en.manage.titles.create);
    await app.type(app.getByLabelText(en.manage.form.code), 'has space');
    await app.type(app.getByLabelText(en.manage.form.coins), '0');
    await app.type(app.getByLabelText(en.manage.form.uses), '2.5');
    await app.type(app.getByLabelText(en.manage.form.expires), '2001-01-01T10:00');
    await app.click(app.getByRole('button', en.manage.form.create));
    await app.findByText(en.validation.codeFormat);
    expect(document.body.textContent?.split(en.validation.range).length).toBe(3);
    expect(app.getByText(en.validation.future)).toBeTruthy();
    expect(app.getByLabelText(en.manage.form.code).getAttribute('aria-invalid')).toBe('true');
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends every field (the expiry as an instant) and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'POST /api/admin/redeem-codes': (call) => ({ status: 201, body: { code: code(40, call.body as Record<string, unknown>) } }),
        'GET /api/admin/redeem-codes': codesPage,
      },
    });
    await app.findByRole('heading', en.manage.titles.create);
    expect((app.getByLabelText(en.manage.form.uses) as HTMLInputElement).value).toBe('1');
    await app.type(app.getByLabelText(en.manage.form.code), ' Launch-Party ');
    await app.type(app.getByLabelText(en.manage.form.coins), '250');
    await app.type(app.getByLabelText(en.manage.form.uses), '50');
    await app.type(app.getByLabelText(en.manage.form.expires), '2030-06-01T12:30');
    await app.click(app.getByLabelText(en.manage.form.enabled));
    await app.click(app.getByRole('button', en.manage.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/redeem-codes'));
    const post = app.httpCalls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ code: 'Launch-Party', coins: 250, uses: 50, enabled: false, expires_at: new Date('2030-06-01T12:30').toISOString() });
  });

  it("puts the server's duplicate-code error on the code field", async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes/create',
      catalogues: { en },
      session: ROOT,
      http: { 'POST /api/admin/redeem-codes': { status: 409, body: { error: { code: 'REDEEM_CODE_TAKEN', message: 'taken', field: 'code' } } } },
    });
    await app.findByRole('heading', en.manage.titles.create);
    await app.type(app.getByLabelText(en.manage.form.code), 'summer');
    await app.type(app.getByLabelText(en.manage.form.coins), '5');
    await app.click(app.getByRole('button', en.manage.form.create));
    await app.waitFor(() => expect(app.getByLabelText(en.manage.form.code).getAttribute('aria-invalid')).toBe('true'));
    expect(document.body.textContent).toContain(en.errors.REDEEM_CODE_TAKEN);
    expect(app.location().pathname).toBe('/mc-admin/redeem-codes/create');
  });
});

describe('redeem code edit and delete', () => {
  const summer = code(7, { code: 'Summer', coins: 30, uses: 5, redeemed: 3 });

  it('sends only what changed, and refuses uses below the redemptions made', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes/7/edit',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/redeem-codes/7': { body: { code: summer } },
        'PATCH /api/admin/redeem-codes/7': (call) => ({ body: { code: { ...summer, ...(call.body as object), updated_at: '2026-02-01T00:00:00.000Z' } } }),
      },
    });
    await app.findByRole('heading', 'Edit Summer');
    await app.click(app.getByRole('button', en.manage.form.save));
    await app.findByText(en.manage.form.nothingChanged);

    await app.type(app.getByLabelText(en.manage.form.uses), '2');
    await app.click(app.getByRole('button', en.manage.form.save));
    await app.findByText(en.validation.usesBelowRedeemed);
    expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(false);

    await app.type(app.getByLabelText(en.manage.form.uses), '5');
    await app.type(app.getByLabelText(en.manage.form.coins), '45');
    await app.click(app.getByRole('button', en.manage.form.save));
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(true));
    expect(app.httpCalls.find((c) => c.method === 'PATCH')?.body).toEqual({ coins: 45 });
  });

  it('asks, deletes and goes back to the list', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/redeem-codes/7/delete',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/redeem-codes/7': { body: { code: summer } },
        'DELETE /api/admin/redeem-codes/7': { body: { success: true } },
        'GET /api/admin/redeem-codes': codesPage,
      },
    });
    await app.findByText('Delete the code Summer?');
    expect(document.body.textContent).toContain('It was redeemed 3 of 5 times.');
    await app.click(app.getByRole('button', en.manage.deleteConfirm));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/redeem-codes'));
    expect(app.httpCalls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });
});
