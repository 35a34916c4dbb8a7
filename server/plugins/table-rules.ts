// What one plugin's database handle may touch (table-boundary.ts checks it): the tables its plugin.json
// declares, the core's read-only views, and — first-party plugins only — the reviewed exceptions.
import { PLUGIN_READABLE_TABLES } from '../../sdk/server';
import type { PluginManifest } from '../../sdk/types';
import { tableNamespaceProblem } from '../../sdk/table-names.mjs';
import { CORE_TABLE_PREFIX, CORE_TABLES, HANDED_OVER_TABLES } from '../db/core-tables';
import type { PluginOrigin } from './discover';
import { TableBoundary, type TableAccess, type TableBoundaryRules } from './table-boundary';
import { FIRST_PARTY_TABLE_EXCEPTIONS, type TableException } from './table-exceptions';

const READABLE: ReadonlySet<string> = new Set(PLUGIN_READABLE_TABLES);

export function tableRulesFor(
  plugin: { manifest: PluginManifest; origin: PluginOrigin },
  exceptions: readonly TableException[] = FIRST_PARTY_TABLE_EXCEPTIONS,
): TableBoundaryRules {
  const id = plugin.manifest.id;
  const granted = new Map<string, TableAccess>();
  // a folder dropped in DATA_DIR/plugins may carry a first-party id: exceptions follow the origin, not the name
  if (plugin.origin === 'bundled') for (const e of exceptions) if (e.plugin === id) granted.set(e.table, e.access);
  return { pluginId: id, owns: new Set(plugin.manifest.tables ?? []), readable: READABLE, exceptions: granted };
}

/** The check of a plugin's migrations: its own tables, views and indexes (and the exceptions' indexes). */
export function migrationGuard(plugin: { manifest: PluginManifest; origin: PluginOrigin }): TableBoundary {
  return new TableBoundary({ ...tableRulesFor(plugin), schemaChanges: true });
}

/**
 * Why a plugin may not declare the tables it names, or null: a table is owned by one plugin, and no
 * plugin owns a table of the core (nor its migration bookkeeping).
 */
export function tableDeclarationProblem(manifest: PluginManifest, loaded: ReadonlyMap<string, { manifest: PluginManifest }>): string | null {
  for (const table of manifest.tables ?? []) {
    if (CORE_TABLES.has(table) || table.startsWith(CORE_TABLE_PREFIX)) return `its plugin.json declares table "${table}", which belongs to the core`;
    const heir = HANDED_OVER_TABLES[table];
    if (heir !== undefined && heir !== manifest.id) return `its plugin.json declares table "${table}", which the core handed over to plugin "${heir}"`;
    for (const [owner, other] of loaded) {
      if (owner !== manifest.id && other.manifest.tables?.includes(table)) return `its plugin.json declares table "${table}", which plugin "${owner}" already declares`;
    }
  }
  return null;
}

/**
 * Why a plugin's table names are refused, or null: a third-party plugin's tables are named after it
 * (`<id>` or `<id>_…`, dashes as underscores), the rule `plugin build` applies too; the panel's own
 * plugins keep the names their data already has.
 */
export function tableNamespaceRefusal(plugin: { manifest: PluginManifest; origin: PluginOrigin }): string | null {
  return plugin.origin === 'bundled' ? null : tableNamespaceProblem(plugin.manifest);
}
