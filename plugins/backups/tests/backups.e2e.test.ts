// Issue 13's screen in chromium against the BUILT panel: a root administrator finds /mc-admin/backups
// empty, creates a backup and watches its progress, sees it listed (kind, size, where), verifies it,
// downloads it (the file is the archive, byte for byte the listed size), opens the restore dialog (it
// asks for the panel's name, the password; the button waits for the exact name; Escape closes it),
// and deletes it after the confirmation. On a 390 px phone nothing scrolls sideways, the dialog too.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, mainText, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 30_000 };
/** where the screenshots go when OREPANEL_SCREENSHOTS names a folder (to look at the page) */
const SHOTS = process.env.OREPANEL_SCREENSHOTS ?? null;

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let probe: PageProbe;
const admin = uniqueName('admin');
let archive = '';

const page = (): Page => probe.page;
const shot = async (name: string) => {
  if (SHOTS) await page().screenshot({ path: join(SHOTS, `backups-${name}.png`), fullPage: true });
};
const noSidewaysScroll = () => page().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-backups-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', admin, '--email', `${admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  // the page asks for its job every second; the app-wide 100 a minute per address is not what this file tests
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  probe = await signInThroughApi(browser, panel.url, admin, PASSWORD);
}, 90_000);

afterAll(async () => {
  expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the backups screen in the browser', () => {
  it('starts empty, creates a backup with a progress bar that follows the job, and lists it', { timeout: 90_000 }, async () => {
    await page().goto(`${panel.url}/mc-admin/backups`);
    await page().getByRole('main').getByRole('heading', { name: 'Backups', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(page()), WAIT).toContain('No backups yet.');
    await shot('empty-1280');

    await page().getByRole('button', { name: 'Create backup' }).click();
    // the job's card: its title while it runs, then its outcome with the archive's name
    await expect.poll(() => mainText(page()), WAIT).toMatch(/Creating a backup…|Backup orepanel-\S+\.opbk is ready\./);
    await expect.poll(() => mainText(page()), WAIT).toMatch(/Backup orepanel-\S+\.opbk is ready\./);
    archive = /Backup (orepanel-\S+\.opbk) is ready\./.exec(await mainText(page()))?.[1] ?? '';
    expect(archive).toMatch(/^orepanel-\d{8}-\d{6}(-\d+)?-manual\.opbk$/);

    const row = page().getByRole('row').filter({ hasText: archive });
    await row.waitFor(WAIT);
    const cells = (await row.innerText()).replace(/\s+/g, ' ');
    expect(cells).toContain('Manual');
    expect(cells).toContain('This server');
    expect(cells).toMatch(/\d+(\.\d)? (kB|MB|bytes?)/);
    await shot('listed-1280');
  });

  it('verifies it in place', { timeout: 60_000 }, async () => {
    await page()
      .getByRole('button', { name: `Verify ${archive}` })
      .click();
    await expect.poll(() => mainText(page()), WAIT).toContain(`${archive} is intact: every checksum matches.`);
    expect(await mainText(page())).toMatch(/\d+ tables, [\d,]+ rows/);
  });

  it('downloads it: the file is the archive, of the size the list shows', { timeout: 60_000 }, async () => {
    const listed = await page().evaluate(async (name) => {
      const list = (await (await fetch('/api/admin/backups')).json()) as { data: { name: string; size: number }[] };
      return list.data.find((row) => row.name === name)?.size ?? -1;
    }, archive);
    const [download] = await Promise.all([
      page().waitForEvent('download', WAIT),
      page()
        .getByRole('link', { name: `Download ${archive}` })
        .click(),
    ]);
    expect(download.suggestedFilename()).toBe(archive);
    const path = await download.path();
    const bytes = readFileSync(path);
    expect(bytes.length).toBe(listed);
    // still on the page: a download is not a navigation away
    expect(page().url()).toBe(`${panel.url}/mc-admin/backups`);
  });

  it('asks a root administrator for the panel’s name and the password before a restore, says what it replaces, and closes on Escape', { timeout: 60_000 }, async () => {
    await page()
      .getByRole('button', { name: `Restore ${archive}` })
      .click();
    const dialog = page().getByRole('dialog', { name: 'Restore this backup?' });
    await dialog.waitFor(WAIT);
    expect(await dialog.innerText()).toContain('accounts and passwords are those of the backup, and everyone is signed out');
    const confirm = dialog.getByRole('button', { name: 'Restore', exact: true });
    expect(await confirm.isDisabled()).toBe(true);
    const appName = await page().evaluate(async () => ((await (await fetch('/api/system/settings')).json()) as { app_name: string }).app_name);
    await dialog.getByLabel(`Type the panel's name, ${appName}, to confirm`).fill(`${appName}x`);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel(`Type the panel's name, ${appName}, to confirm`).fill(appName);
    expect(await confirm.isDisabled()).toBe(false);
    await expect.poll(() => dialog.getByLabel('Your password').count()).toBe(1);
    await shot('restore-dialog-1280');
    await page().setViewportSize({ width: 390, height: 844 });
    await expect.poll(noSidewaysScroll, WAIT).toBe(true);
    await shot('restore-dialog-390');
    await page().keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached', ...WAIT });
  });

  it('fits a 390 px phone without sideways scrolling', { timeout: 60_000 }, async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await expect.poll(noSidewaysScroll, WAIT).toBe(true);
    await shot('listed-390');
    await page().setViewportSize({ width: 1280, height: 800 });
  });

  it('deletes it after the confirmation, and the list is empty again', { timeout: 60_000 }, async () => {
    await page()
      .getByRole('button', { name: `Delete ${archive}` })
      .click();
    const confirm = page().getByRole('dialog').getByRole('button', { name: 'Delete', exact: true });
    await confirm.waitFor(WAIT);
    await confirm.click();
    await expect.poll(() => mainText(page()), WAIT).toContain('No backups yet.');
    const left = await page().evaluate(async () => ((await (await fetch('/api/admin/backups')).json()) as { data: unknown[] }).data.length);
    expect(left).toBe(0);
  });
});
