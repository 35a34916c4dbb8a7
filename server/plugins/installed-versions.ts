// Where an installed third-party plugin lives in DATA_DIR/plugins, one folder per id:
//
//   <id>/versions/<version>-<hash>/   one built version each (plugin.json, build.json, client/, server.js)
//   <id>/current                      the name of the version folder in use, replaced by a rename
//
// so an update writes the whole new version beside the running one and swaps by renaming one small
// file; the previous version stays on disk (pages opened before the swap still load its hashed
// client files) until the next update. A folder without `current` is a plain built folder (what
// `orepanel plugin build --out` writes), taken as it is.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CURRENT_FILE = 'current';
export const VERSIONS_FOLDER = 'versions';
/** a version folder's name: the manifest's version (semver) and the archive's hash */
const VERSION_FOLDER = /^[0-9A-Za-z.+-]{1,80}-[0-9a-f]{12}$/;
/** how many version folders stay: the one in use and the one before it (for pages still open) */
const KEPT_VERSIONS = 2;

export function versionFolderName(version: string, sha256: string): string {
  return `${version.replace(/[^0-9A-Za-z.+-]/g, '_')}-${sha256.slice(0, 12)}`;
}

/** The version folder `<id>/current` names, or null (none, or not one of ours). */
export function currentVersion(pluginRoot: string): string | null {
  let name: string;
  try {
    name = readFileSync(join(pluginRoot, CURRENT_FILE), 'utf8').trim();
  } catch {
    return null;
  }
  if (!VERSION_FOLDER.test(name) || !existsSync(join(pluginRoot, VERSIONS_FOLDER, name))) return null;
  return name;
}

/** The folder holding the plugin's files in use: the current version, or the plain folder itself. */
export function activeFolder(pluginRoot: string): { dir: string; version: string | null } {
  const version = currentVersion(pluginRoot);
  return version ? { dir: join(pluginRoot, VERSIONS_FOLDER, version), version } : { dir: pluginRoot, version: null };
}

/** A new, empty folder beside the installed plugins, for an upload to be unpacked into. */
export function stagingFolder(thirdPartyDir: string): string {
  const dir = join(thirdPartyDir, '.staging', randomBytes(9).toString('hex'));
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  return dir;
}

/** Moves a staged version into `<id>/versions/<name>` (not yet in use); its final path. */
export function placeVersion(thirdPartyDir: string, id: string, staged: string, name: string): string {
  const versions = join(thirdPartyDir, id, VERSIONS_FOLDER);
  mkdirSync(versions, { recursive: true, mode: 0o755 });
  const target = join(versions, name);
  if (existsSync(target)) rmSync(target, { recursive: true, force: true });
  renameSync(staged, target);
  return target;
}

/** Makes `name` the version in use: one rename, so a reader sees the old name or the new, never half. */
export function switchVersion(thirdPartyDir: string, id: string, name: string): void {
  const root = join(thirdPartyDir, id);
  const temporary = join(root, `.${CURRENT_FILE}-${randomBytes(6).toString('hex')}`);
  writeFileSync(temporary, `${name}\n`, { mode: 0o644 });
  renameSync(temporary, join(root, CURRENT_FILE));
}

/** The version folders other than the current one, newest first (by name order of install is unknown: by mtime). */
export function otherVersions(pluginRoot: string): string[] {
  const current = currentVersion(pluginRoot);
  const dir = join(pluginRoot, VERSIONS_FOLDER);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && VERSION_FOLDER.test(entry.name) && entry.name !== current)
    .map((entry) => entry.name);
}

/** Removes version folders beyond the current one and `previous` (the one pages may still use). */
export function pruneVersions(thirdPartyDir: string, id: string, previous: string | null): void {
  const root = join(thirdPartyDir, id);
  const keep = new Set([currentVersion(root), previous].filter((v): v is string => v !== null).slice(0, KEPT_VERSIONS));
  for (const name of otherVersions(root)) if (!keep.has(name)) rmSync(join(root, VERSIONS_FOLDER, name), { recursive: true, force: true });
}

/** Removes a version folder (a failed update's). */
export function dropVersion(thirdPartyDir: string, id: string, name: string): void {
  rmSync(join(thirdPartyDir, id, VERSIONS_FOLDER, name), { recursive: true, force: true });
}

/** Removes the plugin's whole folder: renamed aside first, so a half-removed folder is never found as a plugin. */
export function removePluginFolder(thirdPartyDir: string, id: string): void {
  const root = join(thirdPartyDir, id);
  if (!existsSync(root)) return;
  const aside = join(thirdPartyDir, `.removed-${id}-${randomBytes(6).toString('hex')}`);
  renameSync(root, aside);
  rmSync(aside, { recursive: true, force: true });
}

/** Removes what a staging folder holds (an upload that was refused or has been placed). */
export function clearStaging(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
