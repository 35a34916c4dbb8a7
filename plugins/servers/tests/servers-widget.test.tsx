// @vitest-environment jsdom
// The servers widget on the real dashboard page (slot dashboard.widgets): servers with status,
// resources, expiry and actions; queue entries (waiting, failed with the panel's reason, withdrawn
// while waiting); fetched again every POLL_MS while an entry waits or builds, so a finished server
// appears without a reload (the interval is driven by fake timers: no waiting in the test); an
// empty state that leads to /server/create.
import { i18n } from '@orepanel/sdk';
import { cleanup, renderPlugin, sessionReply, type HttpHandlers } from '@orepanel/sdk/testing';
import { act } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import dashboardPlugin from '../../dashboard/client';
import dashboardManifest from '../../dashboard/plugin.json';
import dashboardEn from '../../dashboard/locales/en.json';
import plugin from '../client';
import manifest from '../plugin.json';
import en from '../locales/en.json';
import type { MyServersResponse } from '../shared/api';
import { POLL_MS } from '../client/widget/ServersWidget';
import { queueEntry, serverView } from './fixtures';

// the page under test is the dashboard's: this plugin's texts are added as the kernel would
beforeAll(() => {
  i18n.addResourceBundle('en', 'servers', en, true, true);
});
afterEach(async () => {
  // real timers first: cleanup may wait for a dialog's focus timer
  vi.useRealTimers();
  await cleanup();
});

const session = { user: { first_name: 'Ana', username: 'ana' }, billing: { coins: 300 } };

async function open(servers: (call: number) => MyServersResponse, http: HttpHandlers = {}, settings: Record<string, boolean> = {}) {
  let calls = 0;
  const app = await renderPlugin(dashboardPlugin, {
    manifest: dashboardManifest,
    route: '/dashboard',
    catalogues: { en: dashboardEn },
    session,
    settings: { allow_servers: true, server_renew_enabled: true, ...settings },
    alongside: [{ plugin, manifest }],
    http: {
      'GET /api/user/session/servers': () => ({ body: servers(++calls) }),
      'GET /api/user/wallet/transactions': { body: { data: [], meta: { page: 1, per_page: 5, total: 0, total_pages: 0 } } },
      'GET /api/user/session': sessionReply(session),
      ...http,
    },
  });
  await app.findByRole('heading', en.widget.title);
  return app;
}

type App = Awaited<ReturnType<typeof open>>;
const serverFetches = (app: App) => app.httpCalls.filter((c) => c.path === '/api/user/session/servers').length;
const row = (app: App, name: string) => app.getByRole('listitem', name);

async function tick(ms: number) {
  await act(async () => {
    vi.advanceTimersByTime(ms);
  });
}

describe('servers widget', () => {
  it('shows each server with its state, resources, expiry, panel link and actions', async () => {
    const app = await open(() => ({
      servers: [serverView(1, { name: 'Survival' }), serverView(2, { name: 'Creative', status: 'suspended', expires_at: null, panel_url: null })],
      queue: [],
    }));
    await app.findByText('Survival');
    const survival = row(app, 'Survival');
    expect(survival.textContent).toContain(en.status.server.active);
    expect(survival.textContent).toContain('1,024 MiB');
    expect(survival.textContent).toContain('days left: 5');
    expect(survival.textContent).toContain('Frankfurt · Paper');
    expect(app.getByRole('link', 'Open Survival on the panel').getAttribute('href')).toBe('https://panel.example.com/server/abcd0001');
    expect(app.getByRole('link', 'Change the resources of Survival').getAttribute('href')).toBe('/server/1/update');
    expect(app.getByRole('link', 'Renew Survival').getAttribute('href')).toBe('/server/1/renew');
    expect(app.getByRole('link', 'Delete Survival').getAttribute('href')).toBe('/server/1/delete');
    const creative = row(app, 'Creative');
    expect(creative.textContent).toContain(en.status.server.suspended);
    expect(creative.textContent).toContain(en.expiry.never);
    expect(app.queryByRole('link', 'Open Creative on the panel')).toBeNull();
    expect(app.getByRole('link', en.widget.create).getAttribute('href')).toBe('/server/create');
    app.unmount();
  });

  it('flags a server and an entry whose stored values cannot be read, the rest shown as usual', async () => {
    const app = await open(() => ({
      servers: [serverView(1, { name: 'Survival' }), serverView(2, { name: 'Mangled', broken: true, broken_fields: ['backups'] })],
      queue: [queueEntry(3, { name: 'Odd entry', status: 'failed', broken: true, broken_fields: ['ram'] })],
    }));
    await app.findByText('Mangled');
    expect(row(app, 'Mangled').textContent).toContain(en.broken.row.replace('{{fields}}', en.resources.names.backups));
    expect(row(app, 'Odd entry').textContent).toContain(en.broken.row.replace('{{fields}}', en.resources.names.ram));
    expect(row(app, 'Survival').querySelector('[role="note"]')).toBeNull();
    app.unmount();
  });

  it('polls while an entry is waiting, so the finished server appears without a reload, then stops', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const app = await open((call) =>
      call < 3
        ? { servers: [], queue: [queueEntry(7, { name: 'Skyblock', status: call === 1 ? 'pending' : 'building' })] }
        : { servers: [serverView(9, { name: 'Skyblock' })], queue: [] },
    );
    await app.findByText(en.status.queue.pending);
    expect(row(app, 'Skyblock').textContent).toContain(en.widget.queue.pendingText);
    expect(serverFetches(app)).toBe(1);

    await tick(POLL_MS);
    await app.findByText(en.status.queue.building);
    expect(serverFetches(app)).toBe(2);

    await tick(POLL_MS);
    await app.findByText(en.status.server.active);
    expect(app.getByRole('link', 'Open Skyblock on the panel')).toBeTruthy();
    expect(serverFetches(app)).toBe(3);
    // the finished build changed the account's figures: the session is fetched again
    await app.waitFor(() => expect(app.httpCalls.some((c) => c.path === '/api/user/session')).toBe(true));

    // nothing is waiting any more: no more polling
    await tick(POLL_MS * 3);
    expect(serverFetches(app)).toBe(3);
    app.unmount();
  });

  it("shows a failed entry with the panel's reason, and withdraws a waiting one after a confirmation", async () => {
    let withdrawn = false;
    const app = await open(
      () => ({
        servers: [],
        queue: [
          ...(withdrawn ? [] : [queueEntry(8, { name: 'Lobby' })]),
          queueEntry(6, { name: 'Modded', status: 'failed', attempts: 3, last_error: 'No node has enough memory' }),
        ],
      }),
      {
        'POST /api/user/queue/8/delete': () => {
          withdrawn = true;
          return { body: { ok: true } };
        },
      },
    );
    await app.findByText('Modded');
    expect(row(app, 'Modded').textContent).toContain('It could not be built: No node has enough memory. Its resources are free again.');
    // only a waiting entry can be withdrawn
    expect(app.queryByRole('button', 'Cancel the creation of Modded')).toBeNull();
    await app.click(app.getByRole('button', 'Cancel the creation of Lobby'));
    await app.answerDialog('Cancel Lobby?', 'confirm');
    await app.waitFor(() => expect(app.queryByText('Lobby')).toBeNull());
    expect(app.httpCalls.filter((c) => c.method === 'POST' && c.path === '/api/user/queue/8/delete')).toHaveLength(1);
    app.unmount();
  });

  it('offers no renewal while renewing is turned off', async () => {
    const app = await open(() => ({ servers: [serverView(1, { name: 'Survival' })], queue: [] }), {}, { server_renew_enabled: false });
    await app.findByText('Survival');
    expect(app.queryByRole('link', 'Renew Survival')).toBeNull();
    expect(app.getByRole('link', 'Change the resources of Survival')).toBeTruthy();
    app.unmount();
  });

  it('invites to create the first server when there is none', async () => {
    const app = await open(() => ({ servers: [], queue: [] }));
    await app.findByText(en.widget.emptyTitle);
    expect(app.getByRole('link', en.widget.create).getAttribute('href')).toBe('/server/create');
    app.unmount();
  });

  it('does not offer creating when servers are turned off', async () => {
    const app = await open(() => ({ servers: [], queue: [] }), {}, { allow_servers: false });
    await app.findByText(en.widget.emptyTextOff);
    expect(app.queryByRole('link', en.widget.create)).toBeNull();
    app.unmount();
  });
});
