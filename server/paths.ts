// Where things are, for both layouts: the sources (server/*.ts run by vitest) and the build
// (dist/server/*.js run by node). Paths are found from this module's own location.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The names of a package that holds the panel: the panel itself, and the sdk package, which carries
 * the panel's server and plugins for its server test kit (`@orepanel/sdk/testing/server`).
 */
const PANEL_PACKAGES = new Set(['orepanel', '@orepanel/sdk']);

/** Walks up from `start` to the directory holding the panel's package.json. */
export function findPackageRoot(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (;;) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate)) {
      try {
        if (PANEL_PACKAGES.has((JSON.parse(readFileSync(candidate, 'utf8')) as { name?: string }).name ?? '')) return dir;
      } catch {
        /* not ours: keep walking */
      }
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cannot find the orepanel package root above ${start}`);
    dir = parent;
  }
}

export interface PanelPaths {
  root: string;
  /** the repo's first-party plugins: plugins/<id>/plugin.json */
  pluginsDir: string;
  /** built server parts of first-party plugins: dist/plugins-server/<id>.js */
  builtPluginsDir: string;
  /** the build manifest: entries, integrity and locale files per plugin */
  buildManifest: string;
  /** the built browser files */
  publicDir: string;
  version: string;
  /** true when running from dist/ (node), false when running the TypeScript sources (vitest) */
  built: boolean;
}

export function panelPaths(root: string = findPackageRoot()): PanelPaths {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  return {
    root,
    pluginsDir: join(root, 'plugins'),
    builtPluginsDir: join(root, 'dist', 'plugins-server'),
    buildManifest: join(root, 'dist', 'plugins.json'),
    publicDir: join(root, 'dist', 'public'),
    version: pkg.version ?? '0.0.0',
    built: /[\\/]dist[\\/]server[\\/]/.test(fileURLToPath(import.meta.url)),
  };
}
