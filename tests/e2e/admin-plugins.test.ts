// Issue 10 item 4, in chromium against the built panel: an administrator switches the mail-templates
// plugin off at /mc-admin/plugins — its menu item is gone and /mc-admin/mail-templates is "Page not
// found" at once, no restart — and on again; the core admin plugins (users, roles and permissions,
// settings, the plugins screen itself) cannot be switched off, and their rows say why.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mainText, signInThroughApi, uniqueName, usePanelAndBrowser, type PageProbe } from './harness';

const env = usePanelAndBrowser();
const PASSWORD = 'admin-password-1';
const WAIT = { timeout: 20_000 };
let admin: PageProbe;

beforeAll(async () => {
  const name = uniqueName('root');
  const made = env.panel.cli(['user', 'create', '--username', name, '--email', `${name}@example.com`, '--password', PASSWORD, '--role', '8']);
  expect(made.status, made.stderr).toBe(0);
  admin = await signInThroughApi(env.browser, env.panel.url, name, PASSWORD);
});
afterAll(async () => {
  await admin?.context.close();
});

/** The sidebar's link to the mail templates screen (the page itself links nowhere there). */
const mailNavItem = (page: Page) => page.locator('nav a[href="/mc-admin/mail-templates"]');

async function openPlugins(page: Page): Promise<void> {
  await page.goto(`${env.panel.url}/mc-admin/plugins`);
  await page.getByRole('button', { name: 'Disable Users' }).waitFor(WAIT);
}

describe('switching an admin area off and on at /mc-admin/plugins', () => {
  it('disabling mail-templates takes its menu item and pages away at once; enabling brings them back', async () => {
    const { page } = admin;
    await openPlugins(page);
    await mailNavItem(page).waitFor(WAIT);

    await page.getByRole('button', { name: 'Disable Mail templates' }).click();
    await page.locator('.swal2-confirm').click();
    // the page reloads itself with the panel as the server now has it, and says what changed
    await expect.poll(() => mainText(page), WAIT).toContain('Mail templates is disabled on the server.');
    await page.getByRole('button', { name: 'Enable Mail templates' }).waitFor(WAIT);
    expect(await mailNavItem(page).count()).toBe(0);
    await page.goto(`${env.panel.url}/mc-admin/mail-templates`);
    await expect.poll(() => page.locator('body').innerText(), WAIT).toContain('Page not found');
    expect(await mailNavItem(page).count()).toBe(0);

    await openPlugins(page);
    await page.getByRole('button', { name: 'Enable Mail templates' }).click();
    await expect.poll(() => mainText(page), WAIT).toContain('Mail templates is enabled on the server.');
    await mailNavItem(page).waitFor(WAIT);
    await mailNavItem(page).click();
    await page.waitForURL('**/mc-admin/mail-templates');
    await page.getByRole('heading', { name: 'Mail templates', level: 1 }).waitFor(WAIT);
    expect(await page.locator('body').innerText()).not.toContain('Page not found');
  });

  it('the core admin plugins cannot be switched off: the switch is off-limits and the row says why', async () => {
    const { page } = admin;
    await openPlugins(page);
    for (const name of ['Users', 'Roles and permissions', 'Settings', 'Plugins']) {
      const button = page.getByRole('button', { name: `Disable ${name}`, exact: true });
      expect(await button.isDisabled(), name).toBe(true);
      const row = button.locator('xpath=ancestor::tr[1]');
      expect(await row.innerText(), name).toContain('Part of the core: the panel cannot work without it, so it cannot be disabled.');
    }
    // a switchable one's row has no such reason
    const mail = page.getByRole('button', { name: 'Disable Mail templates' }).locator('xpath=ancestor::tr[1]');
    expect(await mail.innerText()).not.toContain('Part of the core');
    // and asked directly, the server refuses too
    const status = await page.evaluate(async () => (await fetch('/api/admin/plugins/admin-plugins/disable', { method: 'POST' })).status);
    expect(status).toBe(409);
  });
});
