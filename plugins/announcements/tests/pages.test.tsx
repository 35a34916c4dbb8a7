// @vitest-environment jsdom
// The announcements pages: the readers' list (cards, "new" badge, tag filter through the server,
// empty and error states), the detail (the server's HTML, images, marking it read); the banner in the
// shell's slot (closing it dismisses it on the server); the dashboard slot; the admin list (status
// chips, status filter); the editor's live preview and the bodies create and edit send.
import { definePlugin, Slot } from '@orepanel/sdk';
import { cleanup, renderPlugin, type HttpHandlers, type RecordedHttpCall } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import dashboard from '../../dashboard/client';
import dashboardManifest from '../../dashboard/plugin.json';
import plugin from '../client';
import { BANNER_REFRESH_MS } from '../client/AnnouncementBanners';
import type { AdminAnnouncement, AnnouncementCard, AnnouncementDetail } from '../client/api';
import en from '../locales/en.json';
import manifest from '../plugin.json';

afterEach(() => cleanup());

const SHELL_HOST = {
  id: 'shell-host',
  name: 'Shell',
  version: '1.0.0',
  sdk: '^2.0.0',
  client: true,
  server: false,
  routes: [{ path: '/host/:section?', component: 'HostPage', auth: true }],
};
const shellHost = definePlugin({
  id: 'shell-host',
  setup(ctx) {
    ctx.routes.provide('HostPage', async () => ({ default: () => <Slot name="shell.banner" /> }));
  },
});

const READER = { user: { role: 1, username: 'steve' }, permissions: [] };
const ROOT = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const KEY = 'AbCdEfGhIjKlMnOpQrSt_-';

function card(over: Partial<AnnouncementCard> = {}): AnnouncementCard {
  return {
    id: 7,
    title: 'Maintenance tonight',
    summary: 'Nodes restart at 22:00.',
    tags: ['maintenance'],
    severity: 'warning',
    pinned: false,
    publish_at: '2030-05-01T10:00:00.000Z',
    image: null,
    read: false,
    ...over,
  };
}
const page = <T,>(rows: T[]) => ({ data: rows, meta: { page: 1, per_page: 12, total: rows.length, total_pages: 1 } });
const calls = (app: { httpCalls: RecordedHttpCall[] }, method: string, path: string) => app.httpCalls.filter((c) => c.method === method && c.path === path);

function admin(over: Partial<AdminAnnouncement> = {}): AdminAnnouncement {
  return {
    id: 7,
    mail: false,
    title: 'Maintenance tonight',
    summary: '',
    body: 'Hello',
    tags: [],
    severity: 'info',
    pinned: false,
    role_ids: [],
    publish_at: null,
    expire_at: null,
    status: 'draft',
    author: 'root',
    images: [],
    created_at: '2030-05-01T10:00:00.000Z',
    updated_at: '2030-05-01T10:00:00.000Z',
    ...over,
  };
}

async function open(route: string, http: HttpHandlers, session: object = READER) {
  return renderPlugin(plugin, { manifest, route, session, catalogues: { en }, http: { 'GET /api/user/announcements/banners': { body: { data: [] } }, ...http } });
}

describe('/announcements', () => {
  it('shows cards with a "new" badge only on unread ones, and filters by a tag through the server', async () => {
    const app = await open('/announcements', {
      'GET /api/user/announcements': (call) => ({
        body: page(call.query.get('tag') === 'maintenance' ? [card()] : [card(), card({ id: 6, title: 'Egg update', tags: ['news'], severity: 'info', read: true })]),
      }),
    });
    await app.findByText('Maintenance tonight');
    expect(app.getByText('Egg update')).toBeTruthy();
    const cards = [...app.container.querySelectorAll('article')];
    expect(cards[0]?.textContent).toContain(en.list.new);
    expect(cards[1]?.textContent).not.toContain(en.list.new);
    await app.click(app.getByRole('button', en.list.filterBy.replace('{{tag}}', 'maintenance')));
    await app.findByText(en.list.filtered.replace('{{tag}}', 'maintenance'));
    expect(app.location().search).toBe('?tag=maintenance');
    expect(calls(app, 'GET', '/api/user/announcements').at(-1)?.query.get('tag')).toBe('maintenance');
    expect(app.queryByText('Egg update')).toBeNull();
  });

  it('says when there is none, and offers a retry when the list fails', async () => {
    const empty = await open('/announcements', { 'GET /api/user/announcements': { body: page([]) } });
    await empty.findByText(en.list.emptyTitle);
    await cleanup();
    let fail = true;
    const app = await open('/announcements', {
      'GET /api/user/announcements': () => (fail ? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } } : { body: page([card()]) }),
    });
    await app.findByText(en.list.loadFailed);
    fail = false;
    await app.click(app.getByRole('button', en.list.retry));
    await app.findByText('Maintenance tonight');
  });

  it('opens one: the server-rendered body and images, and marks it read', async () => {
    const detail: AnnouncementDetail = {
      ...card(),
      body_html: '<p>Read <strong>this</strong></p>',
      images: [{ key: KEY, name: 'map.png', url: `/api/user/announcements/images/${KEY}`, size: 10 }],
      expire_at: null,
    };
    const app = await open('/announcements?id=7', {
      'GET /api/user/announcements/7': { body: { announcement: detail } },
      'POST /api/user/announcements/7/read': { body: { success: true } },
    });
    await app.findByRole('heading', 'Maintenance tonight');
    expect(app.container.querySelector('.announcement-body strong')?.textContent).toBe('this');
    expect(app.container.querySelector(`img[src="/api/user/announcements/images/${KEY}"]`)).not.toBeNull();
    await app.waitFor(() => expect(calls(app, 'POST', '/api/user/announcements/7/read')).toHaveLength(1));
    await app.click(app.getByRole('button', en.detail.back));
    expect(app.location().search).toBe('');
  });
});

describe('the banner (shell.banner slot)', () => {
  it('shows pinned warnings above the page and dismisses one on the server when closed', async () => {
    let published = false;
    // a stand-in for the app shell: a page that renders the slot, with the announcements plugin beside it
    const app = await renderPlugin(shellHost, {
      manifest: SHELL_HOST,
      route: '/host',
      session: READER,
      catalogues: { en },
      alongside: [{ plugin, manifest }],
      http: {
        'GET /api/user/announcements/banners': () => ({
          body: {
            data: [
              { id: 9, title: 'Outage', summary: 'Node 3 is down.', severity: 'danger' },
              ...(published ? [{ id: 10, title: 'Planned work', summary: '', severity: 'warning' }] : []),
            ],
          },
        }),
        'POST /api/user/announcements/9/dismiss': { body: { success: true } },
      },
    });
    await app.findByText('Outage');
    expect(app.getByText('Node 3 is down.')).toBeTruthy();
    const alert = app.getByText('Outage').closest('[role="alert"]')!;
    await app.click(alert.querySelector('button')!);
    await app.waitFor(() => expect(app.queryByText('Outage')).toBeNull());
    expect(calls(app, 'POST', '/api/user/announcements/9/dismiss')).toHaveLength(1);
    // one published meanwhile shows on a navigation once a minute has passed, without a reload; the
    // closed one stays closed; clicking through pages sooner asks nothing (the rate limit is shared)
    published = true;
    await app.navigate('/host?page=2');
    await app.navigate('/host/other');
    expect(app.queryByText('Planned work')).toBeNull();
    expect(calls(app, 'GET', '/api/user/announcements/banners')).toHaveLength(1);
    const later = Date.now() + BANNER_REFRESH_MS;
    vi.spyOn(Date, 'now').mockReturnValue(later);
    try {
      await app.navigate('/host/third');
      await app.findByText('Planned work');
    } finally {
      vi.restoreAllMocks();
    }
    expect(app.queryByText('Outage')).toBeNull();
  });
});

describe('the dashboard slot', () => {
  it('shows the newest and pinned ones on the dashboard', async () => {
    const app = await renderPlugin(dashboard, {
      manifest: dashboardManifest,
      route: '/dashboard',
      session: { ...READER, user: { ...READER.user, first_name: 'Steve' } },
      catalogues: { en },
      alongside: [{ plugin, manifest }],
      http: {
        'GET /api/user/wallet/transactions': { body: { data: [], meta: { page: 1, per_page: 5, total: 0, total_pages: 0 } } },
        'GET /api/user/announcements': { body: page([card({ pinned: true }), card({ id: 6, title: 'New eggs', read: true })]) },
      },
    });
    await app.findByText('Maintenance tonight');
    expect(app.getByText('New eggs')).toBeTruthy();
    expect(calls(app, 'GET', '/api/user/announcements')[0]?.query.get('per_page')).toBe('3');
  });
});

describe('/mc-admin/announcements', () => {
  it('lists them with their status and filters by status through the server', async () => {
    const app = await open(
      '/mc-admin/announcements',
      {
        'GET /api/admin/announcements': (call) => ({
          body: page(call.query.get('status') === 'live' ? [admin({ id: 2, title: 'Live one', status: 'live', publish_at: '2030-05-01T10:00:00.000Z' })] : [admin()]),
        }),
      },
      ROOT,
    );
    await app.findByText('Maintenance tonight');
    expect(app.getByText('Maintenance tonight').closest('tr')?.textContent).toContain(en.status.draft);
    const select = app.getByLabelText(en.admin.statusFilter) as HTMLSelectElement;
    await app.type(select, 'live');
    await app.findByText('Live one');
    expect(calls(app, 'GET', '/api/admin/announcements').at(-1)?.query.get('status')).toBe('live');
  });

  it('previews the Markdown as the server renders it, and edit sends only what changed', async () => {
    const app = await open(
      '/mc-admin/announcements/7/edit',
      {
        'GET /api/admin/announcements/7': { body: { announcement: admin({ body: 'Hello' }) } },
        'GET /api/admin/roles': { body: { data: [] } },
        'POST /api/admin/announcements/preview': (call) => ({ body: { html: `<p><em>${(call.body as { body: string }).body}</em></p>` } }),
        'PATCH /api/admin/announcements/7': (call) => ({ body: { announcement: admin({ ...(call.body as object), updated_at: '2030-05-01T11:00:00.000Z' }) } }),
      },
      ROOT,
    );
    await app.waitFor(() => app.getByLabelText(en.form.body));
    await app.waitFor(() => expect(app.container.querySelector('.announcement-body em')?.textContent).toBe('Hello'));
    await app.type(app.getByLabelText(en.form.body), 'Hello **world**');
    await app.waitFor(() => expect(app.container.querySelector('.announcement-body em')?.textContent).toBe('Hello **world**'), { timeout: 2000 });
    await app.type(app.getByLabelText(en.form.tags), 'News, maintenance');
    await app.click(app.getByRole('button', en.form.save));
    await app.waitFor(() => expect(calls(app, 'PATCH', '/api/admin/announcements/7')).toHaveLength(1));
    expect(calls(app, 'PATCH', '/api/admin/announcements/7')[0]?.body).toEqual({ body: 'Hello **world**', tags: ['news', 'maintenance'] });
  });

  it('creates a draft with every field and goes on to its edit page', async () => {
    const app = await open(
      '/mc-admin/announcements/create',
      {
        'GET /api/admin/roles': { body: { data: [] } },
        'POST /api/admin/announcements/preview': { body: { html: '<p>x</p>' } },
        'POST /api/admin/announcements': { status: 201, body: { announcement: admin({ id: 12, title: 'Hi' }) } },
        'GET /api/admin/announcements/12': { body: { announcement: admin({ id: 12, title: 'Hi' }) } },
      },
      ROOT,
    );
    await app.type(await app.waitFor(() => app.getByLabelText(en.form.title)), ' Hi ');
    await app.type(app.getByLabelText(en.form.body), 'Body');
    await app.click(app.getByLabelText(en.form.mail));
    await app.click(app.getByRole('button', en.form.create));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/announcements/12/edit'));
    expect(calls(app, 'POST', '/api/admin/announcements')[0]?.body).toEqual({
      title: 'Hi',
      summary: '',
      body: 'Body',
      tags: [],
      severity: 'info',
      pinned: false,
      mail: true,
      role_ids: [],
      publish_at: null,
      expire_at: null,
    });
  });
});
