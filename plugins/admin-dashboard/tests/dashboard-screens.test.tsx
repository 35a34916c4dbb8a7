// @vitest-environment jsdom
// /mc-admin: each dashboard component shows — and fetches its data — only with its permission, and
// shows the server's figures as they are: overview, updates, security warnings, analytics with its
// chart, the support PIN lookup, quick actions and the latest activity.
import { cleanup, renderPlugin, type HttpHandlers } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import usersPlugin from '../../admin-users/client';
import usersManifest from '../../admin-users/plugin.json';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';

afterEach(() => cleanup());

const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const C = 'admin.dashboard.components';
// the users screens are another plugin's: a quick action links only to a screen that is there
const alongside = [{ plugin: usersPlugin, manifest: usersManifest }];

const overview = {
  version: '1.4.2',
  node_version: 'v20.20.2',
  dialect: 'postgres',
  started_at: '2026-01-01T08:00:00.000Z',
  accounts: { total: 1245, banned: 3, unverified: 17, two_fa: 40, active_sessions: 12 },
  roles: 9,
  plugins: { installed: 7, enabled: 6, refused: 1 },
};

const updates = {
  version: '1.4.2',
  pending: 1,
  migrations: [
    {
      owner: 'core',
      applied: 6,
      pending: ['0007_audit_log_action_index'],
      unknown: ['9999_from_the_future'],
      latest: { name: '0006_redirect_links', applied_at: '2026-01-01T08:00:00.000Z' },
    },
    { owner: 'notes', applied: 1, pending: [], unknown: [], latest: { name: '0001_notes', applied_at: '2026-01-01T08:00:00.000Z' } },
  ],
  refused: [{ id: 'fx-new-sdk', reason: 'it needs sdk ^3.0.0' }],
};

const entry = (id: number, action: string, actor: string | null, target: string | null) => ({
  id,
  action,
  actor: actor ? { uuid: `u-${actor}`, username: actor } : null,
  target: target ? { uuid: `u-${target}`, username: target } : null,
  details: {},
  ip: '203.0.113.9',
  created_at: '2026-01-02T10:00:00.000Z',
});

const logs = {
  data: [entry(9, 'auth.login_failed', null, 'victim'), entry(8, 'auth.2fa_failed', null, 'grace')],
  last_24h: [{ action: 'auth.login_failed', count: 5 }],
};

function analytics(days: number) {
  const series = Array.from({ length: days }, (_, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, signups: i === 2 ? 7 : 0, logins: i + 1 }));
  return { days, series, totals: { signups: 7, logins: series.reduce((s, p) => s + p.logins, 0), active_users: 4, accounts: 1245 } };
}

const handlers: HttpHandlers = {
  'GET /api/admin/dashboard/overview': { body: overview },
  'GET /api/admin/dashboard/updates': { body: updates },
  'GET /api/admin/dashboard/logs': { body: logs },
  'GET /api/admin/dashboard/analytics': (call) => ({ body: analytics(Number(call.query.get('days'))) }),
  'GET /api/admin/dashboard/activity': {
    body: { data: [entry(12, 'admin.user.update', 'root', 'alice'), entry(11, 'auth.login', 'alice', 'alice'), entry(10, 'auth.register', null, 'bob')] },
  },
  'GET /api/admin/dashboard/support/pins/:pin': (call) =>
    call.params.pin === '424242'
      ? {
          body: {
            users: [
              {
                uuid: '00000000-0000-4000-8000-000000000001',
                username: 'alice',
                first_name: 'Alice',
                last_name: 'Smith',
                email: 'alice@example.com',
                role: 2,
                role_name: 'VIP',
                banned: true,
                created_at: '2026-01-01T00:00:00.000Z',
              },
            ],
          },
        }
      : { body: { users: [] } },
};

const dashboardCalls = (app: { httpCalls: { path: string }[] }) => app.httpCalls.filter((c) => c.path.startsWith('/api/admin/dashboard/')).map((c) => c.path);

describe('admin dashboard', () => {
  it('shows — and fetches — each component only with its permission', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.dashboard.view', `${C}.quickactions.view`, `${C}.system.logs`, 'admin.users.list'] },
      http: handlers,
      alongside,
    });
    await app.findByRole('heading', en.dashboard.quickActions);
    await app.findByRole('heading', en.dashboard.logs.title);
    for (const heading of [en.dashboard.overview, en.dashboard.updates.title, en.dashboard.analytics.title, en.dashboard.support.title, en.dashboard.activity.title]) {
      expect(app.queryByRole('heading', heading), heading).toBeNull();
    }
    await app.waitFor(() => expect(dashboardCalls(app)).toEqual(['/api/admin/dashboard/logs']));
    expect(app.getByRole('link', en.dashboard.actions.users)).toBeTruthy();
    // no link to a screen the administrator may not open
    expect(app.queryByRole('link', en.dashboard.actions.settings)).toBeNull();
    expect(app.queryByRole('link', en.dashboard.actions.redirectLinkCreate)).toBeNull();
  });

  it('offers no quick action to a screen whose plugin is switched off', async () => {
    // only the users screens are there: the other admin plugins are off (or not installed)
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers, alongside });
    await app.findByRole('heading', en.dashboard.quickActions);
    await app.findByRole('link', en.dashboard.actions.users);
    for (const label of [en.dashboard.actions.mailTemplates, en.dashboard.actions.redirectLinkCreate, en.dashboard.actions.health, en.dashboard.actions.settings]) {
      expect(app.queryByRole('link', label), label).toBeNull();
    }
  });

  it('says there is nothing to show to a role without components', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.dashboard.view'] },
      http: handlers,
    });
    await app.findByText(en.dashboard.nothingTitle);
    expect(dashboardCalls(app)).toEqual([]);
  });

  it('shows the system overview’s real figures', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.dashboard.view', `${C}.system.overview`] },
      http: handlers,
    });
    await app.findByText('1,245');
    expect(app.getByText('1.4.2')).toBeTruthy();
    expect(app.getByText('postgres')).toBeTruthy();
    expect(app.getByText('3 banned · 17 unverified · 40 with 2FA')).toBeTruthy();
    expect(app.getByText('7 installed · 1 refused')).toBeTruthy();
    expect(app.getByText('Node.js v20.20.2')).toBeTruthy();
  });

  it('shows the updates: pending and unknown migrations, and the refused plugins with why', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers });
    await app.findByText('Pending migrations: 1');
    expect(app.getByText('0007_audit_log_action_index')).toBeTruthy();
    expect(app.getByText('9999_from_the_future')).toBeTruthy();
    expect(app.container.textContent).toContain(en.dashboard.updates.newerRelease.replace('{{n}}', '1'));
    expect(app.container.textContent).toContain('fx-new-sdk: it needs sdk ^3.0.0');
    expect(app.getByRole('list', en.dashboard.updates.sets).querySelectorAll('li')).toHaveLength(2);
  });

  it('says the database is up to date when nothing is pending', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin',
      catalogues: { en },
      session: { user: { role: 4 }, permissions: ['admin.dashboard.view', `${C}.system.updates`] },
      http: {
        'GET /api/admin/dashboard/updates': {
          body: { version: '1.4.2', pending: 0, migrations: [{ owner: 'core', applied: 7, pending: [], unknown: [], latest: null }], refused: [] },
        },
      },
    });
    await app.findByText(en.dashboard.updates.upToDate);
    expect(app.queryByText(/Pending migrations/)).toBeNull();
  });

  it('shows the security warnings with the last day’s counts', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers });
    await app.findByText('auth.login_failed: 5');
    expect(app.getByText('→ victim')).toBeTruthy();
    expect(app.getByText('auth.2fa_failed')).toBeTruthy();
  });

  it('draws sign-ups and logins per day, and asks for 30 days when told', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers });
    const chart = await app.findByRole('img', 'Sign-ups and logins per day, last 14 days (UTC)');
    const points = (series: string) => chart.querySelector(`[data-series="${series}"] polyline`)?.getAttribute('points')?.split(' ') ?? [];
    expect(points('signups')).toHaveLength(14);
    expect(points('logins')).toHaveLength(14);
    // logins rise by one a day: each point is higher (smaller y) than the one before
    const ys = points('logins').map((p) => Number(p.split(',')[1]));
    expect(ys.every((y, i) => i === 0 || y < ys[i - 1])).toBe(true);
    // the numbers are also in a table for screen readers
    expect(app.container.querySelector('table caption')?.textContent).toBe('Sign-ups and logins per day, last 14 days (UTC)');
    expect(app.getByRole('button', en.dashboard.analytics.days.replace('{{n}}', '14')).getAttribute('aria-current')).toBe('true');

    await app.click(app.getByRole('button', en.dashboard.analytics.days.replace('{{n}}', '30')));
    await app.findByRole('img', 'Sign-ups and logins per day, last 30 days (UTC)');
    expect(app.httpCalls.filter((c) => c.path === '/api/admin/dashboard/analytics').map((c) => c.query.get('days'))).toEqual(['14', '30']);
  });

  it('finds the account behind a support PIN, and checks the PIN first', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers });
    await app.findByRole('heading', en.dashboard.support.title);
    expect(app.container.textContent).toContain(en.dashboard.support.noTickets);
    const pin = app.getByLabelText(en.dashboard.support.pin);
    const find = app.getByRole('button', en.dashboard.support.find);

    await app.type(pin, '12ab');
    await app.click(find);
    await app.findByText(en.validation.pin);
    expect(app.httpCalls.some((c) => c.path.includes('/support/pins/'))).toBe(false);

    await app.type(pin, '424242');
    await app.click(find);
    const user = await app.findByRole('link', 'alice');
    expect(user.getAttribute('href')).toBe('/mc-admin/users/00000000-0000-4000-8000-000000000001/edit');
    expect(app.getByText('Alice Smith · alice@example.com')).toBeTruthy();
    expect(app.getByText(en.users.status.banned)).toBeTruthy();

    await app.type(pin, '000001');
    await app.click(find);
    await app.findByText('No account holds the PIN 000001.');
  });

  it('lists the latest activity, who did what to whom', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin', catalogues: { en }, session: ROOT, http: handlers });
    const feed = await app.findByRole('list', en.dashboard.activity.title);
    const rows = [...feed.querySelectorAll('li')].map((li) => li.textContent ?? '');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toContain('admin.user.update');
    expect(rows[0]).toContain('root → alice');
    expect(rows[1]).toContain('alice');
    expect(rows[2]).toContain('→ bob');
    expect(app.httpCalls.find((c) => c.path === '/api/admin/dashboard/activity')?.query.get('limit')).toBe('15');
  });

  it('shows one component’s failure with a retry, and the others as usual', async () => {
    let fail = true;
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin',
      catalogues: { en },
      session: ROOT,
      http: { ...handlers, 'GET /api/admin/dashboard/updates': () => (fail ? { status: 500, body: { error: { code: 'SERVER_ERROR', message: 'Boom' } } } : { body: updates }) },
    });
    await app.findByText('postgres');
    await app.findByRole('button', 'Try again');
    fail = false;
    await app.click(app.getByRole('button', 'Try again'));
    await app.findByText('Pending migrations: 1');
  });
});
