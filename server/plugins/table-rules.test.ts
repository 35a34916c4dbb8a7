// Who may touch what: a plugin's declared tables, the core's read-only views, and the reviewed
// exceptions — for first-party plugins only; and which declarations the host refuses.
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../../sdk/types';
import { CORE_TABLES } from '../db/core-tables';
import { FIRST_PARTY_TABLE_EXCEPTIONS } from './table-exceptions';
import { tableDeclarationProblem, tableNamespaceRefusal, tableRulesFor } from './table-rules';

const manifest = (id: string, tables?: string[]): PluginManifest => ({ id, name: id, version: '1.0.0', sdk: '^2.0.0', ...(tables ? { tables } : {}) });
const exceptions = [{ plugin: 'store', table: 'users', access: 'write' as const, why: 'test' }];

describe('tableRulesFor', () => {
  it("gives a plugin its declared tables and the core's read-only views", () => {
    const rules = tableRulesFor({ manifest: manifest('notes', ['notes']), origin: 'bundled' }, exceptions);
    expect(rules).toMatchObject({ pluginId: 'notes', owns: new Set(['notes']) });
    expect([...rules.readable].sort()).toEqual(['user_counters', 'user_public']);
    expect(rules.exceptions?.size).toBe(0);
  });

  it('grants the listed exceptions to the first-party plugin only, never to a third-party one of the same id', () => {
    expect(tableRulesFor({ manifest: manifest('store'), origin: 'bundled' }, exceptions).exceptions).toEqual(new Map([['users', 'write']]));
    expect(tableRulesFor({ manifest: manifest('store'), origin: 'third-party' }, exceptions).exceptions?.size).toBe(0);
  });
});

describe('tableDeclarationProblem', () => {
  const loaded = new Map([['notes', { manifest: manifest('notes', ['notes']) }]]);
  it('refuses core tables, migration bookkeeping and tables another plugin declared', () => {
    expect(tableDeclarationProblem(manifest('x', ['users']), loaded)).toBe('its plugin.json declares table "users", which belongs to the core');
    expect(tableDeclarationProblem(manifest('x', ['user_public']), loaded)).toMatch(/belongs to the core/);
    expect(tableDeclarationProblem(manifest('x', ['op_migrations_x']), loaded)).toMatch(/belongs to the core/);
    expect(tableDeclarationProblem(manifest('x', ['notes']), loaded)).toBe('its plugin.json declares table "notes", which plugin "notes" already declares');
    expect(tableDeclarationProblem(manifest('x', ['redirect_links']), loaded)).toBe(
      'its plugin.json declares table "redirect_links", which the core handed over to plugin "redirect-links"',
    );
  });
  it('accepts new tables, and a handed-over table for its heir', () => {
    expect(tableDeclarationProblem(manifest('x', ['x_rows']), loaded)).toBeNull();
    expect(tableDeclarationProblem(manifest('redirect-links', ['redirect_links']), loaded)).toBeNull();
    expect(tableDeclarationProblem(manifest('notes', ['notes']), loaded)).toBeNull();
  });
});

describe('the first-party exception list', () => {
  it('names existing first-party plugins and core tables, once each, with a reason', () => {
    const seen = new Set<string>();
    for (const e of FIRST_PARTY_TABLE_EXCEPTIONS) {
      expect(existsSync(new URL(`../../plugins/${e.plugin}/plugin.json`, import.meta.url)), e.plugin).toBe(true);
      expect(CORE_TABLES.has(e.table), e.table).toBe(true);
      expect(e.why.length, `${e.plugin} ${e.table}`).toBeGreaterThan(20);
      expect(seen.has(`${e.plugin}:${e.table}`), `${e.plugin} ${e.table} twice`).toBe(false);
      seen.add(`${e.plugin}:${e.table}`);
    }
  });
});

describe('tableNamespaceRefusal', () => {
  it("refuses a third-party plugin's table that is not named after the plugin, naming it", () => {
    expect(tableNamespaceRefusal({ manifest: manifest('notes', ['notes', 'notes_tags', 'tags']), origin: 'third-party' })).toBe(
      'its plugin.json declares table "tags" outside its namespace: a plugin\'s tables are named "notes" or start with "notes_" (e.g. "notes_tags")',
    );
    // "notesy" only looks prefixed: the namespace ends at an underscore
    expect(tableNamespaceRefusal({ manifest: manifest('notes', ['notesy']), origin: 'third-party' })).toMatch(/"notesy" outside its namespace/);
  });

  it("takes an id with dashes as underscores, and lets the panel's own plugins keep their names", () => {
    expect(tableNamespaceRefusal({ manifest: manifest('my-notes', ['my_notes', 'my_notes_tags']), origin: 'third-party' })).toBeNull();
    expect(tableNamespaceRefusal({ manifest: manifest('my-notes', ['mynotes_x']), origin: 'third-party' })).toMatch(/start with "my_notes_"/);
    expect(tableNamespaceRefusal({ manifest: manifest('store', ['items']), origin: 'bundled' })).toBeNull();
    expect(tableNamespaceRefusal({ manifest: manifest('notes'), origin: 'third-party' })).toBeNull();
  });
});
