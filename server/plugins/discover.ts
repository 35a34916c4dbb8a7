// Finds plugins: the repo's own (plugins/<id>/, server part from dist/plugins-server/<id>.js when
// built or plugins/<id>/server/index.ts in source mode) and third-party ones installed in
// DATA_DIR/plugins/<id>/ (plugin.json, server.js, client/ with the built browser files and
// build.json with their entry/integrity/localeFiles, the same shape as a dist/plugins.json entry) —
// in the version folder <id>/current names when it has one (installed-versions.ts).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Language } from '../../sdk/types';
import { activeFolder } from './installed-versions';

export type PluginOrigin = 'bundled' | 'third-party';

export interface BuildEntry {
  entry?: string;
  integrity?: string;
  localeFiles?: Partial<Record<Language, string>>;
}

export interface PluginCandidate {
  /** the folder name; must equal the manifest's id */
  folder: string;
  origin: PluginOrigin;
  dir: string;
  /** plugin.json parsed, or null with `problem` set */
  manifestJson: unknown;
  problem: string | null;
  /** module to import for the server part (null: none on disk) */
  serverModule: string | null;
  /** third-party: where its built browser files are served from (/plugins/<id>/…) */
  clientDir: string | null;
  build: BuildEntry | null;
  css: string;
  js: string;
  /** third-party: the version folder in use (<id>/versions/<name>), null for a plain folder */
  installedVersion: string | null;
}

export interface DiscoverOptions {
  /** folders holding first-party plugins (the repo's plugins/; tests add fixtures) */
  bundledDirs: readonly string[];
  /** true: server parts come from builtPluginsDir; false: from <plugin>/server/index.ts */
  built: boolean;
  builtPluginsDir: string;
  /** dist/plugins.json: the build manifest of the first-party plugins */
  buildManifest: string;
  /** DATA_DIR/plugins */
  thirdPartyDir: string;
}

function readJson(path: string): { value: unknown; problem: string | null } {
  try {
    return { value: JSON.parse(readFileSync(path, 'utf8')) as unknown, problem: null };
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'is missing' : `cannot be read: ${(error as Error).message}`;
    return { value: null, problem: reason };
  }
}

function readOptional(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function subfolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.') && statSync(join(dir, name)).isDirectory())
    .sort();
}

function readBuildManifest(path: string): Record<string, BuildEntry> {
  const { value } = readJson(path);
  return value && typeof value === 'object' ? (value as Record<string, BuildEntry>) : {};
}

export function discoverPlugins(options: DiscoverOptions): PluginCandidate[] {
  const builds = readBuildManifest(options.buildManifest);
  const found: PluginCandidate[] = [];
  for (const base of options.bundledDirs) {
    for (const folder of subfolders(base)) {
      const dir = join(base, folder);
      if (!existsSync(join(dir, 'plugin.json'))) continue;
      const { value, problem } = readJson(join(dir, 'plugin.json'));
      const serverModule = options.built ? join(options.builtPluginsDir, `${folder}.js`) : join(dir, 'server', 'index.ts');
      found.push({
        folder,
        origin: 'bundled',
        dir,
        manifestJson: value,
        problem: problem ? `its plugin.json ${problem}` : null,
        serverModule: existsSync(serverModule) ? serverModule : null,
        clientDir: null,
        build: builds[folder] ?? null,
        css: readOptional(join(dir, 'custom.css')),
        js: readOptional(join(dir, 'custom.js')),
        installedVersion: null,
      });
    }
  }
  for (const folder of subfolders(options.thirdPartyDir)) found.push(thirdPartyCandidate(options.thirdPartyDir, folder));
  return found;
}

/** The folders of DATA_DIR/plugins (the installed third-party plugins' ids, as named on disk). */
export function thirdPartyFolders(thirdPartyDir: string): string[] {
  return subfolders(thirdPartyDir);
}

/** The installed third-party plugin in DATA_DIR/plugins/<folder>: the version in use. */
export function thirdPartyCandidate(thirdPartyDir: string, folder: string): PluginCandidate {
  const { dir, version } = activeFolder(join(thirdPartyDir, folder));
  return { ...builtFolderCandidate(dir, folder), installedVersion: version };
}

/** A built plugin folder at `dir` (installed, or an upload unpacked for checking), found as `folder`. */
export function builtFolderCandidate(dir: string, folder: string): PluginCandidate {
  const { value, problem } = readJson(join(dir, 'plugin.json'));
  const build = readJson(join(dir, 'build.json'));
  const serverModule = join(dir, 'server.js');
  return {
    folder,
    origin: 'third-party',
    dir,
    manifestJson: value,
    problem: problem ? `its plugin.json ${problem}` : null,
    serverModule: existsSync(serverModule) ? serverModule : null,
    clientDir: existsSync(join(dir, 'client')) ? join(dir, 'client') : null,
    build: build.value && typeof build.value === 'object' ? (build.value as BuildEntry) : null,
    css: readOptional(join(dir, 'custom.css')),
    js: readOptional(join(dir, 'custom.js')),
    installedVersion: null,
  };
}
