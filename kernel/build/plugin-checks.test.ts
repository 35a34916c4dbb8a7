// plugin build's checks that need no tools: the translation keys across a plugin's languages (nested
// keys as dotted paths, each missing one named with the languages that have it) and the table namespace.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogueKeys, checkPlugin, translationKeyProblems } from './plugin-checks.mjs';

const dir = mkdtempSync(join(tmpdir(), 'orepanel-plugin-checks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function catalogues(texts: Record<string, unknown>) {
  mkdirSync(join(dir, 'locales'), { recursive: true });
  for (const [lang, value] of Object.entries(texts)) writeFileSync(join(dir, 'locales', `${lang}.json`), JSON.stringify(value));
}

describe('translation keys', () => {
  it('flattens nested catalogues into sorted dotted keys', () => {
    expect(catalogueKeys({ title: 'T', form: { save: 'S', text: 'X' }, count_one: '1', count_other: 'n' })).toEqual([
      'count_one',
      'count_other',
      'form.save',
      'form.text',
      'title',
    ]);
  });

  it('names each key a language lacks and where it is, and passes catalogues with the same keys', () => {
    catalogues({ en: { a: 'A', form: { save: 'Save' } }, de: { a: 'A' }, fr: { a: 'A', form: { save: 'Enregistrer' }, extra: 'x' } });
    expect(translationKeyProblems(dir, { locales: ['en', 'de', 'fr'] })).toEqual([
      'locales/en.json is missing 1 translation key: extra (in fr)',
      'locales/de.json is missing 2 translation keys: extra (in fr), form.save (in en, fr)',
    ]);
    catalogues({ en: { a: 'A' }, de: { a: 'B' } });
    expect(translationKeyProblems(dir, { locales: ['en', 'de'] })).toEqual([]);
  });
});

describe('checkPlugin', () => {
  it('lists every problem at once: tables outside the namespace and missing keys', async () => {
    catalogues({ en: { a: 'A', b: 'B' }, ro: { a: 'A' } });
    const manifest = { id: 'notes', name: 'Notes', version: '1.0.0', sdk: '^2.0.0', tables: ['notes', 'tags'], locales: ['en', 'ro'] as ('en' | 'ro')[] };
    await expect(checkPlugin(dir, manifest, { typeCheck: false })).rejects.toThrow(
      'the plugin cannot be built:\n  - plugin.json declares table "tags" outside its namespace: a plugin\'s tables are named "notes" or start with "notes_" (e.g. "notes_tags")\n  - locales/ro.json is missing 1 translation key: b (in en)',
    );
    catalogues({ en: { a: 'A' }, ro: { a: 'A' } });
    await expect(checkPlugin(dir, { ...manifest, tables: ['notes', 'notes_tags'] }, { typeCheck: false })).resolves.toBeUndefined();
  });
});
