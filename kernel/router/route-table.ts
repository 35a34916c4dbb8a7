// The routes of the running panel, built ONLY from the installed plugins' manifests (no plugin code
// runs to decide what exists or who may enter): `layout: "app"` routes render inside the shell,
// `layout: "bare"` ones on their own, and the `*` route is the not-found page.
import type { ManifestRoute, ServedPluginManifest } from '../../sdk/types';
import { AFTER_LOGIN_PATH } from './navigation';

export interface KernelRoute {
  /** unique: `<plugin id>:<path>` */
  id: string;
  pluginId: string;
  route: ManifestRoute;
}

export interface RouteTable {
  app: KernelRoute[];
  bare: KernelRoute[];
  /** the `*` route (the errors plugin's not-found page), null when no plugin declares one */
  notFound: KernelRoute | null;
  /** every route, for lookups (titles, nav items) */
  all: KernelRoute[];
}

/** Paths the kernel itself owns (spec §2: `/` redirects to /dashboard; rule 4's after-login route). */
export const KERNEL_PATHS: readonly string[] = ['/', AFTER_LOGIN_PATH];

/** Fills in the schema's defaults (a manifest served by an older server may lack them). */
function withDefaults(route: ManifestRoute): ManifestRoute {
  return { auth: false, authPage: false, admin: false, layout: 'app', ...route };
}

/**
 * The route table of the installed plugins, in `requires` order. When two plugins declare the same
 * path, the first one keeps it and the other is reported.
 */
export function buildRouteTable(manifests: readonly ServedPluginManifest[], installed: ReadonlySet<string>, log: Pick<Console, 'warn'> = console): RouteTable {
  const table: RouteTable = { app: [], bare: [], notFound: null, all: [] };
  const owners = new Map<string, string>();
  for (const manifest of manifests) {
    if (!installed.has(manifest.id)) continue;
    for (const declared of manifest.routes ?? []) {
      const route = withDefaults(declared);
      if (KERNEL_PATHS.includes(route.path)) {
        log.warn(`plugin "${manifest.id}" declares route "${route.path}", which the kernel owns; ignored`);
        continue;
      }
      const owner = owners.get(route.path);
      if (owner) {
        log.warn(`plugin "${manifest.id}" declares route "${route.path}", already declared by plugin "${owner}"; ignored`);
        continue;
      }
      owners.set(route.path, manifest.id);
      const entry: KernelRoute = { id: `${manifest.id}:${route.path}`, pluginId: manifest.id, route };
      table.all.push(entry);
      if (route.path === '*') table.notFound = entry;
      else if (route.layout === 'bare') table.bare.push(entry);
      else table.app.push(entry);
    }
  }
  return table;
}
