// The developer debug panel in chromium against the BUILT panel (issue 14): Ctrl+I opens it on every
// page (never from a text field), Escape closes it; a login's request body shows the password
// redacted and the password is nowhere in what was recorded; an error thrown by a test plugin (the
// third-party fixture whose setup() throws) shows under Errors with the spec §8 texts of uncaught
// errors and rejections; the terminal runs `1+1` once its warning was acknowledged; the panel is a
// full-width sheet on a phone; and once an administrator switches the plugin off at
// /mc-admin/plugins, after the reload nothing of it loads and Ctrl+I does nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, kernelTookOver, launchBrowser, openPage, ROOT, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const FAILING_PLUGIN = 'fixture-setup-fails';
const WAIT = { timeout: 20_000 };
const PANEL = '[data-testid="debug-panel"]';
const LAUNCHER = '[data-overlay-launcher="debug-panel:DebugPanel"]';

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let admin = '';

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-debug-panel-'));
  const cli = cliFor(dataDir);
  // a test plugin that throws in setup(), installed as a third-party plugin
  expect(cli(['plugin', 'build', join(ROOT, 'tests/fixtures/third-party-src', FAILING_PLUGIN), '--out', join(dataDir, 'plugins', FAILING_PLUGIN)])).toContain(
    `Built plugin "${FAILING_PLUGIN}"`,
  );
  // this file opens every page from one address: lift the app-wide limit (spec default 100/min)
  expect(cli(['settings', 'set', 'rate_limit_per_minute', '5000'])).toContain('Set rate_limit_per_minute = 5000.');
  admin = uniqueName('root');
  cli(['user', 'create', '--username', admin, '--email', `${admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Logs in through the login form, as a person does, and waits for the dashboard. */
async function logInWithTheForm(page: Page): Promise<void> {
  await page.goto(`${panel.url}/auth/login`);
  // the app's own form (the panel records its request), not the server's page it replaces
  await kernelTookOver(page);
  await page.getByLabel('Username or email').fill(admin);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  // (the login page greets with "Welcome back" too: the dashboard is known by its address)
  await page.waitForURL('**/dashboard', WAIT);
  await page
    .getByRole('main')
    .getByRole('heading', { name: /Welcome back/, level: 1 })
    .waitFor(WAIT);
}

/** Ctrl+I with the focus on the page itself (not in a field). */
async function pressCtrlI(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Control+i');
}

async function openPanel(page: Page): Promise<void> {
  await page.locator(LAUNCHER).waitFor(WAIT);
  await pressCtrlI(page);
  await page.locator(PANEL).waitFor(WAIT);
}

async function openTab(page: Page, name: string): Promise<void> {
  await page
    .locator(PANEL)
    .getByRole('tab', { name: new RegExp(`^${name}`) })
    .click();
}

let signedIn: PageProbe | null = null;

/** The administrator's page, signed in with the form the first time it is asked for. */
async function signedInPage(): Promise<Page> {
  if (!signedIn) {
    signedIn = await openPage(browser);
    await logInWithTheForm(signedIn.page);
  }
  return signedIn.page;
}

describe('the developer debug panel', () => {
  it('records the login with the password redacted, from the login page on', async () => {
    const page = await signedInPage();
    await openPanel(page);
    const login = page.locator(PANEL).locator('[data-network-entry]').filter({ hasText: '/api/user/auth/login' });
    await login.first().waitFor(WAIT);
    await expect
      .poll(() =>
        page
          .locator(PANEL)
          .getByRole('tab', { name: /^Network/ })
          .innerText(),
      )
      .toMatch(/Network\s*\d+/);
    await login.first().click();
    const body = page.locator(PANEL).locator('pre').first();
    await body.waitFor(WAIT);
    const text = await body.innerText();
    expect(JSON.parse(text)).toEqual({ login: admin, password: '[redacted]' });
    expect(await page.locator(PANEL).innerText()).toContain('Copy as cURL');
    // the password is nowhere in the page's recorded requests (the panel shows what was stored)
    await page.getByRole('button', { name: 'All requests' }).click();
    for (const entry of await page.locator(PANEL).locator('[data-network-entry]').all()) {
      await entry.click();
      await page.getByRole('button', { name: 'Copy as cURL' }).waitFor(WAIT);
      expect(await page.locator(PANEL).innerText()).not.toContain(PASSWORD);
      await page.getByRole('button', { name: 'All requests' }).click();
    }
    // Escape closes it and the focus is back on the page
    await page.keyboard.press('Escape');
    await page.locator(PANEL).waitFor({ state: 'detached', ...WAIT });
  });

  it('opens with Ctrl+I on every page, and not while the user types in a field', async () => {
    const page = await signedInPage();
    const served = (await (await fetch(`${panel.url}/api/system/plugins`)).json()) as { routes?: { path: string }[] }[];
    // every page without parameters, except those that leave the panel (sign-out, the 2FA disband
    // redirect, the single sign-on hand-over)
    const paths = [...new Set(served.flatMap((m) => (m.routes ?? []).map((r) => r.path)))].filter(
      (p) => !p.includes(':') && p !== '*' && !['/auth/logout', '/auth/2fa/setup/disband', '/auth/sso'].includes(p),
    );
    paths.push('/no/such/page');
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) {
      await page.goto(`${panel.url}${path}`);
      await page.locator(LAUNCHER).waitFor(WAIT);
      await pressCtrlI(page);
      await page
        .locator(PANEL)
        .waitFor({ timeout: 10_000 })
        .catch(() => {
          throw new Error(`Ctrl+I did not open the panel on ${path}`);
        });
      await page.keyboard.press('Escape');
      await page.locator(PANEL).waitFor({ state: 'detached', timeout: 10_000 });
    }

    // the signed-out login page: its field has the focus, and Ctrl+I there is the field's
    const visitor = await openPage(browser);
    try {
      await visitor.page.goto(`${panel.url}/auth/login`);
      // the server sends this page drawn: Ctrl+I is the app's once the kernel has taken it over
      await kernelTookOver(visitor.page);
      const field = visitor.page.getByLabel('Username or email');
      await field.click();
      await visitor.page.keyboard.press('Control+i');
      await visitor.page.waitForTimeout(300);
      expect(await visitor.page.locator(PANEL).count()).toBe(0);
      await pressCtrlI(visitor.page);
      await visitor.page.locator(PANEL).waitFor(WAIT);
      // and the panel's launcher opens it too
      await visitor.page.keyboard.press('Escape');
      await visitor.page.locator(PANEL).waitFor({ state: 'detached', ...WAIT });
      await visitor.page.locator(LAUNCHER).click();
      await visitor.page.locator(PANEL).waitFor(WAIT);
    } finally {
      await visitor.context.close();
    }
  }, 300_000);

  it('shows an error thrown by a test plugin under Errors, with uncaught errors and rejections', async () => {
    const page = await signedInPage();
    const enabled = await page.evaluate(async (id) => (await fetch(`/api/admin/plugins/${id}/enable`, { method: 'POST' })).status, FAILING_PLUGIN);
    expect(enabled).toBe(200);
    // its page installs it (its first need): its setup() throws
    await page.goto(`${panel.url}/fixture/never`);
    // the error card names the plugin (its details folded)
    await page
      .locator('code', { hasText: FAILING_PLUGIN })
      .first()
      .waitFor({ state: 'attached', ...WAIT });
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('thrown outside any handler');
      });
      void Promise.reject(new Error('nobody caught this'));
    });
    await openPanel(page);
    await openTab(page, 'Errors');
    const errors = page.locator(PANEL).getByRole('tabpanel');
    await expect.poll(() => errors.innerText(), WAIT).toContain('fixture: setup failed on purpose');
    await expect.poll(() => errors.innerText(), WAIT).toContain('Global Error: Uncaught Error: thrown outside any handler');
    expect(await errors.innerText()).toContain('Unhandled Promise Rejection: Error: nobody caught this');
    expect(Number(await page.locator(PANEL).locator('[data-count="errors"]').innerText())).toBeGreaterThanOrEqual(3);
    // the filter keeps the matching line; Clear empties the list
    const lines = page.locator(PANEL).locator('[data-log-entry]');
    const before = await lines.count();
    await page.getByLabel('Filter the errors').fill('fixture');
    await expect.poll(() => lines.count(), WAIT).toBeLessThan(before);
    for (const text of await lines.allInnerTexts()) expect(text.toLowerCase()).toContain('fixture');
    await page.locator(PANEL).getByRole('button', { name: 'Clear' }).click();
    await expect.poll(() => page.locator(PANEL).locator('[data-count="errors"]').innerText(), WAIT).toBe('0');
    await page.keyboard.press('Escape');
    await page.evaluate(async (id) => fetch(`/api/admin/plugins/${id}/disable`, { method: 'POST' }), FAILING_PLUGIN);
  });

  it('runs 1+1 in the terminal once the self-XSS warning is acknowledged', async () => {
    const page = await signedInPage();
    await page.goto(`${panel.url}/dashboard`);
    await openPanel(page);
    await openTab(page, 'App');
    const panelBox = page.locator(PANEL);
    await panelBox.getByText('do not paste code someone sent you').waitFor(WAIT);
    expect(await panelBox.getByLabel('Script to run').count()).toBe(0);
    await panelBox.getByRole('button', { name: 'I understand, open the terminal' }).click();
    const input = panelBox.getByLabel('Script to run');
    await input.fill('1+1');
    await input.press('Enter');
    await expect.poll(() => panelBox.locator('[data-terminal-line="result"]').last().innerText(), WAIT).toBe('2');
    // Ctrl+I while typing in the terminal is the terminal's: the panel stays
    await input.press('Control+i');
    expect(await panelBox.count()).toBe(1);
    // Storage shows the session cookie redacted; Settings the spec §3 groups with the debug object
    await openTab(page, 'Storage');
    await expect.poll(() => panelBox.getByRole('tabpanel').innerText(), WAIT).toMatch(/local storage/i);
    const token = await page.evaluate(() => /(?:^|;\s*)user_token=([^;]+)/.exec(document.cookie)?.[1] ?? '');
    const storage = await panelBox.getByRole('tabpanel').innerText();
    expect(storage).toMatch(/user_token\s+\[redacted\]/);
    if (token) expect(storage).not.toContain(token);
    await openTab(page, 'Settings');
    const settings = await panelBox.getByRole('tabpanel').innerText();
    for (const group of ['GENERAL', 'COMPANY', 'SERVER DEFAULTS', 'FEATURE FLAGS', 'DEBUG INFO']) expect(settings.toUpperCase()).toContain(group);
    expect(settings).toContain('debug.rateLimit.limit');
  });

  it('is a full-width sheet on a phone', async () => {
    const phone = await openPage(browser, { viewport: { width: 390, height: 844 } });
    try {
      await phone.page.goto(`${panel.url}/auth/login`);
      await phone.page.locator(LAUNCHER).click();
      await phone.page.locator(PANEL).waitFor(WAIT);
      const box = await phone.page.locator(PANEL).boundingBox();
      expect(box?.width).toBe(390);
      expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBe(844);
      expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    } finally {
      await phone.context.close();
    }
  });

  it('is gone after a reload once an administrator switches it off at /mc-admin/plugins', async () => {
    const page = await signedInPage();
    await page.goto(`${panel.url}/mc-admin/plugins`);
    await page.getByRole('button', { name: 'Disable Developer debug panel' }).click();
    await page.locator('.swal2-confirm').click();
    await page.getByRole('button', { name: 'Enable Developer debug panel' }).waitFor(WAIT);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${panel.url}/dashboard`);
    await page.getByRole('heading', { name: /Welcome back/, level: 1 }).waitFor(WAIT);
    await pressCtrlI(page);
    await page.waitForTimeout(500);
    expect(await page.locator(PANEL).count()).toBe(0);
    expect(await page.locator(LAUNCHER).count()).toBe(0);
    expect(requested.filter((path) => path.startsWith('/plugins/debug-panel/'))).toEqual([]);
    // nothing records any more: fetch is the browser's own again
    expect(await page.evaluate(() => window.fetch.name)).toBe('fetch');
  });
});
