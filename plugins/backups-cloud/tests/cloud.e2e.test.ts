// Issue 13's off-site screen in chromium against the BUILT panel and a local S3-compatible server
// (s3rver): a root administrator finds /mc-admin/cloud-backups not set up (it says so, and why),
// tests a connection to an address nobody answers (the failing step in words), fills in the local
// bucket, tests it (every step passes) and saves it; uploads a local backup, follows its progress and
// sees it listed off-site. On a 390 px phone nothing scrolls sideways.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../../tests/api/s3-server';
import { cliFor, launchBrowser, mainText, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 30_000 };
const BUCKET = 'e2e-offsite';
/** where the screenshots go when OREPANEL_SCREENSHOTS names a folder (to look at the page) */
const SHOTS = process.env.OREPANEL_SCREENSHOTS ?? null;

let dataDir: string;
let s3: TestS3;
let panel: RunningPanel;
let browser: Browser;
let probe: PageProbe;
let archive = '';
const admin = uniqueName('root');

const page = (): Page => probe.page;
const shot = async (name: string) => {
  if (SHOTS) await page().screenshot({ path: join(SHOTS, `cloud-${name}.png`), fullPage: true });
};
const noSidewaysScroll = () => page().evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
const form = () => page().getByRole('form', { name: 'Connection' });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

beforeAll(async () => {
  s3 = await startTestS3(BUCKET);
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-cloud-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', admin, '--email', `${admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  // the page follows a transfer every second; the app-wide 100 a minute per address is not what this file tests
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  // a local backup to send off-site
  archive = /orepanel-\S+\.opbk/.exec(cli(['backup', 'create']))?.[0] ?? '';
  expect(archive).toMatch(/^orepanel-\d{8}-\d{6}(-\d+)?-manual\.opbk$/);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  probe = await signInThroughApi(browser, panel.url, admin, PASSWORD);
}, 120_000);

afterAll(async () => {
  expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  await s3?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the off-site backups screen in the browser', () => {
  it('says that nothing is set up yet, and lists the local backup without an upload', { timeout: 60_000 }, async () => {
    await page().goto(`${panel.url}/mc-admin/cloud-backups`);
    await page().getByRole('main').getByRole('heading', { name: 'Off-site backups', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(page()), WAIT).toContain('Off-site copies are not set up');
    const text = await mainText(page());
    expect(text).toContain('every backup stays only on this server');
    expect(text).toContain(archive);
    expect(
      await page()
        .getByRole('button', { name: `Upload ${archive} off-site` })
        .count(),
    ).toBe(0);
    // the sidebar leads here
    expect(await page().getByRole('link', { name: 'Off-site backups' }).count()).toBeGreaterThan(0);
    await shot('not-configured-1280');
  });

  it('tests a connection step by step and says in words which step failed', { timeout: 60_000 }, async () => {
    const port = await closedPort();
    await form().getByLabel('Service address').fill(`http://127.0.0.1:${port}`);
    await form().getByLabel('Bucket', { exact: true }).fill(BUCKET);
    await form().getByLabel('Folder').fill('panel-e2e/');
    await form().getByLabel('Access key id').fill('S3RVER');
    await form().getByLabel('Secret access key', { exact: true }).fill('S3RVER');
    await form().getByLabel('Put the bucket name in the path').check();
    await form().getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => form().innerText(), WAIT).toContain('The connection does not work yet.');
    const said = (await form().innerText()).replace(/\s+/g, ' ');
    expect(said).toContain('List the folder');
    expect(said).toContain('The storage service could not be reached');
    expect(said).toContain(`127.0.0.1:${port}`);
    await shot('test-failed-1280');
  });

  it('tests the real bucket (every step passes) and saves it; the secret is then only "set"', { timeout: 60_000 }, async () => {
    await form().getByLabel('Service address').fill(s3.env.FILES_S3_ENDPOINT);
    await form().getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(() => form().innerText(), WAIT).toContain('The connection works.');
    const said = (await form().innerText()).replace(/\s+/g, ' ');
    for (const step of ['List the folder', 'Write a small test file', 'Read it back', 'Delete it']) expect(said).toContain(step);
    // the probe is gone again
    expect(await s3.keys('panel-e2e/')).toEqual([]);

    await form().getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => form().innerText(), WAIT).toContain('The connection was saved.');
    await expect.poll(() => mainText(page()), WAIT).toContain('No off-site copies yet');
    expect(await mainText(page())).not.toContain('Off-site copies are not set up');
    expect(await form().getByLabel('Secret access key', { exact: true }).inputValue()).toBe('');
    expect(await form().innerText()).toContain('Set. Leave empty to keep it.');
    await shot('configured-1280');
  });

  it('uploads the local backup with a progress card and lists it off-site', { timeout: 90_000 }, async () => {
    await page()
      .getByRole('button', { name: `Upload ${archive} off-site` })
      .click();
    await expect.poll(() => mainText(page()), WAIT).toMatch(new RegExp(`(Uploading|Uploaded) ${archive.replace(/\./g, '\\.')}`));
    await expect.poll(() => mainText(page()), WAIT).toContain(`Uploaded ${archive}`);
    const offsite = page().getByRole('table', { name: 'Held off-site' }).getByRole('row').filter({ hasText: archive });
    await offsite.waitFor(WAIT);
    const cells = (await offsite.innerText()).replace(/\s+/g, ' ');
    expect(cells).toContain('Manual');
    expect(cells).toContain('Also on this server');
    expect(cells).toMatch(/\d+(\.\d)? (kB|MB|bytes?)/);
    expect(await s3.keys('panel-e2e/')).toEqual([`panel-e2e/${archive}`]);
    // the local list marks it, and offers no second upload
    const local = page().getByRole('table', { name: 'On this server' }).getByRole('row').filter({ hasText: archive });
    expect((await local.innerText()).replace(/\s+/g, ' ')).toContain('Also off-site');
    expect(
      await page()
        .getByRole('button', { name: `Upload ${archive} off-site` })
        .count(),
    ).toBe(0);
    await shot('uploaded-1280');
  });

  it('fits a 390 px phone', { timeout: 60_000 }, async () => {
    await page().setViewportSize({ width: 390, height: 844 });
    await page().reload();
    await page().getByRole('main').getByRole('heading', { name: 'Off-site backups', level: 1 }).waitFor(WAIT);
    await expect.poll(() => mainText(page()), WAIT).toContain(archive);
    await expect.poll(noSidewaysScroll, WAIT).toBe(true);
    await shot('phone-390');
  });
});
