// The sidebar's ticket counts in chromium against the BUILT panel: the login page asks for no counts;
// a customer's /ticket item shows no pill until staff answer, then "1" (named "New: 1") after the next
// session load, and opening the ticket takes it away at once (the page asks the kernel for fresh
// counts); staff's /mc-admin/tickets item counts the ticket while the customer spoke last and nobody
// opened it, and opening it takes that away too. The staff page's customer card shows the e-mail.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, openPage, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const names = { admin: uniqueName('admin'), steve: uniqueName('steve') };

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let admin: PageProbe;
let steve: PageProbe;
let ticketId = 0;

async function call(page: Page, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await page.evaluate(
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
  return JSON.parse(answer.text) as Record<string, unknown>;
}

const pill = (page: Page, route: string) => page.locator(`nav a[data-nav-route="${route}"] [data-nav-badge]`);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-badges-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', names.admin, '--email', `${names.admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  cli(['user', 'create', '--username', names.steve, '--email', `${names.steve}@example.com`, '--password', PASSWORD, '--role', '1']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('ticket counts in the sidebar', () => {
  it('asks for no counts on the login page', async () => {
    const probe = await openPage(browser);
    const asked: string[] = [];
    probe.page.on('request', (request) => {
      if (request.url().includes('/api/user/nav-badges')) asked.push(request.url());
    });
    await probe.page.goto(`${panel.url}/auth/login`);
    await probe.page.locator('input[type="password"]').first().waitFor(WAIT);
    await probe.page.waitForTimeout(500);
    expect(asked).toEqual([]);
    await probe.context.close();
  });

  it("counts a staff answer for the customer until they open it, and the customer's message for staff until one opens it", async () => {
    admin = await signInThroughApi(browser, panel.url, names.admin, PASSWORD);
    steve = await signInThroughApi(browser, panel.url, names.steve, PASSWORD);
    const department = (await call(admin.page, 'POST', '/api/admin/departments', { name: 'General' })) as { department: { id: number } };
    ticketId = (
      (await call(steve.page, 'POST', '/api/user/tickets', { department_id: department.department.id, subject: 'Lag spikes', message: 'Since noon.' })) as {
        ticket: { id: number };
      }
    ).ticket.id;

    // staff: one ticket waits, unread
    await admin.page.reload();
    await pill(admin.page, '/mc-admin/tickets').waitFor(WAIT);
    expect(await pill(admin.page, '/mc-admin/tickets').textContent()).toBe('1');
    expect(await pill(admin.page, '/mc-admin/tickets').getAttribute('aria-label')).toBe('New: 1');
    // the customer: nothing to read yet
    await steve.page.reload();
    await steve.page.locator('nav a[data-nav-route="/ticket"]').waitFor(WAIT);
    expect(await pill(steve.page, '/ticket').count()).toBe(0);

    // staff open the ticket: its count goes without a reload; the card names the customer
    await admin.page.locator(`nav a[data-nav-route="/mc-admin/tickets"]`).click();
    await admin.page.goto(`${panel.url}/mc-admin/tickets/${ticketId}`);
    await admin.page.getByText(`${names.steve}@example.com`).waitFor(WAIT);
    await pill(admin.page, '/mc-admin/tickets').waitFor({ state: 'detached', ...WAIT });

    await call(admin.page, 'POST', `/api/admin/tickets/${ticketId}/replies`, { message: 'Please try again now.' });
    await steve.page.reload();
    await pill(steve.page, '/ticket').waitFor(WAIT);
    expect(await pill(steve.page, '/ticket').textContent()).toBe('1');
    // the customer opens it through the sidebar: read, and the pill goes at once
    await steve.page.locator('nav a[data-nav-route="/ticket"]').click();
    await steve.page.getByRole('link', { name: 'Lag spikes' }).click();
    await steve.page.getByText('Please try again now.').waitFor(WAIT);
    await pill(steve.page, '/ticket').waitFor({ state: 'detached', ...WAIT });
  });
});
