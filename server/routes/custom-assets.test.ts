// custom.css and custom.js (spec §4.1, §7; issue 15): index.html names a revision of each — null and
// no preload hint while one is empty, so the kernel does not ask for it — and the address with the
// current revision is cached for a year; without it, or with an old one, the answer is revalidated.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, servicesOf } from '../app';
import { loadConfig } from '../config';
import { BOOT_ELEMENT_ID, BOOT_MARKER } from '../http/index-document';
import { IMMUTABLE } from '../http/static-files';
import { customAssetRevision } from './custom-assets';

const TEMPLATE = `<!doctype html><html><head>${BOOT_MARKER}<script type="module" src="/assets/kernel-x.js"></script></head><body><div id="app"></div></body></html>`;

describe('custom.css and custom.js by revision', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orepanel-custom-'));
    writeFileSync(join(dir, 'index.html'), TEMPLATE);
    app = await buildApp({
      config: loadConfig({ DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' }),
      logger: false,
      builtPlugins: false,
      pluginDirs: [],
      publicDir: dir,
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await servicesOf(app).settings.set('custom_css', '');
    await servicesOf(app).settings.set('custom_js', '');
  });

  async function page() {
    const html = (await app.inject({ url: '/auth/login' })).body;
    const match = new RegExp(`<script type="application/json" id="${BOOT_ELEMENT_ID}">(.*?)</script>`).exec(html);
    if (!match) throw new Error('no boot block');
    return { html, custom: (JSON.parse(match[1]) as { custom: { css: string | null; js: string | null } }).custom };
  }

  it('empty: null revisions and no preload hint, so the kernel asks for neither', async () => {
    const { html, custom } = await page();
    expect(custom).toEqual({ css: null, js: null });
    expect(html).not.toContain('/api/system/custom.');
  });

  it('not empty: the revision of its body, preloaded by that address', async () => {
    await servicesOf(app).settings.set('custom_css', 'body { color: red; }');
    const { html, custom } = await page();
    expect(custom.css).toBe(customAssetRevision('body { color: red; }'));
    expect(custom.js).toBeNull();
    expect(html).toContain(`<link rel="preload" href="/api/system/custom.css?v=${custom.css}" as="style">`);
    expect(html).not.toContain('/api/system/custom.js');
    // the hints come before the kernel's script, and the stylesheet still loads first (spec §4.1)
    expect(html.indexOf('custom.css?v=')).toBeLessThan(html.indexOf('kernel-x.js'));

    const cached = await app.inject({ url: `/api/system/custom.css?v=${custom.css}` });
    expect(cached.statusCode).toBe(200);
    expect(cached.body).toBe('body { color: red; }');
    expect(cached.headers['cache-control']).toBe(IMMUTABLE);
  });

  it('a change gives a new revision; the old address answers the new body, revalidated', async () => {
    await servicesOf(app).settings.set('custom_js', 'window.a = 1');
    const before = (await page()).custom.js;
    await servicesOf(app).settings.set('custom_js', 'window.a = 2');
    const after = (await page()).custom.js;
    expect(after).not.toBe(before);
    const old = await app.inject({ url: `/api/system/custom.js?v=${before}` });
    expect(old.body).toBe('window.a = 2');
    expect(old.headers['cache-control']).toBe('no-cache');
  });

  it('the plain address is revalidated with an ETag (304 when unchanged)', async () => {
    await servicesOf(app).settings.set('custom_css', 'a { color: blue; }');
    const first = await app.inject({ url: '/api/system/custom.css' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = String(first.headers.etag);
    expect(etag).toBe(`"${customAssetRevision('a { color: blue; }')}"`);
    const again = await app.inject({ url: '/api/system/custom.css', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    const empty = await app.inject({ url: '/api/system/custom.js' });
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toBe('');
  });

  it('refuses an overlong revision (400), serving nothing', async () => {
    const res = await app.inject({ url: `/api/system/custom.css?v=${'x'.repeat(65)}` });
    expect(res.statusCode).toBe(400);
  });
});
