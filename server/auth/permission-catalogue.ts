// The permission catalogue: the core's own permissions (admin.root, the admin areas the core serves,
// the security bypasses its checks honour) plus what every plugin declares in its plugin.json
// `permissions` — a feature's permissions belong to the plugin that enforces them (spec §6's
// admin.locations, admin.servers, user.permission.vip… are declared by server-catalog, servers…).
// Served to administrators by GET /api/admin/permissions (the role editor's list of grantable
// permissions). The §6 strings of features no plugin builds yet (tickets, announcements, images,
// backups) are declared by their plugins when they come (issues 11-13); a role that already holds
// one keeps it.
//
// Naming: the spec's "dashboard components" row lists bare names (system.overview, …); the
// admin-dashboard plugin declares them prefixed admin.dashboard.components.<name> (the reference
// system's strings, so existing role data carries over). The "cloud backup integration" row becomes
// admin.cloud.view|download|upload.
import type { ManifestPermission } from '../../sdk/types';
import { ROOT_PERMISSION } from '../../sdk/types';

export interface CatalogueEntry {
  name: string;
  description: string;
  /** the area it belongs to, for grouping in the role editor */
  group: string;
  /** 'core' or the id of the plugin that declares it */
  source: string;
}

const CRUD = ['create', 'edit', 'delete', 'list'] as const;

const CRUD_AREAS: readonly [prefix: string, thing: string][] = [
  ['admin.roles', 'roles'],
  ['admin.permissions', 'role permissions'],
];

const VERB_TEXT: Record<string, string> = { create: 'Create', edit: 'Edit', delete: 'Delete', list: 'List', view: 'View' };

function core(name: string, description: string, group: string): CatalogueEntry {
  return { name, description, group, source: 'core' };
}

function buildCore(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [core(ROOT_PERMISSION, 'Full access to everything (passes every check)', 'admin.root')];
  for (const verb of ['list', 'edit', 'delete']) out.push(core(`admin.users.${verb}`, `${VERB_TEXT[verb]} users`, 'admin.users'));
  for (const [prefix, thing] of CRUD_AREAS) {
    for (const verb of CRUD) out.push(core(`${prefix}.${verb}`, `${VERB_TEXT[verb]} ${thing}`, prefix));
  }
  out.push(core('admin.settings.view', 'View the settings', 'admin.settings'), core('admin.settings.edit', 'Change the settings', 'admin.settings'));
  out.push(core('admin.plugins.list', 'List plugins', 'admin.plugins'), core('admin.plugins.edit', 'Enable, disable and configure plugins', 'admin.plugins'));
  // the core's security checks honour these (server/security/abuse-screen.ts); the ad-blocker one
  // goes with the ads the kernel loads (issue 14: no ads for its holders)
  out.push(
    core('user.permission.alt', 'Bypass the anti-alt checks', 'user.permission'),
    core('user.permission.vpn', 'Bypass the VPN block', 'user.permission'),
    core('user.permission.adblocker', 'Bypass the ad-blocker check', 'user.permission'),
  );
  return out;
}

/** The core's permissions, in display order. */
export const CORE_PERMISSIONS: readonly CatalogueEntry[] = Object.freeze(buildCore().map((e) => Object.freeze(e)));

const CORE_NAMES = new Set(CORE_PERMISSIONS.map((p) => p.name));

export function isCorePermission(name: string): boolean {
  return CORE_NAMES.has(name);
}

/** The whole catalogue of the host's plugins (enabled or not: a role keeps what a disabled plugin's routes need). */
export function hostPermissionCatalogue(plugins: { list(): readonly { manifest: { id: string; permissions?: readonly ManifestPermission[] } }[] }): CatalogueEntry[] {
  return permissionCatalogue(plugins.list().map((p) => ({ id: p.manifest.id, permissions: p.manifest.permissions })));
}

/**
 * The role editor's group of a plugin's permission: its name without the verb, or the shortest such
 * group of the same plugin it extends (admin.server.queue.logs.view goes with admin.server.queue.list).
 */
function pluginGroups(permissions: readonly ManifestPermission[]): Map<string, string> {
  const parentOf = (name: string) => name.split('.').slice(0, -1).join('.') || name;
  const parents = new Set(permissions.map((p) => parentOf(p.name)));
  const out = new Map<string, string>();
  for (const { name } of permissions) {
    const parent = parentOf(name);
    const parts = parent.split('.');
    const shorter = parts.map((_, i) => parts.slice(0, i + 1).join('.')).find((prefix) => prefix !== parent && parents.has(prefix));
    out.set(name, shorter ?? parent);
  }
  return out;
}

/**
 * The core catalogue plus the permissions the given plugins declare (first declaration of a name
 * wins, so a plugin cannot redescribe a core permission).
 */
export function permissionCatalogue(plugins: readonly { id: string; permissions?: readonly ManifestPermission[] }[]): CatalogueEntry[] {
  const out = [...CORE_PERMISSIONS];
  const seen = new Set(CORE_NAMES);
  for (const plugin of plugins) {
    const groups = pluginGroups(plugin.permissions ?? []);
    for (const p of plugin.permissions ?? []) {
      if (seen.has(p.name)) continue;
      seen.add(p.name);
      out.push({ name: p.name, description: p.description ?? p.name, group: groups.get(p.name) ?? p.name, source: plugin.id });
    }
  }
  return out;
}
