// The plugin build preset (kernel/build/plugin-preset.mjs), as a third-party author meets it: a broken
// plugin.json fails with readable reasons; a good plugin becomes one System.register entry with its SRI
// integrity and content-hashed catalogues.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildPlugin, readPluginManifest } from '../../kernel/build/plugin-preset.mjs';

const work = mkdtempSync(join(tmpdir(), 'orepanel-preset-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function pluginFolder(id: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = join(work, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'plugin.json'), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('the plugin build preset', () => {
  it('fails with every schema problem of plugin.json, readably', () => {
    const dir = pluginFolder('bad-one', { id: 'bad-one', version: 'one', sdk: '^2.0.0', routes: [{ path: 'no-slash', component: 'page' }], colour: 'red' });
    expect(() => readPluginManifest(dir)).toThrow(/is not a valid plugin manifest:\n {2}- /);
    try {
      readPluginManifest(dir);
    } catch (error) {
      const text = (error as Error).message;
      expect(text).toContain("must have required property 'name'");
      expect(text).toContain('unknown property "colour"');
      expect(text).toContain('/version');
      expect(text).toContain('/routes/0/path');
    }
  });

  it('refuses a folder whose name is not the plugin id', () => {
    const dir = pluginFolder('folder-name', { id: 'other-name', name: 'X', version: '1.0.0', sdk: '^2.0.0', locales: [] });
    expect(() => readPluginManifest(dir)).toThrow(/the plugin id "other-name" must equal its folder name "folder-name"/);
  });

  it('names a missing client entry and a missing catalogue', async () => {
    const noClient = pluginFolder('no-client', { id: 'no-client', name: 'X', version: '1.0.0', sdk: '^2.0.0', locales: [] });
    await expect(buildPlugin({ pluginDir: noClient, publicDir: join(work, 'out') })).rejects.toThrow(
      /declares "client": true but .*no-client\/client has no index.tsx or index.ts/,
    );
    const noLocale = pluginFolder('no-locale', { id: 'no-locale', name: 'X', version: '1.0.0', sdk: '^2.0.0', locales: ['en', 'fr'] }, { 'locales/en.json': '{}' });
    await expect(buildPlugin({ pluginDir: noLocale, publicDir: join(work, 'out') })).rejects.toThrow(/lists locale "fr" but .*no-locale\/locales\/fr.json does not exist/);
  });

  it('builds a good plugin: System.register entry with its integrity, lazy pages next to it, hashed catalogues', async () => {
    const dir = pluginFolder(
      'hello-world',
      { id: 'hello-world', name: 'Hello', version: '1.0.0', sdk: '^2.0.0', routes: [{ path: '/hello', component: 'HelloPage' }], locales: ['en'] },
      {
        'locales/en.json': '{ "title": "Hello" }',
        'client/index.tsx':
          "import { definePlugin } from '@orepanel/sdk';\nexport default definePlugin({ id: 'hello-world', setup(ctx) { ctx.routes.provide('HelloPage', () => import('./HelloPage')); } });\n",
        'client/HelloPage.tsx': "import { useState } from 'react';\nexport default function HelloPage() { const [n] = useState(1); return <p>{n}</p>; }\n",
      },
    );
    const publicDir = join(work, 'public');
    const { id, record } = await buildPlugin({ pluginDir: dir, publicDir });
    expect(id).toBe('hello-world');
    expect(record.entry).toMatch(/^\/plugins\/hello-world\/hello-world-[\w-]+\.js$/);
    const entry = readFileSync(join(publicDir, record.entry as string));
    expect(entry.toString()).toMatch(/^System\.register\(\["@orepanel\/sdk"\]/);
    expect(record.integrity).toBe(`sha384-${createHash('sha384').update(entry).digest('base64')}`);
    // the page is a separate chunk, imported relative to the entry, with react left to the kernel
    const page = /\.import\("\.\/(HelloPage-[\w-]+\.js)"\)/.exec(entry.toString());
    expect(page).not.toBeNull();
    expect(readFileSync(join(publicDir, 'plugins/hello-world', page![1]), 'utf8')).toMatch(/^System\.register\(\["@emotion\/react\/jsx-runtime","react"\]/);
    expect(record.localeFiles).toEqual({ en: expect.stringMatching(/^\/plugins\/hello-world\/locales\/en-[\w-]+\.json$/) });
    expect(JSON.parse(readFileSync(join(publicDir, record.localeFiles.en), 'utf8'))).toEqual({ title: 'Hello' });
  });
});
