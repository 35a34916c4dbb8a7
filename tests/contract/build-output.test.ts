// Contracts on the build output (dist/, made by `npm run build`, which `npm test` runs first):
// the kernel bundle holds no plugin code, and every plugin entry is an anonymous System.register
// bundle whose integrity in dist/plugins.json matches its bytes.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../sdk/manifest-validate.mjs';
import { BOOT_MARKER } from '../../server/http/index-document';
import { DIST, REPO } from './support/fixtures';

function readDist(file: string): string {
  const path = join(DIST, file);
  if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` first (npm test does it before vitest).`);
  return readFileSync(path, 'utf8');
}

const pluginIds = readdirSync(join(REPO, 'plugins'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(REPO, 'plugins', d.name, 'plugin.json')))
  .map((d) => d.name);

describe('the kernel bundle', () => {
  it('holds no plugin code', () => {
    const chunks = JSON.parse(readDist('kernel-modules.json')) as Record<string, string[]>;
    const modules = Object.values(chunks).flat();
    expect(modules.length).toBeGreaterThan(100);
    expect(modules.filter((m) => m.startsWith('plugins/'))).toEqual([]);
    // and the kernel's own sources never import a plugin
    for (const chunk of Object.keys(chunks)) expect(chunk.startsWith('assets/')).toBe(true);
  });

  it('starts from a small entry; the kernel, the sdk and the shared modules are in the chunk it starts', () => {
    const chunks = JSON.parse(readDist('kernel-modules.json')) as Record<string, string[]>;
    const entry = Object.entries(chunks).find(([file]) => /^assets\/kernel-[A-Za-z0-9_]+(-[A-Za-z0-9_]+)?\.js$/.test(file) && !file.startsWith('assets/kernel-app-'));
    expect(entry, 'an assets/kernel-<hash>.js entry').toBeDefined();
    // the entry waits for a pre-rendered page's first frame: it must not carry the kernel's weight
    expect(entry![1].sort()).toEqual(['kernel/main.tsx', 'kernel/startup/first-paint.ts', 'kernel/startup/main-stylesheet.ts']);
    const app = Object.entries(chunks).find(([file]) => /^assets\/kernel-app-[\w-]+\.js$/.test(file));
    expect(app, 'an assets/kernel-app-<hash>.js chunk').toBeDefined();
    const modules = app![1];
    expect(modules).toContain('kernel/kernel.tsx');
    expect(modules).toContain('sdk/client.ts');
    expect(modules.some((m) => m.startsWith('node_modules/react-router/'))).toBe(true);
    // rarely used shared modules are lazy chunks, not in the kernel's
    expect(modules.some((m) => m.startsWith('node_modules/sweetalert2/'))).toBe(false);
    expect(modules.some((m) => m.startsWith('node_modules/skinview3d/'))).toBe(false);
  });

  it('index.html hints the kernel chunk, so it downloads alongside the entry that starts it', () => {
    const html = readDist('public/index.html');
    const hinted = /<link rel="modulepreload" href="\/(assets\/kernel-app-[\w-]+\.js)">/.exec(html);
    expect(hinted && existsSync(join(DIST, 'public', hinted[1]))).toBe(true);
  });

  it('index.html loads the hashed kernel script, preloads /assets/main.css by its version (spec §7) and carries its rules inline', () => {
    const html = readDist('public/index.html');
    const script = /<script type="module" src="\/(assets\/kernel-[\w-]+\.js)">/.exec(html);
    expect(script && existsSync(join(DIST, 'public', script[1]))).toBe(true);
    const preload = /<link rel="preload" href="\/assets\/main\.css\?v=([\w-]+)" as="style">/.exec(html);
    expect(preload).not.toBeNull();
    const version = (preload as RegExpExecArray)[1];
    // no stylesheet holds the first frame: the rules are inline, named after the file the entry puts in their place
    expect(html).not.toContain('rel="stylesheet" href="/assets/main.css');
    const inline = /<style id="op-main-css" data-href="([^"]+)">([\s\S]*?)<\/style>/.exec(html);
    expect(inline?.[1]).toBe(`/assets/main.css?v=${version}`);
    const withoutComments = readDist('public/assets/main.css')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .trim();
    expect(inline?.[2]).toBe(withoutComments);
    expect(html.indexOf('rel="preload" href="/assets/main.css')).toBeLessThan(html.indexOf('<style id="op-main-css"'));
    // the fixed name and the hashed copy it is served from hold the same stylesheet
    expect(readDist('public/assets/main.css')).toBe(readDist(`public/assets/main-${version}.css`));
  });

  it('index.html leaves the server a place for the start-up data, before the kernel script', () => {
    const html = readDist('public/index.html');
    const marker = html.indexOf(BOOT_MARKER);
    expect(marker).toBeGreaterThan(0);
    expect(marker).toBeLessThan(html.indexOf('<script type="module"'));
    // the plugin list arrives inside the page: hinting a fetch of it would cost a request
    expect(html).not.toContain('href="/api/system/plugins"');
  });
});

describe('the plugin bundles', () => {
  const records = () => JSON.parse(readDist('plugins.json')) as Record<string, { entry?: string; integrity?: string; localeFiles: Record<string, string> }>;

  it('dist/plugins.json describes every plugin of the repository', () => {
    expect(Object.keys(records()).sort()).toEqual([...pluginIds].sort());
  });

  it.each(pluginIds)('%s: its entry is an anonymous System.register bundle whose integrity matches its bytes', (id) => {
    const manifest = validateManifest(JSON.parse(readFileSync(join(REPO, 'plugins', id, 'plugin.json'), 'utf8')));
    if (!manifest.ok) throw new Error(manifest.errors.join('\n'));
    const record = records()[id];
    if (manifest.manifest.client === false) {
      expect(record.entry).toBeUndefined();
      return;
    }
    expect(record.entry).toMatch(new RegExp(`^/plugins/${id}/${id}-[\\w-]+\\.js$`));
    const bytes = readFileSync(join(DIST, 'public', record.entry as string));
    expect(bytes.toString('utf8')).toMatch(/^System\.register\(\[/);
    expect(record.integrity).toBe(`sha384-${createHash('sha384').update(bytes).digest('base64')}`);
    // the shared modules stay imports: no second React inside a plugin
    expect(bytes.toString('utf8')).not.toMatch(/react\.production|__SECRET_INTERNALS|react-dom-client/);
    for (const [lang, url] of Object.entries(record.localeFiles)) {
      expect(url).toMatch(new RegExp(`^/plugins/${id}/locales/${lang}-[\\w-]+\\.json$`));
      expect(() => JSON.parse(readFileSync(join(DIST, 'public', url), 'utf8'))).not.toThrow();
    }
  });

  it('every text asset of dist/public has its gzip and brotli copies', () => {
    const missing: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (/\.(js|css|html|json|svg)$/.test(entry.name) && (!existsSync(`${path}.gz`) || !existsSync(`${path}.br`))) missing.push(path);
      }
    };
    walk(join(DIST, 'public'));
    expect(missing).toEqual([]);
  });
});
