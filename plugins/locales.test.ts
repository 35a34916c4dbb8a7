// Issue 2, item 9: every plugin (and the kernel) ships the six catalogues, and a key present in any
// language must be present in all of them — this test fails the moment one is missing. It also checks
// that every nav label and route title a plugin.json names exists, and that translations keep the
// same {{placeholders}} as the others (a dropped placeholder silently loses data on screen).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CORE_PERMISSIONS } from '../server/auth/permission-catalogue';
import { LANGUAGES, type PluginManifest } from '../sdk/types';

const root = fileURLToPath(new URL('..', import.meta.url));

type Catalogue = Record<string, string>;

/** Flattens a nested catalogue into dotted keys → text. Non-text leaves are reported as problems. */
function flatten(value: unknown, prefix = '', out: Catalogue = {}, problems: string[] = []): Catalogue {
  if (typeof value === 'string') {
    out[prefix] = value;
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => flatten(item, prefix ? `${prefix}.${index}` : String(index), out, problems));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out, problems);
  } else {
    problems.push(`${prefix || '(root)'} is ${JSON.stringify(value)}, not text`);
  }
  return out;
}

/** "<language>: <key>" for every key some language has and another lacks. */
function missingKeys(catalogues: Record<string, Catalogue>): string[] {
  const all = new Set<string>();
  for (const catalogue of Object.values(catalogues)) for (const key of Object.keys(catalogue)) all.add(key);
  const missing: string[] = [];
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const key of [...all].sort()) if (!(key in catalogue)) missing.push(`${language}: ${key}`);
  }
  return missing;
}

function placeholders(text: string): string {
  return [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}/g)]
    .map((m) => m[1])
    .sort()
    .join(',');
}

/** "<language>: <key>" whose placeholders differ from English's. */
function placeholderMismatches(catalogues: Record<string, Catalogue>): string[] {
  const reference = catalogues.en ?? {};
  const out: string[] = [];
  for (const [language, catalogue] of Object.entries(catalogues)) {
    for (const [key, text] of Object.entries(catalogue)) {
      if (key in reference && placeholders(text) !== placeholders(reference[key])) {
        out.push(`${language}: ${key} has {{${placeholders(text)}}} but en has {{${placeholders(reference[key])}}}`);
      }
    }
  }
  return out;
}

interface CatalogueSet {
  name: string;
  dir: string;
  manifest: PluginManifest | null;
}

function catalogueSets(): CatalogueSet[] {
  const sets: CatalogueSet[] = [];
  // The kernel's catalogues count as soon as its locales/ folder holds one.
  const kernelDir = join(root, 'locales');
  if (existsSync(kernelDir) && readdirSync(kernelDir).some((file) => file.endsWith('.json'))) {
    sets.push({ name: 'kernel', dir: kernelDir, manifest: null });
  }
  for (const id of readdirSync(join(root, 'plugins')).sort()) {
    const manifestFile = join(root, 'plugins', id, 'plugin.json');
    if (!existsSync(manifestFile)) continue;
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as PluginManifest;
    if (manifest.client === false && !existsSync(join(root, 'plugins', id, 'locales'))) continue;
    sets.push({ name: `plugin ${id}`, dir: join(root, 'plugins', id, 'locales'), manifest });
  }
  return sets;
}

function load(set: CatalogueSet): { catalogues: Record<string, Catalogue>; problems: string[] } {
  const catalogues: Record<string, Catalogue> = {};
  const problems: string[] = [];
  for (const language of LANGUAGES) {
    const file = join(set.dir, `${language}.json`);
    if (!existsSync(file)) {
      problems.push(`${language}.json is missing`);
      continue;
    }
    const local: string[] = [];
    catalogues[language] = flatten(JSON.parse(readFileSync(file, 'utf8')), '', {}, local);
    problems.push(...local.map((p) => `${language}: ${p}`));
    for (const [key, text] of Object.entries(catalogues[language])) {
      if (text.trim() === '') problems.push(`${language}: ${key} is empty`);
    }
  }
  return { catalogues, problems };
}

describe('the key-parity check itself', () => {
  it('reports a key that one language lacks', () => {
    expect(missingKeys({ en: { a: 'A', 'b.c': 'C' }, ro: { a: 'A' } })).toEqual(['ro: b.c']);
    expect(missingKeys({ en: { a: 'A' }, ro: { a: 'A', extra: 'X' } })).toEqual(['en: extra']);
    expect(missingKeys({ en: { a: 'A' }, ro: { a: 'A' } })).toEqual([]);
  });

  it('flattens nested catalogues into dotted keys', () => {
    expect(Object.keys(flatten({ login: { title: 'x', form: { user: 'y' } } }))).toEqual(['login.title', 'login.form.user']);
  });
});

describe.each(catalogueSets().map((set) => [set.name, set] as const))('catalogues of %s', (_name, set) => {
  const { catalogues, problems } = load(set);

  it('has all six languages, every text non-empty', () => {
    expect(problems).toEqual([]);
  });

  it('has every key in every language', () => {
    expect(missingKeys(catalogues)).toEqual([]);
  });

  it('keeps the same {{placeholders}} in every language', () => {
    expect(placeholderMismatches(catalogues)).toEqual([]);
  });

  if (set.manifest) {
    const manifest = set.manifest;
    it('holds every nav label, route title and overlay label plugin.json names', () => {
      const keys = [
        ...(manifest.nav ?? []).map((item) => item.label),
        ...(manifest.routes ?? []).flatMap((route) => (route.title ? [route.title] : [])),
        ...(manifest.overlays ?? []).map((overlay) => overlay.label),
      ];
      const absent = LANGUAGES.flatMap((language) => keys.filter((key) => !(key in (catalogues[language] ?? {}))).map((key) => `${language}: ${key}`));
      expect(absent).toEqual([]);
    });

    it('has every key its client code names', () => {
      // Quoted dotted names in the client code whose first part is a top-level key of the catalogue are
      // i18n keys (t('login.title'), 'validation.required' in a rules table): each must exist. Permission
      // names look the same ('admin.servers.edit' beside the key 'admin.titles.servers') and are not keys,
      // nor are form field names (name="hours.time_zone": the path a server refusal names).
      const permissions = new Set([...CORE_PERMISSIONS.map((p) => p.name), ...(manifest.permissions ?? []).map((p) => p.name)]);
      const english = catalogues.en ?? {};
      const roots = new Set(Object.keys(english).map((key) => key.split('.')[0]));
      const clientDir = join(set.dir, '..', 'client');
      const named = new Set<string>();
      for (const file of existsSync(clientDir) ? readdirSync(clientDir, { recursive: true }) : []) {
        if (!/\.tsx?$/.test(String(file))) continue;
        const source = readFileSync(join(clientDir, String(file)), 'utf8');
        for (const match of source.matchAll(/(\bname=)?['"`]([a-zA-Z][\w]*(?:\.[\w]+)+)['"`]/g)) {
          if (!match[1] && roots.has(match[2].split('.')[0]) && !permissions.has(match[2])) named.add(match[2]);
        }
        for (const match of source.matchAll(/\bt\(\s*['"]([\w]+)['"]/g)) named.add(match[1]);
      }
      expect([...named].filter((key) => !(key in english)).sort()).toEqual([]);
    });

    it('declares the six languages in plugin.json', () => {
      expect([...(manifest.locales ?? [])].sort()).toEqual([...LANGUAGES].sort());
    });
  }
});
