// Built plugin archives for API tests: a plugin folder written to a temporary folder and packed the
// way `orepanel plugin build --pack` packs one (server/plugins/plugin-archive.ts).
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { packPluginFolder } from '../../server/plugins/plugin-archive';

/** Packs a folder holding `files` (path → contents); plugin.json is written from `manifest`. */
export function pluginArchive(manifest: Record<string, unknown>, files: Record<string, string> = {}): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'op-plugin-'));
  try {
    writeFileSync(join(dir, 'plugin.json'), JSON.stringify(manifest));
    for (const [path, contents] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), contents);
    }
    return packPluginFolder(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A plugin with no code at all (no client, no server): installing it runs nothing. */
export function emptyPluginArchive(id: string, version = '1.0.0'): Buffer {
  return pluginArchive({ id, name: `Fixture ${id}`, version, sdk: '^2.0.0', client: false, server: false });
}
