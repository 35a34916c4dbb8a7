// Issue 14's must-show for lazy images (spec §5, §9: lazy load margin 50px, threshold 0.1), in chromium
// against the BUILT panel: an administrator's image library holds 24 pictures; on /mc-admin/images
// only the pictures on screen are requested — the ones below the fold are requested when the page
// is scrolled to them, not before. With the lazyLoading setting off (the customisation panel's
// switch, saved in ui-settings) every picture is requested at once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, openPage, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const PICTURES = 24;

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** a 4×4 PNG of one colour (each picture its own bytes) */
function png(shade: number): Buffer {
  const row = Buffer.from([0, ...Array.from({ length: 4 }, () => [shade, 80, 160]).flat()]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', Buffer.from([0, 0, 0, 4, 0, 0, 0, 4, 8, 2, 0, 0, 0])),
    pngChunk('IDAT', deflateSync(Buffer.concat([row, row, row, row]))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let admin: PageProbe;
const adminName = uniqueName('admin');
/** the library pictures' addresses, in upload order */
const urls: string[] = [];

/** Opens a fresh page (nothing cached) that shares the admin's cookies and records picture requests. */
async function watchedPage(ui?: unknown): Promise<{ page: Page; requested: Set<string> }> {
  const page = await admin.context.newPage();
  await page.setViewportSize({ width: 1280, height: 700 });
  if (ui !== undefined) await page.addInitScript((value) => localStorage.setItem('ui-settings', value), JSON.stringify(ui));
  const requested = new Set<string>();
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (urls.includes(path)) requested.add(path);
  });
  return { page, requested };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-lazy-images-'));
  const cli = cliFor(dataDir);
  cli(['user', 'create', '--username', adminName, '--email', `${adminName}@example.com`, '--password', PASSWORD, '--role', '8']);
  // several pages on one address: the app-wide 100 a minute per address is not what this file tests
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  admin = await signInThroughApi(browser, panel.url, adminName, PASSWORD);
  for (let n = 0; n < PICTURES; n++) {
    const answer = await admin.page.evaluate(
      async ({ name, bytes }) => {
        const form = new FormData();
        form.append('name', name);
        form.append('file', new File([new Uint8Array(bytes)], `${name}.png`, { type: 'image/png' }));
        const res = await fetch('/api/admin/images', { method: 'POST', body: form });
        return { status: res.status, text: await res.text() };
      },
      { name: `Picture ${String(n + 1).padStart(2, '0')}`, bytes: [...png(n * 10)] },
    );
    expect(answer.status, answer.text).toBe(201);
    urls.push((JSON.parse(answer.text) as { image: { url: string } }).image.url);
  }
}, 120_000);

afterAll(async () => {
  expect(admin?.errors ?? [], 'uncaught page errors').toEqual([]);
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('lazy images in the browser', () => {
  it('requests the pictures below the fold only when they are scrolled to', { timeout: 90_000 }, async () => {
    const { page, requested } = await watchedPage();
    await page.goto(`${panel.url}/mc-admin/images`);
    const cards = page.locator('main li img');
    await expect.poll(() => cards.count(), WAIT).toBe(PICTURES);
    // the pictures on screen load
    await expect.poll(() => page.locator('main img[data-lazy-image="loaded"]').count(), WAIT).toBeGreaterThan(0);
    await page.waitForTimeout(1_000);
    const onScreen = requested.size;
    expect(onScreen).toBeGreaterThan(0);
    expect(onScreen).toBeLessThan(PICTURES);
    // which ones: every picture requested is one near the screen (its top within the 50px margin)
    const near = await cards.evaluateAll((imgs) => imgs.map((img) => img.getBoundingClientRect().top < window.innerHeight + 50));
    const nearUrls = urls.filter((_, n) => near[n]);
    for (const path of requested) expect(nearUrls, path).toContain(path);
    // the last picture is far below the fold and was never asked for
    expect(requested.has(urls[PICTURES - 1]!)).toBe(false);
    expect(await cards.last().getAttribute('data-lazy-image')).toBe('waiting');
    expect(await cards.last().getAttribute('src')).toBeNull();

    // scrolled to the end: the rest is requested and shown
    await cards.last().scrollIntoViewIfNeeded();
    await expect.poll(() => requested.has(urls[PICTURES - 1]!), WAIT).toBe(true);
    await expect.poll(() => cards.last().getAttribute('data-lazy-image'), WAIT).toBe('loaded');
    await expect.poll(() => cards.last().evaluate((img) => (img as HTMLImageElement).naturalWidth), WAIT).toBe(4);
    await page.close();
  });

  it('with lazy loading switched off, every picture is requested at once', { timeout: 60_000 }, async () => {
    const { page, requested } = await watchedPage({ performance: { lazyLoading: false } });
    await page.goto(`${panel.url}/mc-admin/images`);
    await expect.poll(() => page.locator('main li img').count(), WAIT).toBe(PICTURES);
    await expect.poll(() => requested.size, WAIT).toBe(PICTURES);
    await page.close();
  });
});
