// Third-party plugins end to end, in chromium against the BUILT panel: four plugin folders written
// against the SDK only (tests/fixtures/third-party-src) are built with `orepanel plugin build … --out
// DATA_DIR/plugins/<id>` before the panel starts, then enabled by an administrator — a healthy one (a page backed by its own server
// route, a dashboard widget, an admin page), one whose client throws in setup(), one whose installed
// bundle was tampered with (its SRI integrity no longer matches) and one whose entry bundle is gone
// (404). The panel must keep serving login and the dashboard, the healthy plugin must work, and the
// console must name each failed plugin with a readable reason. Plugins load when they are needed
// (issue 10): the login page fetches none of these four entries, and a failed plugin is found out —
// reported, and shown as an error card naming it — when one of its pages is first opened. The healthy plugin's admin page checks
// spec §2 rule 2 (role 1 → /dashboard) and §6 (role 3 without the permission → 'Access Denied' →
// /errors/403; role 8, admin.root, sees it).
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, ROOT, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const SOURCES = join(ROOT, 'tests/fixtures/third-party-src');
const CLI = join(ROOT, 'bin/orepanel.mjs');
const FIXTURES = ['fixture-healthy', 'fixture-setup-fails', 'fixture-bad-bundle', 'fixture-missing-entry'] as const;
const PASSWORD = 'correct-horse-1';

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
const users: Record<'member' | 'support' | 'admin', string> = { member: '', support: '', admin: '' };

/** Runs the built CLI against `dataDir` (before the panel starts, when the harness's `cli` does not exist yet). */
function cli(args: string[]): string {
  const res = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' }, encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`orepanel ${args.join(' ')} exited with ${res.status}:\n${res.stdout}\n${res.stderr}`);
  return res.stdout;
}

function installed(id: string): { entry: string; integrity: string; dir: string } {
  const dir = join(dataDir, 'plugins', id);
  const build = JSON.parse(readFileSync(join(dir, 'build.json'), 'utf8')) as { entry: string; integrity: string };
  return { ...build, dir };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-plugins-'));
  for (const id of FIXTURES) {
    expect(cli(['plugin', 'build', join(SOURCES, id), '--out', join(dataDir, 'plugins', id)])).toContain(`Built plugin "${id}"`);
  }
  // (c) a bundle that cannot load: bytes that no longer match the integrity build.json gives, and a
  // deleted entry (the browser gets a 404)
  const tampered = installed('fixture-bad-bundle');
  appendFileSync(join(tampered.dir, 'client', tampered.entry.slice('/plugins/fixture-bad-bundle/'.length)), '\n// tampered after the build\n');
  const gone = installed('fixture-missing-entry');
  rmSync(join(gone.dir, 'client', gone.entry.slice('/plugins/fixture-missing-entry/'.length)));
  // this file loads many pages from one IP: lift the app-wide API limit (a setting, spec-default 100/min)
  expect(cli(['settings', 'set', 'rate_limit_per_minute', '5000'])).toContain('Set rate_limit_per_minute = 5000.');
  for (const [kind, role] of [
    ['member', '1'],
    ['support', '3'],
    ['admin', '8'],
  ] as const) {
    users[kind] = uniqueName(kind);
    cli(['user', 'create', '--username', users[kind], '--email', `${users[kind]}@example.com`, '--password', PASSWORD, '--role', role]);
  }
  panel = await startPanel({ DATA_DIR: dataDir });
  await enableAsAdministrator(FIXTURES);
  browser = await launchBrowser();
});

/** Third-party plugins arrive disabled (issue 9): the administrator enables them, as /mc-admin/plugins does. */
async function enableAsAdministrator(ids: readonly string[]): Promise<void> {
  const login = await fetch(`${panel.url}/api/user/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ login: users.admin, password: PASSWORD }),
  });
  expect(login.status).toBe(200);
  const cookie = login.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  for (const id of ids) expect((await fetch(`${panel.url}/api/admin/plugins/${id}/enable`, { method: 'POST', headers: { cookie } })).status, id).toBe(200);
}

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Logs in through the real API from inside the page (the browser keeps the cookies). */
async function logIn(page: Page, login: string): Promise<void> {
  const status = await page.evaluate(
    async (body) => (await fetch('/api/user/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { login, password: PASSWORD },
  );
  expect(status).toBe(200);
}

/** A page logged in as `login`, on the dashboard (so the session's role and permissions are stored). */
async function dashboardAs(login: string): Promise<PageProbe> {
  const probe = await openPage(browser);
  await probe.page.goto(`${panel.url}/auth/login`);
  await probe.page.locator('input[type="password"]').first().waitFor({ timeout: 20_000 });
  await logIn(probe.page, login);
  await probe.page.goto(`${panel.url}/dashboard`);
  await probe.page.getByText('Welcome back', { exact: false }).first().waitFor({ timeout: 20_000 });
  return probe;
}

describe('third-party plugins that fail do not take the panel down', () => {
  it('the server serves every installed plugin, inline in index.html, with the build.json entries', async () => {
    const served = (await (await fetch(`${panel.url}/api/system/plugins`)).json()) as { id: string; entry?: string; integrity?: string }[];
    for (const id of FIXTURES) {
      const manifest = served.find((m) => m.id === id);
      expect(manifest, id).toBeDefined();
      expect(manifest?.entry).toBe(installed(id).entry);
      expect(manifest?.integrity).toBe(installed(id).integrity);
    }
    // the page itself carries the same list (no /api/system/plugins request at start-up)
    const html = await (await fetch(`${panel.url}/auth/login`)).text();
    const boot = JSON.parse(/<script type="application\/json" id="op-boot">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null') as { plugins: { id: string }[] };
    expect(boot.plugins.map((m) => m.id)).toEqual(served.map((m) => m.id));
  });

  it('serves the login page without fetching any of their entries (they load when needed)', async () => {
    const probe = await openPage(browser);
    const requested: string[] = [];
    probe.page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await probe.page.goto(`${panel.url}/auth/login`);
    await probe.page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    await probe.page.waitForLoadState('networkidle');
    for (const id of FIXTURES) expect(requested).not.toContain(installed(id).entry);
    expect(probe.console.filter((line) => line.includes('[plugin:'))).toEqual([]);
    // the start-up used the data index.html carries
    expect(requested).not.toContain('/api/system/plugins');
    expect(requested).not.toContain('/api/system/settings');
    expect(probe.errors).toEqual([]);
    await probe.context.close();
  });

  it('reports each failed plugin by id with a readable reason when its page is opened, and shows an error card naming it', async () => {
    const probe = await dashboardAs(users.member);
    const errors = () => probe.console.filter((line) => line.startsWith('error:')).join('\n');
    const visit = async (path: string, id: string) => {
      await probe.page.goto(`${panel.url}${path}`);
      const card = probe.page.locator(`[data-plugin-error="${id}"]`);
      await card.waitFor({ state: 'visible', timeout: 20_000 });
      expect(await card.getAttribute('role')).toBe('alert');
      // the shell (and the rest of the panel) still works around it
      expect(await probe.page.locator('nav a[href="/dashboard"]').count()).toBeGreaterThan(0);
    };

    await visit('/fixture/never', 'fixture-setup-fails');
    expect(errors()).toContain('[plugin:fixture-setup-fails] (setup) plugin "fixture-setup-fails" failed in setup(): fixture: setup failed on purpose');

    await visit('/fixture/broken', 'fixture-bad-bundle');
    const tampered = installed('fixture-bad-bundle');
    expect(errors()).toContain(
      `[plugin:fixture-bad-bundle] (load) plugin "fixture-bad-bundle" was skipped: its bundle ${tampered.entry} could not be loaded (network error, missing file, or its bytes do not match the integrity ${tampered.integrity})`,
    );

    await visit('/fixture/gone', 'fixture-missing-entry');
    const gone = installed('fixture-missing-entry');
    expect(errors()).toContain(`[plugin:fixture-missing-entry] (load) plugin "fixture-missing-entry" was skipped: its bundle ${gone.entry} could not be loaded`);
    expect(probe.errors).toEqual([]);
    await probe.context.close();
  });

  it('a logged-in user gets the dashboard (with the healthy plugin’s widget) and the healthy plugin’s page, backed by its server.js', async () => {
    const { page, context } = await dashboardAs(users.member);
    await page.getByTestId('fixture-widget').waitFor({ timeout: 20_000 });
    // its nav item leads to its page, whose data comes from its own server route
    await page.locator('a[href="/fixture/hello"]').first().click();
    await page.waitForURL('**/fixture/hello');
    await expect.poll(() => page.getByTestId('fixture-greeting').innerText(), { timeout: 20_000 }).toBe('Hello from the fixture server');
    expect(await page.getByRole('heading', { name: 'Hello from a third-party plugin' }).count()).toBeGreaterThan(0);
    await context.close();
  });
});

describe("the healthy plugin's admin page (spec §2 rule 2, §6)", () => {
  it('rule 2: a user whose role is 1 is sent to the dashboard', async () => {
    const { page, context } = await dashboardAs(users.member);
    await page.goto(`${panel.url}/mc-admin/fixture`);
    await page.waitForURL('**/dashboard');
    expect(await page.getByTestId('fixture-admin').count()).toBe(0);
    await context.close();
  });

  it("§6: a role-3 user without admin.fixture.view sees 'Access Denied', then lands on /errors/403", async () => {
    const { page, context } = await dashboardAs(users.support);
    await page.goto(`${panel.url}/mc-admin/fixture`);
    const popup = page.locator('.swal2-popup');
    await popup.waitFor({ state: 'visible', timeout: 20_000 });
    const text = (await popup.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Access Denied');
    expect(text).toContain('You do not have permission to access this resource.');
    await page.locator('.swal2-confirm').click();
    await page.waitForURL('**/errors/403');
    expect(await page.getByTestId('fixture-admin').count()).toBe(0);
    await context.close();
  });

  it('a role-8 user (admin.root) sees the page', async () => {
    const { page, context } = await dashboardAs(users.admin);
    await page.goto(`${panel.url}/mc-admin/fixture`);
    await expect.poll(() => page.getByTestId('fixture-admin').innerText(), { timeout: 20_000 }).toBe('Only administrators with admin.fixture.view see this.');
    expect(new URL(page.url()).pathname).toBe('/mc-admin/fixture');
    await context.close();
  });
});
