// The namespace of a third-party plugin's tables: every table its plugin.json declares is named after
// the plugin (`notes`, `notes_tags` for plugin "notes"; `my_notes_…` for "my-notes"), so two plugins
// from different authors, or a plugin and a later core table, cannot want the same name. Plain JS so
// that `plugin build` (kernel/build/) and the server host (server/plugins/table-rules.ts) share it.

/**
 * The prefix a plugin's tables start with: its id, dashes as underscores (a dash is not a plain SQL
 * identifier character).
 * @param {string} pluginId
 */
export function tablePrefix(pluginId) {
  return pluginId.replace(/-/g, '_');
}

/**
 * The tables of `manifest` that are not in its namespace: neither the prefix itself nor `<prefix>_…`.
 * @param {{ id: string, tables?: readonly string[] }} manifest
 * @returns {string[]}
 */
export function tablesOutsideNamespace(manifest) {
  const prefix = tablePrefix(manifest.id);
  return (manifest.tables ?? []).filter((table) => table !== prefix && !table.startsWith(`${prefix}_`));
}

/**
 * Why a third-party plugin's tables are refused, or null: names each table outside its namespace.
 * @param {{ id: string, tables?: readonly string[] }} manifest
 * @returns {string | null}
 */
export function tableNamespaceProblem(manifest) {
  const outside = tablesOutsideNamespace(manifest);
  if (outside.length === 0) return null;
  const prefix = tablePrefix(manifest.id);
  const names = outside.map((table) => `"${table}"`).join(', ');
  return `its plugin.json declares table${outside.length === 1 ? '' : 's'} ${names} outside its namespace: a plugin's tables are named "${prefix}" or start with "${prefix}_" (e.g. "${prefix}_${outside[0]}")`;
}
