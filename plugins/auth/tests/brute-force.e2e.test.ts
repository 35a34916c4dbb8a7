// Issue 3 "must show": the brute-force defence, in chromium against the BUILT panel. Wrong passwords
// typed into the real login page are answered 401 until the per-account limit is used up; then the API
// answers 429 with Retry-After and the page says to wait — and during the window even the right
// password is refused (a guesser who hits it gains nothing). Once the window has passed, the owner
// logs in through the same page. The limits are this plugin's settings (its auth.login policy,
// server/rate-limits.ts), lowered here with `orepanel settings set` so the test is quick.
import type { Page, Response } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage, uniqueName, usePanelAndBrowser } from '../../../tests/e2e/harness';

const env = usePanelAndBrowser();

const OWNER = uniqueName('owner');
const PASSWORD = 'correct-horse-battery-9';
const PER_ACCOUNT = 3;
const WINDOW_SECONDS = 12;
const RATE_LIMITED_TEXT = 'Too many attempts. Please wait a moment and try again.';
const INVALID_TEXT = 'Invalid username/email or password.';

beforeAll(async () => {
  const created = env.panel.cli(['user', 'create', '--username', OWNER, '--email', `${OWNER}@example.com`, '--password', PASSWORD]);
  expect(created.status, created.stderr).toBe(0);
  const settings: [string, string][] = [
    ['rate_limit_login_per_account', String(PER_ACCOUNT)],
    ['rate_limit_login_per_ip', '50'],
    ['rate_limit_auth_window_seconds', String(WINDOW_SECONDS)],
    // the app-wide per-IP limit stays out of the way: one IP drives every page here
    ['rate_limit_per_minute', '5000'],
  ];
  for (const [key, value] of settings) {
    const res = env.panel.cli(['settings', 'set', key, value]);
    expect(res.status, res.stderr).toBe(0);
  }
  // a running panel picks setting changes up within ~5 s
  await new Promise((r) => setTimeout(r, 6_000));
});

/** Types into the real login form and submits it; resolves with the API's answer to that submit. */
async function submitLogin(page: Page, login: string, password: string): Promise<Response> {
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill(password);
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.url().endsWith('/api/user/auth/login') && r.request().method() === 'POST'),
    page.locator('button[type="submit"]').click(),
  ]);
  return response;
}

const bodyText = (page: Page) => page.locator('body').innerText();

describe('brute force on the login page (issue 3)', () => {
  it('bad logins → 429 and the rate-limit message; even the right password waits; after the window the owner logs in', { timeout: 120_000 }, async () => {
    const { page, context, errors } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[name="login"]').waitFor();

    const statuses: number[] = [];
    let limited: Response | null = null;
    for (let attempt = 1; attempt <= PER_ACCOUNT + 3 && !limited; attempt++) {
      const response = await submitLogin(page, OWNER, `wrong-guess-${attempt}`);
      statuses.push(response.status());
      if (response.status() === 429) limited = response;
      else await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain(INVALID_TEXT);
    }
    // exactly the allowed number of wrong guesses is answered, then the limit holds
    expect(statuses).toEqual([...Array.from({ length: PER_ACCOUNT }, () => 401), 429]);
    expect(limited).not.toBeNull();
    const body = (await limited!.json()) as { error: { code: string; retry_after: number } };
    expect(body.error.code).toBe('RATE_LIMITED');
    const retryAfter = Number(limited!.headers()['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
    await expect.poll(() => bodyText(page), { timeout: 10_000 }).toContain(RATE_LIMITED_TEXT);
    expect(page.url()).toContain('/auth/login');

    // inside the window the right password is refused too (the limit is on the account, not on failures)
    const during = await submitLogin(page, OWNER, PASSWORD);
    expect(during.status()).toBe(429);
    expect(page.url()).toContain('/auth/login');
    const session = await page.evaluate(async () => (await fetch('/api/user/session')).status);
    expect(session).toBe(401);

    // after the window, the owner logs in through the same page
    const waitSeconds = Number(during.headers()['retry-after'] ?? retryAfter);
    await new Promise((r) => setTimeout(r, (waitSeconds + 1) * 1000));
    const after = await submitLogin(page, OWNER, PASSWORD);
    expect(after.status()).toBe(200);
    await page.waitForURL('**/dashboard', { timeout: 15_000 });
    expect(await page.evaluate(async () => (await fetch('/api/user/session')).status)).toBe(200);
    expect(errors).toEqual([]);
    await context.close();
  });
});
