// The permission catalogue grouped by area for the role editor, in the catalogue's order.
import type { CatalogueEntry } from './roles-api';

export interface PermissionGroup {
  id: string;
  entries: CatalogueEntry[];
}

export function groupPermissions(catalogue: readonly CatalogueEntry[]): PermissionGroup[] {
  const groups = new Map<string, CatalogueEntry[]>();
  for (const entry of catalogue) {
    const list = groups.get(entry.group);
    if (list) list.push(entry);
    else groups.set(entry.group, [entry]);
  }
  return [...groups].map(([id, entries]) => ({ id, entries }));
}

/** Permissions the role holds that the catalogue no longer lists (a removed plugin's): kept as they are. */
export function unlistedPermissions(held: readonly string[], catalogue: readonly CatalogueEntry[]): string[] {
  const known = new Set(catalogue.map((e) => e.name));
  return held.filter((p) => !known.has(p));
}
