// The built browser files: precompressed variants by Accept-Encoding, types, ETags, long caching for
// content-hashed files, no-cache for index.html and sw.js, and the SPA fallback. The files are fakes
// in a temporary folder; the database is SQLite (static serving does not touch it).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { brotliCompressSync, gunzipSync, gzipSync, brotliDecompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheControlFor } from '../../server/http/static-files';
import { startPanel, type TestPanel } from './harness';

const INDEX = '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/kernel-AbCd1234.js"></script></body></html>';
const KERNEL = 'console.log("kernel");'.repeat(20);

describe('static files and the SPA fallback', () => {
  let panel: TestPanel;
  let publicDir: string;

  const write = (path: string, content: string, compress = false) => {
    const full = join(publicDir, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
    if (compress) {
      writeFileSync(`${full}.gz`, gzipSync(content));
      writeFileSync(`${full}.br`, brotliCompressSync(content));
    }
  };

  beforeAll(async () => {
    publicDir = mkdtempSync(join(tmpdir(), 'orepanel-public-'));
    write('index.html', INDEX, true);
    write('assets/kernel-AbCd1234.js', KERNEL, true);
    write('assets/kernel-AbCd1234.css', 'body{margin:0}');
    write('assets/main.css', 'body{color:white}', true);
    write('assets/main-Mm11Nn22.css', 'body{color:white}', true);
    write('assets/main-Old00000.css', 'body{color:gray}');
    write('assets/logo-Zx81Qw22.png', 'PNGDATA');
    write('sw.js', 'self.addEventListener("fetch", () => {});', true);
    write('locales/en.json', '{"hello":"Hello"}');
    write('locales/en-Hh55Jj66.json', '{"hello":"Hello"}');
    write('plugins/auth/auth-Qw12Er34.js', 'System.register([], function () { return {}; });', true);
    write('favicon.ico', 'ICO');
    panel = await startPanel('sqlite', { publicDir });
  });
  afterAll(async () => {
    await panel?.close();
    rmSync(publicDir, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => panel.app.inject({ url, headers });

  it('serves brotli, then gzip, then identity by Accept-Encoding, with Vary', async () => {
    const br = await get('/assets/kernel-AbCd1234.js', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('Accept-Encoding');
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(KERNEL);

    const gz = await get('/assets/kernel-AbCd1234.js', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(KERNEL);

    const noBr = await get('/assets/kernel-AbCd1234.js', { 'accept-encoding': 'br;q=0, gzip' });
    expect(noBr.headers['content-encoding']).toBe('gzip');

    const plain = await get('/assets/kernel-AbCd1234.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(plain.body).toBe(KERNEL);
    expect(plain.headers['content-length']).toBe(String(KERNEL.length));
  });

  it('caches content-hashed files for a year and answers 304 to a matching ETag', async () => {
    const res = await get('/assets/kernel-AbCd1234.js', { 'accept-encoding': 'br' });
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^".+-br"$/);
    const again = await get('/assets/kernel-AbCd1234.js', { 'accept-encoding': 'br', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // a different encoding is a different representation with its own tag
    const plainTag = (await get('/assets/kernel-AbCd1234.js')).headers.etag;
    expect(plainTag).not.toBe(etag);
    expect((await get('/plugins/auth/auth-Qw12Er34.js')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await get('/locales/en-Hh55Jj66.json')).headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('revalidates index.html, sw.js and unhashed files every time', async () => {
    const index = await get('/', { 'accept-encoding': 'br' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['cache-control']).toBe('no-cache');
    expect(index.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(index.headers['content-encoding']).toBe('br');
    const sw = await get('/sw.js');
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['service-worker-allowed']).toBe('/');
    expect(sw.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect((await get('/locales/en.json')).headers['cache-control']).toBe('no-cache');
    expect((await get('/favicon.ico')).headers['content-type']).toBe('image/x-icon');
  });

  it('falls back to index.html for app routes, never cached', async () => {
    for (const url of ['/dashboard', '/auth/login?next=1', '/profile/0b3c-uuid', '/mc-admin/plugins/legal/config']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('answers 404 for a missing asset instead of the page, and JSON 404 under /api', async () => {
    expect((await get('/assets/missing-Aa11Bb22.js')).statusCode).toBe(404);
    expect((await get('/plugins/auth/gone-Aa11Bb22.js')).statusCode).toBe(404);
    expect((await get('/api/nope')).json()).toEqual({ error: { code: 'NOT_FOUND', message: 'Not found.' } });
  });

  it('never serves files outside the public folder', async () => {
    for (const url of ['/../package.json', '/assets/../../package.json', '/%2e%2e/%2e%2e/package.json', '/assets/%2e%2e%2f%2e%2e%2fpackage.json']) {
      const res = await get(url);
      expect(res.body, url).not.toContain('"name"');
    }
  });

  it('answers GET /assets/main.css (spec §7): the current stylesheet, revalidated; by version, the hashed copy for a year', async () => {
    const bare = await get('/assets/main.css', { 'accept-encoding': 'br' });
    expect(bare.statusCode).toBe(200);
    expect(bare.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(bare.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(bare.rawPayload).toString()).toBe('body{color:white}');
    expect((await get('/assets/main.css', { 'if-none-match': (await get('/assets/main.css')).headers.etag as string })).statusCode).toBe(304);

    const versioned = await get('/assets/main.css?v=Mm11Nn22', { 'accept-encoding': 'gzip' });
    expect(versioned.statusCode).toBe(200);
    expect(versioned.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(gunzipSync(versioned.rawPayload).toString()).toBe('body{color:white}');
    // a page of the release before keeps the stylesheet it was built with
    expect((await get('/assets/main.css?v=Old00000')).body).toBe('body{color:gray}');
    // an unknown or odd version is the current stylesheet, never cached for long, never another file
    for (const url of ['/assets/main.css?v=Gone1234', '/assets/main.css?v=../../index', '/assets/main.css?v=', '/assets/main.css?x=1']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('body{color:white}');
      expect(res.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await panel.app.inject({ method: 'HEAD', url: '/assets/kernel-AbCd1234.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(KERNEL.length));
    expect(res.body).toBe('');
  });

  it('chooses cache policies by path', () => {
    expect(cacheControlFor('/assets/x-12345678.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('/assets/main.css')).toBe('no-cache');
    expect(cacheControlFor('/locales/de.json')).toBe('no-cache');
    expect(cacheControlFor('/sw.js')).toBe('no-cache');
    expect(cacheControlFor('/robots.txt')).toBe('no-cache');
  });
});

describe('before the first build', () => {
  it('answers 503 with a hint instead of a page', async () => {
    const panel = await startPanel('sqlite');
    try {
      const res = await panel.app.inject({ url: '/dashboard' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
      expect((await panel.app.inject({ url: '/api/system/settings' })).statusCode).toBe(200);
    } finally {
      await panel.close();
    }
  });
});
