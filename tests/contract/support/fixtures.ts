// Builds the contract fixtures (tests/fixtures/client-plugins/*) with the panel's plugin preset into a
// temporary public folder, and describes them as the server would serve them (manifest + build record).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPlugin } from '../../../kernel/build/plugin-preset.mjs';
import type { ServedPluginManifest } from '../../../sdk/types';

export const REPO = new URL('../../../', import.meta.url).pathname;
export const FIXTURES = join(REPO, 'tests/fixtures/client-plugins');
export const DIST = join(REPO, 'dist');

export interface BuiltFixtures {
  /** the temporary public folder holding plugins/<id>/… */
  publicDir: string;
  /** id -> what GET /api/system/plugins would serve for it */
  served: Record<string, ServedPluginManifest>;
  remove(): void;
}

/** Builds the named fixtures (all of them by default), in parallel. */
export async function buildFixtures(
  ids: string[] = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name),
): Promise<BuiltFixtures> {
  const publicDir = mkdtempSync(join(tmpdir(), 'orepanel-contract-'));
  const built = await Promise.all(ids.map((id) => buildPlugin({ pluginDir: join(FIXTURES, id), publicDir })));
  const served: Record<string, ServedPluginManifest> = {};
  for (const { id, manifest, record } of built) served[id] = { ...manifest, ...record };
  return { publicDir, served, remove: () => rmSync(publicDir, { recursive: true, force: true }) };
}
