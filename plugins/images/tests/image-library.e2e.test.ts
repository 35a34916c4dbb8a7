// Issue 12's must-show for the image library, in chromium against the BUILT panel wired to the
// Pterodactyl stand-in: an administrator uploads a picture on /mc-admin/images/create (the page's
// file picker, a real PNG), sees it in the grid, picks it for a location from that location's edit
// form; a customer's /server/create shows the location with the picture (loaded, served publicly
// with the year-long cache); deleting the picture is refused while the location uses it (the delete
// page names the location) and goes through once the location has another picture.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPterodactylPanel, type PterodactylStandIn } from '../../../tests/fixtures/pterodactyl-panel';
import { cliFor, launchBrowser, mainText, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const PICTURE = 'Bucharest skyline';

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** a 4×4 red PNG a browser decodes */
const RED_PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0])),
  pngChunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: 4 }, () => Buffer.from([0, 255, 0, 0, 255, 0, 0, 255, 0, 0, 255, 0, 0]))))),
  pngChunk('IEND', Buffer.alloc(0)),
]);

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let ptero: PterodactylStandIn;
const names = { admin: uniqueName('admin'), steve: uniqueName('steve') };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};
let locationId = 0;
let imageId = 0;
let imageUrl = '';

function pageOf(who: keyof typeof names): Page {
  const probe = probes[who];
  if (!probe) throw new Error(`${who} is not signed in`);
  return probe.page;
}

async function adminCall(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const answer = await pageOf('admin').evaluate(
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
  return { status: answer.status, body: answer.text ? (JSON.parse(answer.text) as unknown) : null };
}

async function ok(method: string, path: string, body?: unknown): Promise<unknown> {
  const answer = await adminCall(method, path, body);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

async function open(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${panel.url}${path}`);
  await page.getByRole('main').getByRole('heading', { name: heading, level: 1 }).waitFor(WAIT);
}

/** the image shows: loaded and decoded, not the broken-picture fallback */
const loaded = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth);

beforeAll(async () => {
  ptero = await startPterodactylPanel();
  ptero.seedSample();
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-images-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', names.admin, '--email', `${names.admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  cli(['user', 'create', '--username', names.steve, '--email', `${names.steve}@example.com`, '--password', PASSWORD, '--role', '1']);
  // two browsers on one address: the app-wide 100 a minute per address is not what this file tests
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  for (const who of ['admin', 'steve'] as const) probes[who] = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
  await ok('PATCH', '/api/admin/settings', { values: { pterodactyl_base_url: ptero.url, pterodactyl_api_key: ptero.apiKey } });
  for (const kind of ['locations', 'categories', 'eggs']) await ok('POST', `/api/admin/catalog/sync/${kind}`);
  for (const [list, patch] of [
    ['/api/admin/locations', { enabled: true, slots: 10 }],
    ['/api/admin/egg-categories', { enabled: true }],
    ['/api/admin/eggs', { enabled: true }],
  ] as const) {
    const rows = (await ok('GET', `${list}?page=1&per_page=50`)) as { data: { id: number; name: string }[] };
    for (const row of rows.data) await ok('PATCH', `${list}/${row.id}`, patch);
    if (list === '/api/admin/locations') locationId = rows.data.find((row) => row.name.startsWith('Bucharest'))?.id ?? 0;
  }
}, 90_000);

afterAll(async () => {
  for (const probe of Object.values(probes)) expect(probe?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  await ptero?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('the image library in the browser', () => {
  it('an administrator uploads a picture with the page’s file picker and sees it in the grid', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await open(admin, '/mc-admin/images/create', 'Upload an image');
    await admin.getByLabel('Name').fill(PICTURE);
    await admin.locator('[data-testid="file-picker-input"]').setInputFiles({ name: 'skyline.png', mimeType: 'image/png', buffer: RED_PNG });
    await admin.getByRole('button', { name: 'Upload', exact: true }).click();
    await admin.waitForURL(`${panel.url}/mc-admin/images`, WAIT);
    await expect.poll(() => mainText(admin), WAIT).toContain(PICTURE);
    await expect.poll(() => mainText(admin), WAIT).toContain('4×4');
    await expect.poll(() => loaded(admin, 'main img'), WAIT).toBe(4);
    // on a phone the grid takes the width without scrolling sideways
    await admin.setViewportSize({ width: 360, height: 740 });
    await expect.poll(() => admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), WAIT).toBe(true);
    await admin.setViewportSize({ width: 1280, height: 800 });
    const list = (await ok('GET', '/api/admin/images?search=skyline')) as { data: { id: number; url: string }[] };
    imageId = list.data[0]?.id ?? 0;
    imageUrl = list.data[0]?.url ?? '';
    expect(imageUrl).toMatch(/^\/api\/library-images\/[A-Za-z0-9_-]{22}\.png$/);
  });

  it('picks it for a location from the library in the location’s form; the customer’s /server/create shows it', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await open(admin, `/mc-admin/locations/${locationId}/edit`, /^Edit Bucharest/);
    await admin.getByRole('button', { name: 'Choose from the library' }).click();
    await admin.getByRole('button', { name: `Use ${PICTURE}` }).click();
    await expect.poll(() => admin.getByLabel('Image', { exact: true }).inputValue(), WAIT).toBe(imageUrl);
    await admin.getByRole('button', { name: 'Save changes' }).click();
    await expect.poll(async () => ((await ok('GET', `/api/admin/locations/${locationId}`)) as { location: { image: string } }).location.image, WAIT).toBe(imageUrl);

    const steve = pageOf('steve');
    await open(steve, '/server/create', 'Create a server');
    const card = steve.getByRole('radio', { name: /^Bucharest/ });
    await card.waitFor(WAIT);
    // the picture is requested once it is on screen (LazyImage): its address comes a moment after the card
    await expect.poll(() => card.locator('img').getAttribute('src'), WAIT).toBe(imageUrl);
    await expect.poll(() => card.locator('img').evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT).toBe(4);
    const served = await steve.evaluate(async (url) => {
      const res = await fetch(url);
      return { status: res.status, cache: res.headers.get('cache-control'), type: res.headers.get('content-type') };
    }, imageUrl);
    expect(served).toEqual({ status: 200, cache: 'public, max-age=31536000, immutable', type: 'image/png' });
  });

  it('refuses to delete the picture while the location shows it, naming the location, and deletes it once it does not', { timeout: 60_000 }, async () => {
    const admin = pageOf('admin');
    await open(admin, `/mc-admin/images/${imageId}/delete`, 'Delete image');
    await expect.poll(() => mainText(admin), WAIT).toContain(`${PICTURE} is in use`);
    await expect.poll(() => mainText(admin), WAIT).toMatch(/Location Bucharest/);
    const refused = await adminCall('DELETE', `/api/admin/images/${imageId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'IMAGE_IN_USE' } });

    await ok('PATCH', `/api/admin/locations/${locationId}`, { image: null });
    await open(admin, `/mc-admin/images/${imageId}/delete`, 'Delete image');
    await admin.getByRole('button', { name: 'Delete the picture' }).click();
    await admin.waitForURL(`${panel.url}/mc-admin/images`, WAIT);
    await expect.poll(() => mainText(admin), WAIT).toContain('No pictures yet.');
    // asked past the browser's cache, which may keep the picture (immutable for a year): the server no longer has it
    const gone = await admin.evaluate(async (url) => (await fetch(url, { cache: 'no-store' })).status, imageUrl);
    expect(gone).toBe(404);
  });
});
