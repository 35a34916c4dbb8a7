// A sidebar item that points at an admin route must carry the very permission of that route: the
// kernel hides an item by the item's own permission and by its route's (kernel/shell/nav-model.ts),
// but a plugin.json read alone — by a reviewer, by a tool, by a third-party kernel — must say the
// same thing twice, never two different things. This test fails the moment one plugin.json differs,
// and when an item points at a route no plugin declares.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { PluginManifest } from '../sdk/types';

const pluginsDir = fileURLToPath(new URL('.', import.meta.url));

type NavManifest = Pick<PluginManifest, 'id' | 'routes' | 'nav'>;

/** One line per nav item whose admin route carries another permission, or whose route does not exist. */
export function navPermissionProblems(manifests: readonly NavManifest[]): string[] {
  const routes = new Map<string, { owner: string; admin: boolean; permission: string | undefined }>();
  for (const m of manifests) for (const r of m.routes ?? []) if (!routes.has(r.path)) routes.set(r.path, { owner: m.id, admin: r.admin === true, permission: r.permission });
  const problems: string[] = [];
  for (const m of manifests) {
    for (const item of m.nav ?? []) {
      const target = routes.get(item.route);
      if (!target) {
        problems.push(`${m.id}: nav item ${item.route} points at a route no plugin declares`);
        continue;
      }
      if (!target.admin) continue;
      if (item.permission !== target.permission) {
        problems.push(`${m.id}: nav item ${item.route} has permission ${item.permission ?? '(none)'}, its route (${target.owner}) has ${target.permission ?? '(none)'}`);
      }
    }
  }
  return problems;
}

function repoManifests(): NavManifest[] {
  return readdirSync(pluginsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(pluginsDir, entry.name, 'plugin.json')))
    .map((entry) => JSON.parse(readFileSync(join(pluginsDir, entry.name, 'plugin.json'), 'utf8')) as NavManifest);
}

describe('nav item permissions', () => {
  it('names an item whose permission differs from its admin route’s, a missing one, and a route to nowhere', () => {
    const manifests: NavManifest[] = [
      {
        id: 'admin-users',
        routes: [
          { path: '/mc-admin/users', component: 'UsersPage', auth: true, admin: true, permission: 'admin.users.list' },
          { path: '/mc-admin/roles', component: 'RolesPage', auth: true, admin: true, permission: 'admin.roles.list' },
          { path: '/mc-admin/links', component: 'LinksPage', auth: true, admin: true, permission: 'admin.redirect.links.list' },
        ],
        nav: [
          { route: '/mc-admin/users', label: 'nav.users', permission: 'admin.users.edit' },
          { route: '/mc-admin/roles', label: 'nav.roles' },
          { route: '/mc-admin/links', label: 'nav.links', permission: 'admin.redirect.links.list' },
          { route: '/mc-admin/gone', label: 'nav.gone', permission: 'admin.gone.list' },
        ],
      },
      // a user route needs no permission on its item
      { id: 'dashboard', routes: [{ path: '/dashboard', component: 'DashboardPage', auth: true }], nav: [{ route: '/dashboard', label: 'nav.dashboard' }] },
      // an item may point at another plugin's admin route, and is checked against it
      { id: 'extra', routes: [], nav: [{ route: '/mc-admin/users', label: 'nav.users', permission: 'admin.users.list' }] },
    ];
    expect(navPermissionProblems(manifests)).toEqual([
      'admin-users: nav item /mc-admin/users has permission admin.users.edit, its route (admin-users) has admin.users.list',
      'admin-users: nav item /mc-admin/roles has permission (none), its route (admin-users) has admin.roles.list',
      'admin-users: nav item /mc-admin/gone points at a route no plugin declares',
    ]);
  });

  it('holds for every plugin.json of the repository', () => {
    const manifests = repoManifests();
    expect(manifests.some((m) => (m.nav ?? []).some((item) => item.route.startsWith('/mc-admin')))).toBe(true);
    expect(navPermissionProblems(manifests)).toEqual([]);
  });
});
