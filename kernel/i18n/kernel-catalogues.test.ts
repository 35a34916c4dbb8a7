// The kernel's catalogues (locales/<lang>.json): all six languages complete, the spec §8 texts exact in
// English, and every key the kernel's code asks for present.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../sdk/types';

const root = new URL('../../', import.meta.url).pathname;
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') out[prefix + key] = value;
    else Object.assign(out, flatten(value, `${prefix}${key}.`));
  }
  return out;
}

const catalogues = Object.fromEntries(LANGUAGES.map((lang) => [lang, flatten(JSON.parse(readFileSync(join(root, 'locales', `${lang}.json`), 'utf8')) as Tree)])) as Record<
  (typeof LANGUAGES)[number],
  Record<string, string>
>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'build' ? [] : sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe('kernel catalogues', () => {
  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en, none empty, same placeholders', (lang) => {
    const en = catalogues.en;
    const other = catalogues[lang];
    expect(Object.keys(other).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of Object.entries(other)) {
      expect(text.trim(), `${lang}:${key}`).not.toBe('');
      const placeholders = (s: string) => (s.match(/\{\{\s*\w+\s*\}\}/g) ?? []).sort();
      expect(placeholders(text), `${lang}:${key}`).toEqual(placeholders(en[key]));
    }
  });

  it('uses the spec §4, §6 and §8 texts, to the letter, in English', () => {
    const en = catalogues.en;
    expect(en['session.unavailable.title']).toBe('Server Unavailable');
    expect(en['session.unavailable.text']).toBe('The server is currently unavailable. Please try again later.');
    expect(en['session.invalid.title']).toBe('Session Error');
    expect(en['session.invalid.text']).toBe('Your session has expired or is invalid.');
    expect(en['session.invalid.footer']).toBe('Please log in again.');
    expect(en['session.startFailed.title']).toBe('Error');
    expect(en['session.startFailed.text']).toBe('Failed to start session. Please try again.');
    expect(en['guard.accessDenied.title']).toBe('Access Denied');
    expect(en['guard.accessDenied.text']).toBe('You do not have permission to access this resource.');
    expect(en['appError.title']).toBe('Application Error');
    expect(en['appError.text']).toBe('Sorry, something went wrong. Please try refreshing the page.');
    expect(en['customize.tabs.transitions']).toBe('Transitions');
    expect(en['customize.tabs.components']).toBe('UI Components');
    expect(en['customize.tabs.performance']).toBe('Performance');
  });

  it('has every key the kernel asks for', () => {
    const en = catalogues.en;
    const missing: string[] = [];
    for (const file of sourceFiles(join(root, 'kernel'))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z][\w.-]*)'/g)) {
        if (!(match[1] in en)) missing.push(`${file.slice(root.length)}: ${match[1]}`);
      }
      // keys built from a fixed list: `nav.sections.${…}`, `transitions.${…}`, `customize.tabs.${…}`, `animations.${…}`
      for (const match of text.matchAll(/\bt\(\s*`([\w.]+)\.\$\{/g)) {
        if (!Object.keys(en).some((key) => key.startsWith(`${match[1]}.`))) missing.push(`${file.slice(root.length)}: ${match[1]}.*`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('names every section, transition and animation style', () => {
    const en = catalogues.en;
    for (const section of ['main', 'earn', 'store', 'community', 'support', 'admin', 'account']) expect(en[`nav.sections.${section}`]).toBeTruthy();
    for (const name of ['fade', 'slide-right', 'slide-left', 'slide-up', 'slide-down', 'scale', 'flip', 'rotate']) expect(en[`transitions.${name}`]).toBeTruthy();
    for (const name of ['fade', 'slide', 'scale', 'bounce']) expect(en[`animations.${name}`]).toBeTruthy();
  });
});
