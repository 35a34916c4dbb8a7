// Spec §2 navigation rules 1–5 and the after-login redirect, in chromium against the built panel.
import { describe, expect, it } from 'vitest';
import { kernelTookOver, openPage, registerThroughApi, uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

describe('navigation rules (spec §2)', () => {
  it('rule 1 + 4: a protected route without the cookie saves its target, goes to login, and login returns there once', async () => {
    const { page, context } = await openPage(env.browser);
    const name = uniqueName('nav');
    // make the account first, then drop its cookies so the browser is logged out
    await page.goto(`${env.panel.url}/auth/register`);
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());

    await page.goto(`${env.panel.url}/dashboard?tab=x`);
    await page.waitForURL('**/auth/login');
    const saved = await page.evaluate(() => Object.entries(localStorage).find(([, v]) => v.includes('/dashboard')));
    expect(saved?.[1]).toContain('/dashboard?tab=x');

    await page.locator('input[autocomplete="username"]').fill(name);
    await page.locator('input[type="password"]').fill('correct-horse-1');
    await page.locator('button[type="submit"]').click();
    await page.waitForURL('**/dashboard?tab=x');
    // cleared after use: the next login lands on the dashboard
    const after = await page.evaluate((key) => localStorage.getItem(key), saved![0]);
    expect(after).toBeNull();
    await context.close();
  });

  it('rule 3: auth pages send a logged-in user to the dashboard', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    const name = uniqueName('nav');
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
    await page.goto(`${env.panel.url}/auth/register`);
    await page.waitForURL('**/dashboard');
    await page.goto(`${env.panel.url}/auth/login`);
    await page.waitForURL('**/dashboard');
    await context.close();
  });

  it('/ redirects to /dashboard, and unknown paths show the not-found page', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    const name = uniqueName('nav');
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
    await page.goto(`${env.panel.url}/`);
    await page.waitForURL('**/dashboard');
    await page.goto(`${env.panel.url}/no/such/page`);
    await expect.poll(() => page.locator('body').innerText(), { timeout: 15_000 }).toContain('404');
    await context.close();
  });

  it('rule 5: every navigation scrolls to the top', async () => {
    const { page, context } = await openPage(env.browser, { viewport: { width: 1280, height: 400 } });
    await page.goto(`${env.panel.url}/privacy-policy`);
    await page.locator('a[href="/terms-of-service"], a[href$="/terms-of-service"]').first().waitFor({ timeout: 15_000 });
    // make sure the page is taller than the window whatever the text length, then scroll down (most
    // often before the kernel took the pre-rendered page over: the load itself is no navigation, and
    // the takeover leaves the visitor where they scrolled)
    await page.evaluate(() => {
      document.documentElement.style.minHeight = '4000px';
      window.scrollTo(0, 2000);
    });
    // an in-app navigation next, not the pre-rendered page's plain link
    await kernelTookOver(page);
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBe(2000);
    await page.locator('a[href="/terms-of-service"], a[href$="/terms-of-service"]').first().click();
    await page.waitForURL('**/terms-of-service');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    expect(before).toBeGreaterThan(0);
    await context.close();
  });
});

describe('the admin area (spec §2 rule 2, §6)', () => {
  it('a plain user reaching /mc-admin is sent to the dashboard; an administrator (admin.root) gets in', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    const plain = uniqueName('plain');
    await registerThroughApi(page, { username: plain, email: `${plain}@example.com`, password: 'correct-horse-1' });
    await page.goto(`${env.panel.url}/mc-admin/users`);
    await page.waitForURL('**/dashboard');
    await context.close();

    const admin = uniqueName('root');
    const made = env.panel.cli(['user', 'create', '--username', admin, '--email', `${admin}@example.com`, '--password', 'admin-password-1', '--role', '8']);
    expect(made.status, made.stderr).toBe(0);
    const second = await openPage(env.browser);
    await second.page.goto(`${env.panel.url}/auth/login`);
    await second.page.locator('input[autocomplete="username"]').fill(admin);
    await second.page.locator('input[type="password"]').fill('admin-password-1');
    await second.page.locator('button[type="submit"]').click();
    await second.page.waitForURL('**/dashboard');
    await second.page.goto(`${env.panel.url}/mc-admin/users`);
    await expect.poll(() => second.page.locator('main').innerText(), { timeout: 15_000 }).toContain(admin);
    expect(second.page.url()).toContain('/mc-admin/users');
    await second.context.close();
  });
});
