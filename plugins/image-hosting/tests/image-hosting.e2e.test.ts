// Image hosting in chromium against the BUILT panel, as issue 12 asks to see it: a customer reveals
// the key on /images/config and downloads the .sxcu, a script uploads with it exactly as ShareX would
// (the .sxcu's URL, method, header and form field; no cookie), the image shows on /images, its viewer
// link serves it, and rotating the key on the page (after a confirm) makes the old key fail with 401;
// both pages fit a phone's width.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from '../../../tests/e2e/harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const steve = uniqueName('steve');

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}
/** a 2×2 PNG */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  pngChunk('IHDR', Buffer.from([0, 0, 0, 2, 0, 0, 0, 2, 8, 2, 0, 0, 0])),
  pngChunk('IDAT', deflateSync(Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 0, 0, 255]))),
  pngChunk('IEND', Buffer.alloc(0)),
]);

interface Sxcu {
  RequestURL: string;
  RequestMethod: string;
  Headers: Record<string, string>;
  FileFormName: string;
  URL: string;
}

/** What ShareX does with a .sxcu: the file as multipart under FileFormName, the headers, no cookie. */
async function shareXUpload(sxcu: Sxcu, headers = sxcu.Headers): Promise<{ status: number; body: { url?: string } }> {
  const form = new FormData();
  form.append(sxcu.FileFormName, new Blob([new Uint8Array(PNG)], { type: 'image/png' }), 'Screenshot_001.png');
  const res = await fetch(sxcu.RequestURL, { method: sxcu.RequestMethod, headers, body: form });
  return { status: res.status, body: (await res.json()) as { url?: string } };
}

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
let customer: PageProbe;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-image-hosting-'));
  cliFor(dataDir)(['user', 'create', '--username', steve, '--email', `${steve}@example.com`, '--password', PASSWORD, '--role', '1']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  customer = await signInThroughApi(browser, panel.url, steve, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('image hosting with ShareX', () => {
  it('downloads the .sxcu, uploads with its key from a script, shows the image, and a rotated key stops the old one', async () => {
    const { page } = customer;
    await page.goto(`${panel.url}/images/config`);
    await page.getByRole('button', { name: 'Reveal' }).click(WAIT);
    const shownKey = (await page.locator('code', { hasText: 'ohk_' }).textContent(WAIT)) ?? '';
    expect(shownKey).toMatch(/^ohk_/);

    const download = page.waitForEvent('download', WAIT);
    await page.getByRole('link', { name: /Download ShareX file/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.sxcu$/);
    const path = await file.path();
    const sxcu = JSON.parse(await (await import('node:fs/promises')).readFile(path, 'utf8')) as Sxcu;
    expect(sxcu.Headers['X-Upload-Key']).toBe(shownKey);
    expect(sxcu.URL).toBe('{json:url}');

    const uploaded = await shareXUpload(sxcu);
    expect(uploaded.status).toBe(201);
    const link = uploaded.body.url ?? '';
    expect(link).toMatch(/\/api\/i\/[A-Za-z0-9_-]{16}$/);

    await page.goto(`${panel.url}/images`);
    await page.getByText('Screenshot_001.png').waitFor(WAIT);
    const thumb = page.locator('img[alt="Screenshot_001.png"]');
    await thumb.waitFor(WAIT);
    await page.waitForFunction((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 2, await thumb.elementHandle(), WAIT);

    const viewer = await customer.context.newPage();
    const answer = await viewer.goto(new URL(new URL(link).pathname, panel.url).toString());
    expect(answer?.status()).toBe(200);
    expect(answer?.headers()['content-type']).toBe('image/png');
    expect(answer?.headers()['x-content-type-options']).toBe('nosniff');
    await viewer.close();

    await page.goto(`${panel.url}/images/config`);
    await page.getByRole('button', { name: 'Make a new key' }).click(WAIT);
    await page.locator('.swal2-confirm').click(WAIT);
    await page.locator('code', { hasText: 'ohk_' }).waitFor(WAIT);
    await expect.poll(async () => (await page.locator('code', { hasText: 'ohk_' }).textContent()) ?? '', WAIT).not.toBe(shownKey);
    const fresh = (await page.locator('code', { hasText: 'ohk_' }).textContent()) ?? '';

    const refused = await shareXUpload(sxcu);
    expect(refused.status).toBe(401);
    expect((await shareXUpload(sxcu, { 'X-Upload-Key': fresh })).status).toBe(201);
    expect(customer.errors).toEqual([]);
  });

  it('fits a phone: /images and /images/config scroll only downwards', async () => {
    const { page } = customer;
    await page.setViewportSize({ width: 375, height: 740 });
    for (const [path, text] of [
      ['/images', 'Screenshot_001.png'],
      ['/images/config', 'Upload key'],
    ] as const) {
      await page.goto(`${panel.url}${path}`);
      await page.getByText(text, { exact: true }).first().waitFor(WAIT);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, path).toBeLessThanOrEqual(0);
    }
  });
});
