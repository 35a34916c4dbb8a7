// @vitest-environment jsdom
// The admin screens: /mc-admin/servers (owner, resources, state, expiry; searched and paged on the
// server; suspend/unsuspend/delete behind a confirmation and their permissions), the queue list
// filtered by state, an entry with its attempt timeline, and queueing a server for a user.
import { cleanup, renderPlugin, type HttpHandlers, type RecordedHttpCall, type TestSession } from '@orepanel/sdk/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { AdminQueueEntryView, AdminServerView } from '../shared/api';
import { createOptions, queueEntry, serverView } from './fixtures';

afterEach(() => cleanup());

const ROOT: TestSession = { user: { role: 8, role_name: 'Administrator' }, permissions: ['admin.root'] };
const LIST_ONLY: TestSession = { user: { role: 4, role_name: 'Support' }, permissions: ['admin.servers.list', 'admin.server.queue.list'] };

const adminServer = (id: number, extra: Partial<AdminServerView> = {}): AdminServerView => ({ ...serverView(id), owner: { uuid: `uuid-${id}`, username: `owner${id}` }, ...extra });

function serversPage(call: RecordedHttpCall) {
  const page = Number(call.query.get('page') ?? 1);
  const search = (call.query.get('search') ?? '').toLowerCase();
  const all = Array.from({ length: 23 }, (_, i) => adminServer(23 - i, i === 0 ? { name: 'Survival', status: 'suspended' } : {})).filter((s) =>
    s.name.toLowerCase().includes(search),
  );
  return { body: { servers: all.slice((page - 1) * 20, page * 20), total: all.length, page, per_page: 20 } };
}

describe('admin servers list', () => {
  it('shows owner, state and resources, pages and searches on the server', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/servers', catalogues: { en }, session: ROOT, http: { 'GET /api/admin/servers': serversPage } });
    await app.findByText('Survival');
    expect(document.body.textContent).toContain('owner23');
    expect(document.body.textContent).toContain(en.status.server.suspended);
    expect(app.getByRole('button', 'Unsuspend Survival')).toBeTruthy();
    expect(app.getByRole('button', 'Suspend Server 22')).toBeTruthy();
    await app.click(app.getByRole('button', 'Next'));
    await app.findByText('Server 3');
    expect(app.httpCalls.at(-1)?.query.get('page')).toBe('2');
    expect(app.location().search).toBe('?page=2');

    await app.type(app.getByLabelText(en.admin.servers.search), 'surv');
    await app.waitFor(() => expect(app.httpCalls.at(-1)?.query.get('search')).toBe('surv'), { timeout: 3000 });
    await app.waitFor(() => expect(app.queryByText('Server 3')).toBeNull());
    expect(app.httpCalls.at(-1)?.query.get('page')).toBe('1');
    app.unmount();
  });

  it('flags a server whose stored values cannot be read, naming them, and lists the others as usual', async () => {
    const servers = [adminServer(2, { name: 'Mangled', broken: true, broken_fields: ['databases', 'panel_id'] }), adminServer(1, { name: 'Fine' })];
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/servers',
      catalogues: { en },
      session: ROOT,
      http: { 'GET /api/admin/servers': { body: { servers, total: 2, page: 1, per_page: 20 } } },
    });
    await app.findByText('Mangled');
    expect(app.getByRole('note').textContent).toBe(en.broken.row.replace('{{fields}}', `${en.resources.names.databases}, ${en.broken.fields.panel_id}`));
    expect(app.getByText('Fine')).toBeTruthy();
    app.unmount();
  });

  it('suspends after a confirmation and shows the list again', async () => {
    const suspended: number[] = [];
    const http: HttpHandlers = {
      'GET /api/admin/servers': () => ({
        body: { servers: [adminServer(5, { name: 'Lobby', status: suspended.includes(5) ? 'suspended' : 'active' })], total: 1, page: 1, per_page: 20 },
      }),
      'POST /api/admin/servers/5/suspend': () => {
        suspended.push(5);
        return { body: adminServer(5, { name: 'Lobby', status: 'suspended' }) };
      },
    };
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/servers', catalogues: { en }, session: ROOT, http });
    await app.findByText('Lobby');
    await app.click(app.getByRole('button', 'Suspend Lobby'));
    await app.answerDialog('Suspend Lobby?', 'confirm');
    await app.findByRole('button', 'Unsuspend Lobby');
    expect(suspended).toEqual([5]);
    app.unmount();
  });

  it('offers no suspend or delete without their permissions', async () => {
    const app = await renderPlugin(plugin, { manifest, route: '/mc-admin/servers', catalogues: { en }, session: LIST_ONLY, http: { 'GET /api/admin/servers': serversPage } });
    await app.findByText('Survival');
    expect(app.queryByRole('button', 'Unsuspend Survival')).toBeNull();
    expect(app.queryByRole('button', 'Delete Survival')).toBeNull();
    app.unmount();
  });
});

const adminEntry = (id: number, extra: Partial<AdminQueueEntryView> = {}): AdminQueueEntryView => ({
  ...queueEntry(id),
  owner: { uuid: `uuid-${id}`, username: `owner${id}` },
  ...extra,
});

describe('admin server queue', () => {
  it('filters the queue by state through the address and links each entry', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/server-queue',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/server-queue': (call) => {
          const status = call.query.get('status');
          const entries = [
            adminEntry(1, { name: 'Waiting one' }),
            adminEntry(2, { name: 'Broken one', status: 'failed', last_error: 'Egg refused', broken: true, broken_fields: ['attempts'] }),
          ].filter((e) => !status || e.status === status);
          return { body: { entries, total: entries.length, page: 1, per_page: 20 } };
        },
      },
    });
    await app.findByText('Waiting one');
    expect(app.getByText('Egg refused')).toBeTruthy();
    expect(app.getByRole('note').textContent).toBe(en.broken.row.replace('{{fields}}', en.broken.fields.attempts));
    expect(app.getByRole('link', 'View Broken one').getAttribute('href')).toBe('/mc-admin/server-queue/2');
    expect(app.getByRole('link', 'Delete Waiting one').getAttribute('href')).toBe('/mc-admin/server-queue/1/delete');
    expect(app.getByRole('link', en.admin.queue.create).getAttribute('href')).toBe('/mc-admin/server-queue/create');
    await app.type(app.getByLabelText(en.admin.queue.statusFilter), 'failed');
    await app.waitFor(() => expect(app.queryByText('Waiting one')).toBeNull());
    expect(app.httpCalls.at(-1)?.query.get('status')).toBe('failed');
    expect(app.location().search).toBe('?status=failed');
    app.unmount();
  });

  it('shows an entry with its attempt timeline', async () => {
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/server-queue/3',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/admin/server-queue/3': {
          body: {
            entry: adminEntry(3, { name: 'Retried', status: 'completed', attempts: 2, server_id: 44 }),
            logs: [
              { id: 1, entry_id: 3, attempt: 1, outcome: 'retry', message: 'Panel timed out', created_at: '2026-11-22T09:01:00.000Z' },
              { id: 2, entry_id: 3, attempt: 2, outcome: 'reconciled', message: 'Found by external id', created_at: '2026-11-22T09:02:00.000Z' },
            ],
          },
        },
      },
    });
    await app.findByText('Retried');
    const timeline = app.getByRole('list', en.admin.entry.timeline);
    expect(timeline.querySelectorAll('li')).toHaveLength(2);
    expect(timeline.textContent).toContain('Attempt 1');
    expect(timeline.textContent).toContain(en.status.outcome.retry);
    expect(timeline.textContent).toContain('Panel timed out');
    expect(timeline.textContent).toContain(en.status.outcome.reconciled);
    expect(document.body.textContent).toContain('#44');
    app.unmount();
  });

  it('queues a server for a user found by name', async () => {
    const created = adminEntry(12, { name: 'Gift server', owner: { uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', username: 'bob' } });
    const app = await renderPlugin(plugin, {
      manifest,
      route: '/mc-admin/server-queue/create',
      catalogues: { en },
      session: ROOT,
      http: {
        'GET /api/user/server/create': { body: createOptions() },
        'GET /api/admin/users': {
          body: {
            data: [
              {
                uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
                username: 'bob',
                email: 'bob@example.com',
                first_name: 'Bob',
                last_name: 'B',
                avatar: null,
                background: null,
                role: 1,
                role_name: 'Default',
                verified: true,
                two_fa_enabled: false,
              },
            ],
            meta: { page: 1, per_page: 6, total: 1, total_pages: 1 },
          },
        },
        'POST /api/admin/server-queue': { status: 201, body: { entry: created } },
        'GET /api/admin/server-queue/12': { body: { entry: created, logs: [] } },
      },
    });
    await app.waitFor(() => app.getByLabelText(en.admin.create.userQuery));
    await app.type(app.getByLabelText(en.admin.create.userQuery), 'bob');
    await app.click(app.getByRole('button', en.admin.create.find));
    await app.click(await app.findByRole('button', 'Choose bob'));
    await app.type(app.getByLabelText(en.admin.create.location), '2');
    await app.type(app.getByLabelText(en.admin.create.egg), '100');
    await app.type(app.getByLabelText(en.create.details.name), 'Gift server');
    await app.click(app.getByRole('button', en.admin.create.submit));
    await app.waitFor(() => expect(app.location().pathname).toBe('/mc-admin/server-queue/12'));
    const post = app.httpCalls.find((c) => c.method === 'POST' && c.path === '/api/admin/server-queue');
    expect(post?.body).toEqual({
      user_uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
      name: 'Gift server',
      description: null,
      location_id: 2,
      egg_id: 100,
      ram: 1024,
      disk: 2048,
      cpu: 100,
      ports: 1,
      databases: 1,
      backups: 1,
    });
    expect(app.httpCalls.find((c) => c.path === '/api/admin/users')?.query.get('search')).toBe('bob');
    app.unmount();
  });
});
