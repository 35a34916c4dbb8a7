// Spec §4/§8/§9 session behaviour in a real browser against the built panel: the error paths
// (503, 500, success:false, TW0_FA_BLOCKED) with their exact dialog texts and destinations.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage, registerThroughApi, uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

/**
 * A page of a browser context holding a fresh login's cookies. The page that registered is closed
 * first, so no request of its own (its kernel may start a session once the cookie appears) can land
 * in the counts of the test.
 */
async function loggedInPage(): Promise<Page> {
  const probe = await openPage(env.browser);
  await probe.page.goto(`${env.panel.url}/auth/login`);
  const name = uniqueName('sess');
  await registerThroughApi(probe.page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
  await probe.page.goto('about:blank');
  await probe.page.close();
  return probe.context.newPage();
}

async function dialogText(page: Page): Promise<string> {
  const popup = page.locator('.swal2-popup');
  await popup.waitFor({ state: 'visible', timeout: 15_000 });
  return (await popup.innerText()).replace(/\s+/g, ' ');
}

describe('session error paths (spec §8)', () => {
  it('503 → "Server Unavailable" dialog, storage and cookies cleared, then /auth/login', async () => {
    const page = await loggedInPage();
    await page.route('**/api/user/session', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, error_code: 'SERVER_UNAVAILABLE' }) }),
    );
    let sessionCalls = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/user/session')) sessionCalls++;
    });
    await page.goto(`${env.panel.url}/dashboard`);
    const text = await dialogText(page);
    expect(text).toContain('Server Unavailable');
    expect(text).toContain('The server is currently unavailable. Please try again later.');
    // spec §4: no retry on a 503
    expect(sessionCalls).toBe(1);
    await page.locator('.swal2-confirm').click();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.cookie.includes('user_token'))).toBe(false);
    await page.context().close();
  });

  it('500 is retried 3 times 2 s apart, then handled as a session error', async () => {
    const page = await loggedInPage();
    const times: number[] = [];
    await page.route('**/api/user/session', (route) => {
      times.push(Date.now());
      return route.fulfill({ status: 500, contentType: 'application/json', body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'x' } }) });
    });
    await page.goto(`${env.panel.url}/dashboard`);
    const text = await dialogText(page);
    expect(text).toMatch(/Failed to start session\. Please try again\.|Your session has expired or is invalid\./);
    // first try + 3 retries
    expect(times.length).toBe(4);
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeGreaterThanOrEqual(1900);
    await page.locator('.swal2-confirm').click();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    await page.context().close();
  });

  it('success:false → "Session Error" dialog with the footer, then /auth/login', async () => {
    const probe = await openPage(env.browser);
    const page = probe.page;
    // a user_token marker whose session the server does not know: the real server answers success:false.
    // The stale state is planted from a same-origin file that runs no kernel: a booting login page would
    // itself see the cookie, end the session and clear it before the navigation under test.
    await page.goto(`${env.panel.url}/sw.js`);
    await page.context().addCookies([{ name: 'user_token', value: 'stale', url: env.panel.url }]);
    await page.evaluate(() => localStorage.setItem('role', '1'));
    await page.goto(`${env.panel.url}/dashboard`);
    const text = await dialogText(page);
    expect(text).toContain('Session Error');
    expect(text).toContain('Your session has expired or is invalid.');
    expect(text).toContain('Please log in again.');
    await page.locator('.swal2-confirm').click();
    await page.waitForURL('**/auth/login');
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await page.evaluate(() => document.cookie)).not.toContain('user_token');
    await page.context().close();
  });

  it('TW0_FA_BLOCKED → /auth/2fa/verify with no dialog', async () => {
    const page = await loggedInPage();
    await page.route('**/api/user/session', (route) =>
      route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ success: false, error_code: 'TW0_FA_BLOCKED', user_info: null, billing: null, stats: null, permissions: [] }),
      }),
    );
    await page.goto(`${env.panel.url}/dashboard`);
    await page.waitForURL('**/auth/2fa/verify');
    await page.waitForTimeout(500);
    expect(await page.locator('.swal2-popup').count()).toBe(0);
    await page.context().close();
  });

  it('a good session stores user_info/billing/stats entries under their own keys and the permissions', async () => {
    const page = await loggedInPage();
    await page.goto(`${env.panel.url}/dashboard`);
    await page.waitForFunction(() => localStorage.getItem('username') !== null, null, { timeout: 15_000 });
    const stored = await page.evaluate(() => ({
      role: localStorage.getItem('role'),
      coins: localStorage.getItem('coins'),
      perms: localStorage.getItem('user_permissions'),
    }));
    expect(stored.role).toBe('1');
    expect(stored.coins).not.toBeNull();
    expect(JSON.parse(stored.perms ?? 'null')).toEqual(expect.any(Array));
    await page.context().close();
  });
});
