// index.html with its boot block: rendered and compressed once per version of its inputs (never per
// request), escaped so the JSON cannot close its <script>, never cached, and never sent from a
// precompressed copy that could hold stale plugins or settings.
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BOOT_ELEMENT_ID as KERNEL_BOOT_ELEMENT_ID } from '../../kernel/startup/boot-data';
import { buildApp, servicesOf } from '../app';
import { loadConfig } from '../config';
import { BOOT_MARKER, BOOT_ELEMENT_ID, IndexDocument, renderIndex, type BootInputs, type BootSource } from './index-document';

const TEMPLATE = `<!doctype html><html><head>${BOOT_MARKER}<script type="module" src="/assets/kernel-x.js"></script></head><body></body></html>`;

function bootBlock(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${BOOT_ELEMENT_ID}">(.*?)</script>`).exec(html);
  if (!match) throw new Error('no boot block');
  return JSON.parse(match[1]);
}

/** A source whose data the test changes; counts how often the page had to be rendered. */
function source(initial: BootInputs) {
  let inputs = initial;
  let version = 1;
  const reads = vi.fn(async () => inputs);
  const boot: BootSource = { version: async () => [version], inputs: reads };
  return {
    boot,
    reads,
    change(next: BootInputs) {
      inputs = next;
      version++;
    },
  };
}

describe('renderIndex', () => {
  it('writes the plugins and settings at the marker, with every < escaped', () => {
    const html = renderIndex(TEMPLATE, {
      pluginsJson: JSON.stringify([{ id: 'auth', sdk: '^2.0.0', name: '</script><script>alert(1)</script>' }]),
      settings: { app_name: '<!-- x' },
    });
    expect(html).not.toContain(BOOT_MARKER);
    expect(html).not.toContain('</script><script>alert');
    expect(html).not.toContain('<!-- x');
    expect(html).toContain('\\u003c/script>');
    expect(bootBlock(html)).toEqual({ plugins: [{ id: 'auth', sdk: '^2.0.0', name: '</script><script>alert(1)</script>' }], settings: { app_name: '<!-- x' } });
  });

  it('leaves a page without the marker as it is', () => {
    expect(renderIndex('<html></html>', { pluginsJson: '[]', settings: {} })).toBe('<html></html>');
  });

  it('uses the element id the kernel reads', () => {
    expect(BOOT_ELEMENT_ID).toBe(KERNEL_BOOT_ELEMENT_ID);
  });
});

describe('IndexDocument served by Fastify', () => {
  let dir: string;
  let file: string;
  let app: FastifyInstance;
  let data: ReturnType<typeof source>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orepanel-index-'));
    file = join(dir, 'index.html');
    writeFileSync(file, TEMPLATE);
    // stale precompressed copies of the template: they must never be sent
    writeFileSync(`${file}.gz`, gzipSync('stale'));
    data = source({ pluginsJson: '[{"id":"auth","sdk":"^2.0.0"}]', settings: { app_name: 'First' } });
    const index = new IndexDocument(file, data.boot);
    app = Fastify();
    app.get('/', (request, reply) => index.send(request, reply));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (headers: Record<string, string> = {}) => app.inject({ url: '/', headers });

  it('sends the rendered page in every encoding, never cached', async () => {
    const plain = await get();
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    expect(bootBlock(plain.body)).toEqual({ plugins: [{ id: 'auth', sdk: '^2.0.0' }], settings: { app_name: 'First' } });

    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    const br = await get({ 'accept-encoding': 'gzip, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
  });

  it('renders once per version, not per request, and again when the plugins or settings change', async () => {
    data.reads.mockClear();
    for (let i = 0; i < 5; i++) await get({ 'accept-encoding': 'br' });
    expect(data.reads).not.toHaveBeenCalled();

    data.change({ pluginsJson: '[]', settings: { app_name: 'Second' } });
    const gz = await get({ 'accept-encoding': 'gzip' });
    // the compressed copy is of the new page: no stale boot data in any encoding
    expect(bootBlock(gunzipSync(gz.rawPayload).toString())).toEqual({ plugins: [], settings: { app_name: 'Second' } });
    expect(bootBlock(brotliDecompressSync((await get({ 'accept-encoding': 'br' })).rawPayload).toString())).toEqual({ plugins: [], settings: { app_name: 'Second' } });
    expect(data.reads).toHaveBeenCalledTimes(1);
  });

  it('answers 304 to its ETag, and a new ETag once the data changed', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect((await get({ 'accept-encoding': 'br', 'if-none-match': etag })).statusCode).toBe(304);
    data.change({ pluginsJson: '[]', settings: { app_name: 'Third' } });
    const after = await get({ 'accept-encoding': 'br', 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('picks up a rebuilt index.html (new asset hashes)', async () => {
    writeFileSync(file, TEMPLATE.replace('kernel-x.js', 'kernel-y.js'));
    const later = new Date(Date.now() + 5000);
    utimesSync(file, later, later);
    const page = await get();
    expect(page.body).toContain('/assets/kernel-y.js');
    expect(bootBlock(page.body)).toEqual({ plugins: [], settings: { app_name: 'Third' } });
  });

  it('renders one page for concurrent first requests', async () => {
    data.change({ pluginsJson: '[]', settings: { app_name: 'Fourth' } });
    data.reads.mockClear();
    const pages = await Promise.all(Array.from({ length: 8 }, () => get()));
    expect(new Set(pages.map((p) => p.body)).size).toBe(1);
    expect(data.reads).toHaveBeenCalledTimes(1);
  });
});

describe('the panel writes GET /api/system/plugins and /api/system/settings into index.html', () => {
  let dir: string;
  let app: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'orepanel-boot-'));
    writeFileSync(join(dir, 'index.html'), TEMPLATE);
    app = await buildApp({
      config: loadConfig({ DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' }),
      logger: false,
      builtPlugins: false,
      pluginDirs: [fileURLToPath(new URL('../../tests/fixtures/plugins', import.meta.url))],
      publicDir: dir,
    });
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function bootAndApi() {
    const page = await app.inject({ url: '/dashboard', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['cache-control']).toBe('no-cache');
    const boot = bootBlock(brotliDecompressSync(page.rawPayload).toString()) as { plugins: { id: string }[]; settings: Record<string, unknown> };
    const plugins = (await app.inject({ url: '/api/system/plugins' })).json() as { id: string }[];
    const settings = (await app.inject({ url: '/api/system/settings' })).json() as Record<string, unknown>;
    return { boot, plugins, settings };
  }

  it('the very answers of the two routes, public settings only', async () => {
    const { boot, plugins, settings } = await bootAndApi();
    // and the revisions of custom.css and custom.js (fx-notes brings both)
    expect(boot).toEqual({ plugins, settings, custom: { css: expect.any(String), js: expect.any(String) } });
    expect(boot.plugins.map((p) => p.id)).toContain('fx-notes');
    expect(boot.settings.fx_greeting).toBe('hello');
    expect(boot.settings).not.toHaveProperty('fx_token'); // a secret is never public
    expect(boot.settings).not.toHaveProperty('fx_private');
  });

  it('follows a settings change and a plugin being enabled, without a restart', async () => {
    const { settings, plugins } = servicesOf(app);
    await settings.set('fx_greeting', '</script><b>hi</b>');
    let now = await bootAndApi();
    expect(now.boot.settings.fx_greeting).toBe('</script><b>hi</b>');
    expect(now.boot.plugins.map((p) => p.id)).not.toContain('fx-off');

    await plugins.setEnabled('fx-off', true);
    now = await bootAndApi();
    expect(now.boot).toEqual({ plugins: now.plugins, settings: now.settings, custom: expect.anything() });
    expect(now.boot.plugins.map((p) => p.id)).toContain('fx-off');
    expect(now.boot.settings.fx_off_public).toBe(true);
  });
});
