// Issue 5 end to end, in chromium against the BUILT panel wired to the Pterodactyl stand-in
// (tests/fixtures/pterodactyl-panel.ts, a real HTTP server): an administrator imports and opens the
// catalogue; a customer creates a server on /server/create, sees it appear on the dashboard when the
// queue worker has built it on the panel, gives it more memory, renews it and deletes it — each step
// checked on the panel itself; the admin screens list the server, the queue entry and its attempts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPterodactylPanel, type PterodactylStandIn } from '../../../tests/fixtures/pterodactyl-panel';
import { cliFor, launchBrowser, mainText, sessionCoins, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
/** the worker is kicked when an entry is queued; building and the dashboard's 5 s poll take a moment */
const BUILT = { timeout: 45_000 };
const SERVER_NAME = 'Survival world';

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let ptero: PterodactylStandIn;
const names = { admin: uniqueName('admin'), steve: uniqueName('steve') };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};
let serverId = 0;

beforeAll(async () => {
  ptero = await startPterodactylPanel();
  ptero.seedSample();
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-hosting-'));
  const cli = cliFor(dataDir);
  for (const [who, role] of [
    ['admin', '8'],
    ['steve', '1'],
  ] as const) {
    cli(['user', 'create', '--username', names[who], '--email', `${names[who]}@example.com`, '--password', PASSWORD, '--role', role]);
  }
  // one IP drives both browsers (the customer's dashboard polls every 5 s, every page asks its sidebar
  // counts and banners too): the app-wide 100 a minute per address is for the public, not this test
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  for (const who of ['admin', 'steve'] as const) probes[who] = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
  await adminCall('PATCH', '/api/admin/settings', {
    values: { pterodactyl_base_url: ptero.url, pterodactyl_api_key: ptero.apiKey, server_renew_enabled: true, server_renew_cost: 100, server_renew_days: 30 },
  });
  const uuid = await pageOf('steve').evaluate(async () => ((await (await fetch('/api/user/session')).json()) as { user_info: { uuid: string } }).user_info.uuid);
  await adminCall('POST', `/api/admin/users/${uuid}/coins`, { amount: 500, reason: 'e2e starting coins', idempotency_key: `e2e-hosting-${uuid}` });
}, 90_000);

afterAll(async () => {
  for (const probe of Object.values(probes)) expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  await ptero?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function pageOf(who: keyof typeof names): Page {
  const probe = probes[who];
  if (!probe) throw new Error(`${who} is not signed in`);
  return probe.page;
}

async function adminCall(method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await pageOf('admin').evaluate(
    async ({ method, path, body }) => {
      const res = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, text: await res.text() };
    },
    { method, path, body },
  );
  expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300);
  return JSON.parse(answer.text) as unknown;
}

async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${panel.url}${path}`);
  await page.getByRole('main').getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
}

const panelServers = () => ptero.servers().filter((s) => s.name === SERVER_NAME);

describe('hosting through its pages', () => {
  it('an administrator imports the catalogue from the panel on /mc-admin/locations and opens it', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await open(admin, '/mc-admin/locations', 'Locations');
    await admin.getByRole('button', { name: 'Sync from panel' }).click();
    await expect.poll(() => mainText(admin), WAIT).toContain('Locations: 2 added');
    await expect.poll(() => mainText(admin), WAIT).toContain('Bucharest, Romania');
    // the other kinds from their own pages' import, then everything opened for customers
    await adminCall('POST', '/api/admin/catalog/sync/categories');
    await adminCall('POST', '/api/admin/catalog/sync/eggs');
    for (const [list, patch] of [
      ['/api/admin/locations', { enabled: true, slots: 10 }],
      ['/api/admin/egg-categories', { enabled: true }],
      ['/api/admin/eggs', { enabled: true }],
    ] as const) {
      const rows = (await adminCall('GET', `${list}?page=1&per_page=50`)) as { data: { id: number }[] };
      for (const row of rows.data) await adminCall('PATCH', `${list}/${row.id}`, patch);
    }
    await open(admin, '/mc-admin/eggs', 'Eggs');
    await expect.poll(() => mainText(admin), WAIT).toContain('Paper');
  });

  it('a customer creates a server on /server/create; it appears on the dashboard once the panel built it', { timeout: 90_000 }, async () => {
    const steve = pageOf('steve');
    await open(steve, '/server/create', 'Create a server');
    await steve.getByRole('radio', { name: 'Bucharest, Romania' }).click();
    await steve.getByRole('radio', { name: 'Minecraft' }).click();
    await steve.getByRole('radio', { name: 'Paper' }).click();
    await steve.getByLabel('Server name').fill(SERVER_NAME);
    await steve.getByLabel('Memory (MiB)').fill('768');
    await steve.getByRole('button', { name: 'Create server' }).click();
    await steve.waitForURL(`${panel.url}/dashboard`, WAIT);
    await expect.poll(() => mainText(steve), BUILT).toContain(SERVER_NAME);
    // the dashboard polls while the entry waits or builds: the built server shows without a reload
    await steve.getByRole('link', { name: `Open ${SERVER_NAME} on the panel` }).waitFor(BUILT);
    expect(panelServers()).toHaveLength(1);
    expect(panelServers()[0].limits.memory).toBe(768);
    const mine = await steve.evaluate(async () => ((await (await fetch('/api/user/session/servers')).json()) as { servers: { id: number }[] }).servers);
    serverId = mine[0].id;
  });

  it('/server/{id}/update gives it more memory on the panel', { timeout: 60_000 }, async () => {
    const steve = pageOf('steve');
    await open(steve, `/server/${serverId}/update`, 'Change server resources');
    await steve.getByLabel('Memory (MiB)').fill('1024');
    await steve.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(() => panelServers()[0]?.limits.memory, WAIT).toBe(1024);
  });

  it('/server/{id}/renew charges the renewal once and extends the expiry', { timeout: 60_000 }, async () => {
    const steve = pageOf('steve');
    const before = await sessionCoins(steve);
    await open(steve, `/server/${serverId}/renew`, 'Renew server');
    const renew = steve.getByRole('button', { name: 'Renew for 100 coins' });
    // a double click is one renewal: the page sends one idempotency key
    await renew.dblclick();
    await expect.poll(() => mainText(steve), WAIT).toContain('Your server now expires');
    expect(await sessionCoins(steve)).toBe(before - 100);
  });

  it('the admin screens list the server, the queue entry and its attempts', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await open(admin, '/mc-admin/servers', 'Servers');
    await expect.poll(() => mainText(admin), WAIT).toContain(SERVER_NAME);
    expect(await mainText(admin)).toContain(names.steve);
    await open(admin, '/mc-admin/server-queue', 'Server queue');
    await expect.poll(() => mainText(admin), WAIT).toContain(SERVER_NAME);
    await admin.getByRole('link', { name: `View ${SERVER_NAME}` }).click();
    await admin.getByRole('main').getByRole('heading', { name: 'Queue entry', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(admin), WAIT).toContain('Built');
    await open(admin, '/mc-admin/server-queue/logs', 'Server queue logs');
    await expect.poll(() => mainText(admin), WAIT).toContain(SERVER_NAME);
  });

  it('/server/{id}/delete removes it from the panel, then from the dashboard', { timeout: 60_000 }, async () => {
    const steve = pageOf('steve');
    await open(steve, `/server/${serverId}/delete`, 'Delete server');
    await steve.getByLabel(`Type ${SERVER_NAME} to confirm`).fill(SERVER_NAME);
    await steve.getByRole('button', { name: 'Delete server' }).click();
    await steve.waitForURL(`${panel.url}/dashboard`, WAIT);
    await expect.poll(() => mainText(steve), WAIT).toContain('No servers yet');
    expect(panelServers()).toHaveLength(0);
  });
});
