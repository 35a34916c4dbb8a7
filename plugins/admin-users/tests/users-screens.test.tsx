// @vitest-environment jsdom
import { cleanup, renderPlugin, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };

function adminUser(n: number, extra: Record<string, unknown> = {}) {
  return {
    uuid: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    username: `user${n}`,
    email: `user${n}@example.com`,
    first_name: 'First',
    last_name: 'Last',
    avatar: null,
    background: null,
    role: 1,
    role_name: 'Default',
    verified: true,
    two_fa_enabled: false,
    banned: false,
    ban_reason: null,
    coins: 250,
    ram: 1024,
    disk: 2048,
    cpu: 100,
    ports: 2,
    databases: 1,
    backups: 5,
    server_slots: 1,
    minutes_afk: 0,
    created_at: '2025-03-01T10:00:00.000Z',
    updated_at: '2025-03-01T10:00:00.000Z',
    ...extra,
  };
}

function usersPage(call: RecordedHttpCall) {
  const page = Number(call.query.get('page') ?? 1);
  const search = call.query.get('search') ?? '';
  const all = Array.from({ length: 45 }, (_, i) => adminUser(i + 1)).filter((u) => u.username.includes(search));
  const perPage = Number(call.query.get('per_page') ?? 20);
  return {
    body: {
      data: all.slice((page - 1) * perPage, page * perPage),
      meta: { page, per_page: perPage, total: all.length, total_pages: Math.ceil(all.length / perPage) },
    },
  };
}

const roles = {
  data: [
    { id: 1, name: 'default', real_name: 'Default', color: '#94a0b8', permissions: [], users: 40, protected: true },
    { id: 4, name: 'support', real_name: 'Support', color: '#34d399', permissions: ['admin.tickets.list'], users: 2, protected: false },
    { id: 8, name: 'administrator', real_name: 'Administrator', color: '#6d7cff', permissions: ['admin.root'], users: 1, protected: true },
  ],
};

const listCalls = (app: { httpCalls: RecordedHttpCall[] }) => app.httpCalls.filter((c) => c.method === 'GET' && c.path === '/api/admin/users');

describe('users list', () => {
  it('pages and searches on the server', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/users', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/users': usersPage } });
    await app.findByText('user1');
    expect(listCalls(app)[0].query.get('page')).toBe('1');
    expect(listCalls(app)[0].query.get('per_page')).toBe('20');
    expect(app.getByText('1–20 of 45')).toBeTruthy();

    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('user21');
    expect(listCalls(app).at(-1)?.query.get('page')).toBe('2');
    expect(app.location().search).toBe('?page=2');

    await app.type(app.getByLabelText(en.users.search), 'user4');
    await app.waitFor(() => expect(listCalls(app).at(-1)?.query.get('search')).toBe('user4'));
    // a new search starts at page 1
    expect(listCalls(app).at(-1)?.query.get('page')).toBe('1');
    await app.findByText('user45');
    expect(app.queryByText('user21')).toBeNull();
  });

  it('shows the empty state for a search without results, and the error with a retry', async () => {
    let fail = true;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/users?search=nobody',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/users': (call) => (fail ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'Boom' } } } : usersPage(call)),
      },
    });
    await app.findByRole('button', 'Try again');
    fail = false;
    await app.click(app.getByRole('button', 'Try again'));
    await app.findByText('Nothing matches your search.');
  });

  it('hides edit and delete without their permissions', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/users',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.users.list'] },
      http: { 'GET /api/admin/users': usersPage },
    });
    await app.findByText('user1');
    expect(app.queryByRole('link', 'Edit user1')).toBeNull();
    expect(app.queryByRole('link', 'Delete user1')).toBeNull();
  });
});

describe('user edit', () => {
  const uuid = adminUser(7).uuid;

  it('sends only what changed, and puts the server’s field error on its field', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${uuid}/edit`,
      catalogues: { en },
      session: ROOT,
      http: {
        [`GET /api/admin/users/${uuid}`]: { body: { user: adminUser(7) } },
        'GET /api/admin/roles': { body: roles },
        [`GET /api/admin/users/${uuid}/activity`]: { body: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } },
        [`PATCH /api/admin/users/${uuid}`]: (call) => {
          const body = call.body as Record<string, unknown>;
          if (body.username === 'taken') return { status: 409, body: { error: { code: 'VALIDATION_ERROR', message: 'Server says the username is bad.', field: 'username' } } };
          return { body: { user: adminUser(7, body) } };
        },
      },
    });
    await app.findByRole('heading', 'Edit user7');
    await app.type(app.getByLabelText(en.userEdit.fields.username), 'taken');
    await app.type(app.getByLabelText(en.userEdit.fields.ram), '4096');
    await app.type(app.getByLabelText(en.userEdit.fields.role), '4');
    await app.click(app.getByRole('button', en.common.save));

    const patch = await app.waitFor(() => {
      const found = app.httpCalls.find((c) => c.method === 'PATCH');
      expect(found).toBeTruthy();
      return found!;
    });
    expect(patch.body).toEqual({ username: 'taken', role: 4, ram: 4096 });
    await app.findByText('Server says the username is bad.');
    expect(app.getByLabelText(en.userEdit.fields.username).getAttribute('aria-invalid')).toBe('true');
  });

  it('checks the fields before sending', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${uuid}/edit`,
      catalogues: { en },
      session: ROOT,
      http: {
        [`GET /api/admin/users/${uuid}`]: { body: { user: adminUser(7) } },
        'GET /api/admin/roles': { body: roles },
        [`GET /api/admin/users/${uuid}/activity`]: { body: { data: [], meta: { page: 1, per_page: 10, total: 0, total_pages: 0 } } },
      },
    });
    await app.findByRole('heading', 'Edit user7');
    await app.type(app.getByLabelText(en.userEdit.fields.email), 'not-an-email');
    await app.type(app.getByLabelText(en.userEdit.fields.cpu), '-5');
    await app.click(app.getByRole('button', en.common.save));
    await app.findByText(en.validation.email);
    expect(app.getByText(en.validation.wholeNumber)).toBeTruthy();
    expect(app.httpCalls.some((c) => c.method === 'PATCH')).toBe(false);
  });

  it('adjusts coins through the wallet route with a reason (never through PATCH); bans with a reason', async () => {
    const ledger = {
      data: [{ id: 9, delta: 250, balance_after: 250, kind: 'admin.adjust', reference: null, reason: 'Welcome gift', created_at: '2025-03-01T08:00:00.000Z' }],
      meta: { page: 1, per_page: 10, total: 1, total_pages: 1 },
    };
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${uuid}/edit`,
      catalogues: { en },
      session: ROOT,
      http: {
        [`GET /api/admin/users/${uuid}`]: { body: { user: adminUser(7) } },
        'GET /api/admin/roles': { body: roles },
        [`GET /api/admin/users/${uuid}/activity`]: {
          body: {
            data: [{ id: 3, action: 'auth.login', actor: { uuid, username: 'user7' }, details: {}, ip: '203.0.113.9', created_at: '2025-03-02T08:00:00.000Z' }],
            meta: { page: 1, per_page: 10, total: 1, total_pages: 1 },
          },
        },
        [`GET /api/admin/users/${uuid}/transactions`]: { body: ledger },
        [`POST /api/admin/users/${uuid}/coins`]: {
          body: {
            balance: 200,
            replayed: false,
            entry: { id: 10, delta: -50, balance_after: 200, kind: 'admin.adjust', reference: null, reason: 'Chargeback', created_at: '2025-03-03T08:00:00.000Z' },
          },
        },
        [`PATCH /api/admin/users/${uuid}`]: (call) => ({ body: { user: adminUser(7, call.body as Record<string, unknown>) } }),
      },
    });
    const balance = () => document.querySelector('[data-testid="coins-balance"]')?.textContent;
    await app.findByText('Welcome gift');
    expect(balance()).toBe('250');
    await app.findByText('auth.login');
    expect(app.getByText('203.0.113.9')).toBeTruthy();

    // checked in the browser first: zero is refused and nothing is sent
    await app.type(app.getByLabelText(en.userEdit.coins.amount), '0');
    await app.type(app.getByLabelText(en.userEdit.coins.reason), 'Chargeback');
    await app.click(app.getByRole('button', en.userEdit.coins.adjust));
    await app.findByText(en.userEdit.coins.amountInvalid);
    expect(app.httpCalls.some((c) => c.method === 'POST')).toBe(false);

    await app.type(app.getByLabelText(en.userEdit.coins.amount), '-50');
    await app.click(app.getByRole('button', en.userEdit.coins.adjust));
    await app.waitFor(() => expect(balance()).toBe('200'));
    const post = app.httpCalls.find((c) => c.method === 'POST');
    expect(post?.body).toEqual({ amount: -50, reason: 'Chargeback', idempotency_key: expect.stringMatching(/^[a-f0-9]{32}$/) });

    await app.type(app.getByLabelText(en.userEdit.ban.reason), 'Chargeback fraud');
    await app.click(app.getByRole('button', en.userEdit.ban.ban));
    await app.findByText(en.userEdit.ban.isBanned);
    const patch = app.httpCalls.find((c) => c.method === 'PATCH');
    expect(patch?.body).toEqual({ banned: true, ban_reason: 'Chargeback fraud' });
    expect(app.httpCalls.some((c) => c.method === 'PATCH' && 'coins' in (c.body as object))).toBe(false);
  });
});

describe('user delete', () => {
  it('deletes after the confirmation and goes back to the list', async () => {
    const uuid = adminUser(3).uuid;
    const app = await renderPlugin(plugin, {
      manifest,
      route: `/mc-admin/users/${uuid}/delete`,
      catalogues: { en },
      session: ROOT,
      http: { [`GET /api/admin/users/${uuid}`]: { body: { user: adminUser(3) } }, [`DELETE /api/admin/users/${uuid}`]: { body: { success: true } } },
    });
    await app.click(await app.findByRole('button', en.userDelete.confirm));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/users'));
    expect(app.httpCalls.some((c) => c.method === 'DELETE')).toBe(true);
  });
});
