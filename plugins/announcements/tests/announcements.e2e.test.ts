// Announcements in chromium against the BUILT panel (issue 12's must-show): an administrator writes a
// Markdown announcement on the create page (with a <script> and a javascript: link in it), uploads an
// image on its edit page with the picker and puts it into the text, pins it as a warning for one role
// and schedules it ahead; nobody sees it before its time. Once its time comes (moved a few seconds
// ahead through the API: the browser's date-time field has minutes, and the built panel runs on the
// real clock) the chosen role's customer sees the banner and the sidebar count, reads it (the image
// loads, the script and the link are inert, the count goes) and closes the banner; a user of another
// role sees none of it.
import type { Browser, Page } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, openPage, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';
import en from '../locales/en.json';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const names = { admin: uniqueName('admin'), steve: uniqueName('steve'), mod: uniqueName('mod') };
/** a 12×12 red PNG */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAwAAAAMCAIAAADZF8uwAAAAFUlEQVR4nGP4z8BAEBFWMapoABQBAPuQj3FCf3VbAAAAAElFTkSuQmCC', 'base64');

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
/** the announcement the first test writes, and the signed-in pages it leaves (logins are rate-limited) */
let written = 0;
let adminProbe: PageProbe;
let steveProbe: PageProbe;

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

const pill = (page: Page) => page.locator('nav a[data-nav-route="/announcements"] [data-nav-badge]');
const pad = (n: number) => String(n).padStart(2, '0');
const localInput = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-announcements-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', names.admin, '--email', `${names.admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  cli(['user', 'create', '--username', names.steve, '--email', `${names.steve}@example.com`, '--password', PASSWORD, '--role', '1']);
  cli(['user', 'create', '--username', names.mod, '--email', `${names.mod}@example.com`, '--password', PASSWORD, '--role', '3']);
  // three browsers on one address: the app-wide 100 a minute per address is not what this file tests
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('announcements', () => {
  it('goes from the editor to the chosen role only, on time, with banner, image and unread count', async () => {
    const admin: PageProbe = await signInThroughApi(browser, panel.url, names.admin, PASSWORD);
    adminProbe = admin;
    const roles = (await call(admin.page, 'GET', '/api/admin/roles')).data as { id: number; real_name: string }[];
    const defaultRole = roles.find((r) => r.id === 1)!;

    // the create page: title and Markdown, with a live preview of what readers get
    const page = admin.page;
    await page.goto(`${panel.url}/mc-admin/announcements/create`);
    await page.getByLabel(en.form.title).fill('Maintenance tonight');
    await page.getByLabel(en.form.summary, { exact: true }).fill('Nodes restart at 22:00.');
    await page.getByLabel(en.form.body).fill('We **restart** the nodes.\n\n<script>window.pwned = 1</script>\n\n[click me](javascript:window.pwned=2)');
    await page.locator('.announcement-body strong').getByText('restart').waitFor(WAIT);
    await page.getByRole('button', { name: en.form.create }).click();
    await page.waitForURL(/\/mc-admin\/announcements\/\d+\/edit$/, WAIT);
    const id = Number(/\/(\d+)\/edit$/.exec(page.url())?.[1]);
    written = id;

    // the image: chosen with the picker, uploaded with progress, put into the text
    await page.locator(`section[aria-label="${en.images.title}"] input[type="file"]`).setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: PNG });
    await page.getByRole('button', { name: en.images.upload }).click();
    await page.getByRole('button', { name: en.images.insertOne.replace('{{name}}', 'map.png') }).click();
    await page.locator('.announcement-body img').waitFor(WAIT);

    // a pinned warning for the Default role, visible from the next minute on
    await page.getByLabel(en.form.severity).selectOption('warning');
    await page.getByLabel(en.form.pinned, { exact: true }).check();
    await page.getByLabel(en.form.everyone, { exact: true }).uncheck();
    await page.getByLabel(defaultRole.real_name, { exact: true }).check();
    await page.getByLabel(en.form.published, { exact: true }).check();
    await page.getByLabel(en.form.publishAt).fill(localInput(new Date(Date.now() + 120_000)));
    await page.getByRole('button', { name: en.form.save }).click();
    await page.getByText(en.status.scheduled).first().waitFor(WAIT);

    // not yet: the customer sees nothing
    const steve = await signInThroughApi(browser, panel.url, names.steve, PASSWORD);
    steveProbe = steve;
    expect(((await call(steve.page, 'GET', '/api/user/announcements')).data as unknown[]).length).toBe(0);
    expect(await pill(steve.page).count()).toBe(0);

    // its time comes
    await call(page, 'PATCH', `/api/admin/announcements/${id}`, { publish_at: new Date(Date.now() + 2_000).toISOString() });
    await steve.page.waitForTimeout(2_500);
    await steve.page.reload();
    const banner = steve.page.getByRole('alert').filter({ hasText: 'Maintenance tonight' });
    await banner.waitFor(WAIT);
    await pill(steve.page).waitFor(WAIT);
    expect(await pill(steve.page).textContent()).toBe('1');

    // reading it: the image loads, the script never ran, the link is text; the count goes at once
    await steve.page.locator('nav a[data-nav-route="/announcements"]').click();
    await steve.page.getByRole('button', { name: en.list.readOne.replace('{{title}}', 'Maintenance tonight') }).click();
    const image = steve.page.locator('.announcement-body img');
    await image.waitFor(WAIT);
    await steve.page.waitForFunction(() => (document.querySelector('.announcement-body img') as HTMLImageElement | null)?.naturalWidth === 12, undefined, WAIT);
    expect(await steve.page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    expect(await steve.page.locator('.announcement-body a[href^="javascript"]').count()).toBe(0);
    expect(await steve.page.locator('.announcement-body').textContent()).toContain('<script>');
    await pill(steve.page).waitFor({ state: 'detached', ...WAIT });

    // closing the banner dismisses it for good
    await banner.getByRole('button').click();
    await banner.waitFor({ state: 'detached', ...WAIT });
    await steve.page.reload();
    await steve.page.getByRole('main').getByRole('heading', { name: en.titles.list }).waitFor(WAIT);
    expect(await steve.page.getByRole('alert').filter({ hasText: 'Maintenance tonight' }).count()).toBe(0);

    // another role (an admin-type one, signed in through the API without its dashboard): nothing at all
    const mod = await openPage(browser);
    await mod.page.goto(`${panel.url}/auth/login`);
    await mod.page.evaluate(
      async (body) => (await fetch('/api/user/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
      { login: names.mod, password: PASSWORD },
    );
    expect(((await call(mod.page, 'GET', '/api/user/announcements')).data as unknown[]).length).toBe(0);
    expect(((await call(mod.page, 'GET', '/api/user/announcements/banners')).data as unknown[]).length).toBe(0);
    expect(await mod.page.evaluate(async (path) => (await fetch(path)).status, `/api/user/announcements/${id}`)).toBe(404);
    expect(steve.errors).toEqual([]);
  });

  it('fits a phone: the editor stacks the preview under the text, and nothing scrolls sideways', async () => {
    const admin = adminProbe;
    await admin.page.setViewportSize({ width: 390, height: 844 });
    await admin.page.goto(`${panel.url}/mc-admin/announcements/${written}/edit`);
    const text = admin.page.getByLabel(en.form.body);
    const preview = admin.page.getByRole('region', { name: en.form.preview });
    await preview.locator('.announcement-body').waitFor(WAIT);
    const [textBox, previewBox] = [await text.boundingBox(), await preview.boundingBox()];
    expect(previewBox!.y).toBeGreaterThanOrEqual(textBox!.y + textBox!.height);
    expect(await admin.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // on a desktop they stand side by side
    await admin.page.setViewportSize({ width: 1280, height: 800 });
    await admin.page.waitForFunction(
      () => {
        const body = document.querySelector('textarea');
        const region = document.querySelector('section .announcement-body')?.closest('section');
        return !!body && !!region && Math.abs(body.getBoundingClientRect().top - region.getBoundingClientRect().top) < 60;
      },
      undefined,
      WAIT,
    );
    // the readers' list at phone width
    const steve = steveProbe;
    await steve.page.setViewportSize({ width: 390, height: 844 });
    await steve.page.goto(`${panel.url}/announcements`);
    await steve.page.getByRole('main').getByRole('heading', { name: 'Maintenance tonight' }).waitFor(WAIT);
    expect(await steve.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
