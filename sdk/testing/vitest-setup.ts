// The setup file of the sdk's vitest preset (@orepanel/sdk/vitest) for page tests: the plugin's own
// catalogues (locales/<lang>.json for each language its plugin.json lists) become what renderPlugin
// adds when a test passes no `catalogues`, so a test finds the texts a user reads, not their keys.
// After each test, what it rendered is unmounted and a dialog it opened has finished closing, so
// nothing of the page runs in a document the test run has torn down.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Language } from '../types';
import { cleanup, setProjectCatalogues } from './render';

afterEach(() => cleanup());

/** Set by the preset: the folder holding the plugin's plugin.json. */
const root = process.env.OREPANEL_PLUGIN_DIR;
if (root && existsSync(join(root, 'plugin.json'))) {
  const manifest = JSON.parse(readFileSync(join(root, 'plugin.json'), 'utf8')) as { id?: unknown; locales?: unknown };
  if (typeof manifest.id === 'string') {
    const catalogues: Partial<Record<Language, Record<string, unknown>>> = {};
    for (const language of Array.isArray(manifest.locales) ? manifest.locales : []) {
      const file = join(root, 'locales', `${String(language)}.json`);
      if (existsSync(file)) catalogues[language as Language] = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    }
    setProjectCatalogues(manifest.id, catalogues);
  }
}
