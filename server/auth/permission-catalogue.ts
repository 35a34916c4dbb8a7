// The permission catalogue: every permission string of spec §6's table, expanded, plus what the
// enabled plugins declare in their plugin.json `permissions`. Served to administrators by
// GET /api/admin/permissions (the role editor's list of grantable permissions).
//
// Naming: the spec's "dashboard components" row lists bare names (system.overview, …); they are
// prefixed admin.dashboard.components.<name> (the reference system's strings, so existing role data
// carries over). The "cloud backup integration" row becomes admin.cloud.view|download|upload.
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
  ['admin.locations', 'locations'],
  ['admin.nests', 'egg categories (nests)'],
  ['admin.egg', 'eggs'],
  ['admin.departments', 'ticket departments'],
  ['admin.roles', 'roles'],
  ['admin.permissions', 'role permissions'],
  ['admin.announcements', 'announcements'],
  ['admin.mail.templates', 'mail templates'],
  ['admin.redirect.links', 'redirect links'],
  ['admin.images', 'images'],
];

const VERB_TEXT: Record<string, string> = { create: 'Create', edit: 'Edit', delete: 'Delete', list: 'List', view: 'View' };

function core(name: string, description: string, group: string): CatalogueEntry {
  return { name, description, group, source: 'core' };
}

function buildCore(): CatalogueEntry[] {
  const out: CatalogueEntry[] = [
    core(ROOT_PERMISSION, 'Full access to everything (passes every check)', 'admin.root'),
    core('admin.dashboard.view', 'View the admin dashboard', 'admin.dashboard'),
  ];
  // spec §6 "dashboard components"
  const components: [string, string][] = [
    ['system.overview', 'system overview'],
    ['system.updates', 'updates (running version, pending migrations)'],
    ['system.logs', 'system logs'],
    ['ataglanceanalytics.view', 'analytics at a glance'],
    ['support.view', 'support'],
    ['premiumedition.view', 'premium edition'],
    ['githubrepo.view', 'source repository'],
    ['quickactions.view', 'quick actions'],
    ['activity.view', 'activity'],
  ];
  for (const [name, text] of components) out.push(core(`admin.dashboard.components.${name}`, `See the dashboard's ${text} component`, 'admin.dashboard'));
  out.push(core('admin.health.view', 'View the health page', 'admin.health'));
  for (const verb of ['list', 'edit', 'delete']) out.push(core(`admin.users.${verb}`, `${VERB_TEXT[verb]} users`, 'admin.users'));
  for (const [prefix, thing] of CRUD_AREAS) {
    for (const verb of CRUD) out.push(core(`${prefix}.${verb}`, `${VERB_TEXT[verb]} ${thing}`, prefix));
  }
  for (const verb of ['edit', 'delete', 'list']) out.push(core(`admin.servers.${verb}`, `${VERB_TEXT[verb]} servers`, 'admin.servers'));
  for (const verb of ['create', 'delete', 'list', 'view']) out.push(core(`admin.server.queue.${verb}`, `${VERB_TEXT[verb]} server queue entries`, 'admin.server.queue'));
  out.push(core('admin.server.queue.logs.view', 'View the server queue logs', 'admin.server.queue'));
  out.push(core('admin.tickets.list', 'List tickets', 'admin.tickets'), core('admin.tickets.view', 'View ticket details', 'admin.tickets'));
  out.push(core('admin.settings.view', 'View the settings', 'admin.settings'), core('admin.settings.edit', 'Change the settings', 'admin.settings'));
  out.push(core('admin.plugins.list', 'List plugins', 'admin.plugins'), core('admin.plugins.edit', 'Enable, disable and configure plugins', 'admin.plugins'));
  out.push(
    core('admin.cloud.view', 'View the cloud backup integration', 'admin.cloud'),
    core('admin.cloud.download', 'Download cloud backups', 'admin.cloud'),
    core('admin.cloud.upload', 'Upload backups to the cloud', 'admin.cloud'),
  );
  for (const verb of ['create', 'delete', 'list']) out.push(core(`admin.backups.${verb}`, `${VERB_TEXT[verb]} backups`, 'admin.backups'));
  // /auth/sso: a token signs its holder in as the user, so issuing one is a permission of its own
  out.push(core('admin.sso.create', 'Issue single sign-on tokens (sign a user in from another site)', 'admin.sso'));
  out.push(
    core('user.permission.vip', 'Create servers on VIP eggs or locations', 'user.permission'),
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
 * The core catalogue plus the permissions the given plugins declare (first declaration of a name
 * wins, so a plugin cannot redescribe a core permission).
 */
export function permissionCatalogue(plugins: readonly { id: string; permissions?: readonly ManifestPermission[] }[]): CatalogueEntry[] {
  const out = [...CORE_PERMISSIONS];
  const seen = new Set(CORE_NAMES);
  for (const plugin of plugins) {
    for (const p of plugin.permissions ?? []) {
      if (seen.has(p.name)) continue;
      seen.add(p.name);
      out.push({ name: p.name, description: p.description ?? p.name, group: p.name.split('.').slice(0, -1).join('.') || p.name, source: plugin.id });
    }
  }
  return out;
}
