// @vitest-environment jsdom
import { definePlugin } from '@orepanel/sdk';
import { cleanup, renderPlugin, type HttpHandlers, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import { SUPPORT_PIN_PERMISSION, type PinMatch } from '../client/api';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { PersonMatch } from '../shared/people';

afterEach(() => cleanup());

const member: TestSession = { user: { username: 'viewer' } };
const staff: TestSession = { user: { username: 'helper', role: 4 }, permissions: [SUPPORT_PIN_PERMISSION, 'admin.users.edit'] };

const match = (n: number, username: string): PersonMatch => ({
  uuid: `22222222-2222-4222-8222-00000000000${n}`,
  username,
  avatar: null,
  role: { name: 'Default', color: '#808080' },
});

/** A stand-in for the admin plugin's user page (the "Manage" link); the profile route is this plugin's own. */
const adminStub = {
  plugin: definePlugin({ id: 'admin-target', setup: (ctx) => ctx.routes.provide('UserEdit', async () => ({ default: () => null })) }),
  manifest: {
    id: 'admin-target',
    name: 'x',
    version: '1.0.0',
    sdk: '^2.0.0',
    routes: [{ path: '/mc-admin/users/:uuid/edit', component: 'UserEdit', auth: true, admin: true, permission: 'admin.users.edit' }],
  },
};

async function open(http: HttpHandlers, options: { session?: TestSession; profiles?: boolean } = {}) {
  const app = await renderPlugin(plugin, {
    manifest,
    route: '/lookup',
    catalogues: { en },
    session: options.session ?? member,
    settings: { allow_public_profiles: options.profiles ?? true },
    alongside: [adminStub],
    http,
  });
  return app;
}

type App = Awaited<ReturnType<typeof open>>;
const calls = (app: App, prefix: string) => app.httpCalls.filter((c) => c.path.startsWith(prefix));
/** the Search button of the support-PIN form (staff may see two Search buttons) */
const pinSubmit = (app: App) => app.getByLabelText(en.lookup.pin.title).querySelector<HTMLButtonElement>('button[type="submit"]')!;

describe('lookup page: by name', () => {
  it('refuses fewer than 3 characters without asking the server', async () => {
    const app = await open({});
    await app.type(app.getByLabelText('Username'), ' ab ');
    await app.click(app.getByRole('button', 'Search'));
    await app.findByText('Type at least 3 characters.');
    expect(calls(app, '/api/user/search')).toHaveLength(0);
  });

  it('searches the trimmed text on submit and lists the matches with links to their profiles', async () => {
    const app = await open({ 'GET /api/user/search': { body: { data: [match(1, 'steve'), match(2, 'Steven')] } } });
    await app.type(app.getByLabelText('Username'), '  ste ');
    await app.click(app.getByRole('button', 'Search'));
    const list = await app.findByRole('list', 'Matching users');
    expect([...list.querySelectorAll('li')].map((li) => li.querySelector('a')?.textContent)).toEqual(['steve', 'Steven']);
    expect(app.getByRole('link', 'steve').getAttribute('href')).toBe(`/profile/${match(1, 'steve').uuid}`);
    const sent = calls(app, '/api/user/search');
    expect(sent).toHaveLength(1);
    expect(sent[0].query.get('query')).toBe('ste');
  });

  it('says when nobody matches', async () => {
    const app = await open({ 'GET /api/user/search': { body: { data: [] } } });
    await app.type(app.getByLabelText('Username'), 'nobody');
    await app.click(app.getByRole('button', 'Search'));
    await app.findByText('Nobody’s username contains “nobody”.');
  });

  it('explains a rate limit in the user’s words', async () => {
    const app = await open({ 'GET /api/user/search': { status: 429, body: { error: { code: 'RATE_LIMITED', message: 'Too many requests. Please wait before trying again.' } } } });
    await app.type(app.getByLabelText('Username'), 'steve');
    await app.click(app.getByRole('button', 'Search'));
    await app.findByText(en.errors.RATE_LIMITED);
  });

  it('says the search is off when public profiles are off (for members), and offers no PIN search to them', async () => {
    const app = await open({}, { profiles: false });
    await app.findByText(en.lookup.off);
    expect(app.queryByRole('button', 'Search')).toBeNull();
  });
});

describe('lookup page: by support PIN (staff)', () => {
  const holder: PinMatch = {
    uuid: '33333333-3333-4333-8333-333333333333',
    username: 'pinholder',
    first_name: 'Pat',
    last_name: 'Holder',
    email: 'pat@example.com',
    role: 1,
    role_name: 'Default',
    banned: true,
    created_at: '2025-01-01T00:00:00.000Z',
  };

  it('is not shown to users without the support permission', async () => {
    const app = await open({});
    await app.findByRole('button', 'Search');
    expect(app.queryByText(en.lookup.pin.title)).toBeNull();
  });

  it('checks the 6 digits first, then finds the account, with a way to manage it', async () => {
    const app = await open({ 'GET /api/admin/dashboard/support/pins/:pin': (call) => ({ body: { users: call.params.pin === '042042' ? [holder] : [] } }) }, { session: staff });
    await app.type(app.getByLabelText('Support PIN'), '42042');
    await app.click(pinSubmit(app));
    await app.findByText(en.lookup.pin.format);
    expect(calls(app, '/api/admin/dashboard/support/pins/')).toHaveLength(0);

    await app.type(app.getByLabelText('Support PIN'), '042042');
    await app.click(pinSubmit(app));
    const list = await app.findByRole('list', en.lookup.pin.results);
    expect(list.textContent).toContain('pinholder');
    expect(list.textContent).toContain('Pat Holder · pat@example.com');
    expect(list.textContent).toContain('Banned');
    expect(app.getByRole('link', 'Manage').getAttribute('href')).toBe(`/mc-admin/users/${holder.uuid}/edit`);
    // a banned account has no public profile to link to
    expect(app.queryByRole('link', 'pinholder')).toBeNull();
  });

  it('offers "Manage" only where the admin page would open: not to a role that is not admin-type', async () => {
    const notAdmin: TestSession = { ...staff, user: { username: 'helper', role: 1 } };
    const app = await open({ 'GET /api/admin/dashboard/support/pins/:pin': { body: { users: [{ ...holder, banned: false }] } } }, { session: notAdmin });
    await app.type(app.getByLabelText('Support PIN'), '042042');
    await app.click(pinSubmit(app));
    await app.findByRole('link', 'pinholder');
    expect(app.queryByRole('link', 'Manage')).toBeNull();
  });

  it('says when no account has the PIN', async () => {
    const app = await open({ 'GET /api/admin/dashboard/support/pins/:pin': { body: { users: [] } } }, { session: staff });
    await app.type(app.getByLabelText('Support PIN'), '123456');
    await app.click(pinSubmit(app));
    await app.findByText(en.lookup.pin.none);
  });

  it('still offers the PIN search to staff when public profiles are off', async () => {
    const app = await open({}, { session: staff, profiles: false });
    await app.findByText(en.lookup.pin.title);
    expect(app.queryByText(en.lookup.off)).toBeNull();
    expect(document.querySelector('input[name="query"]')).toBeNull();
  });
});
