// `npm run build`: one array of rollup configurations, built one after the other by the rollup CLI.
//   1. the kernel        kernel/main.tsx              -> dist/public (index.html, assets/, locales/, sw.js)
//   2. each plugin       plugins/<id>/client/index.tsx -> dist/public/plugins/<id>/ (System.register)
//   3. the server        server/{main,cli}.ts          -> dist/server/
//   4. plugin servers    plugins/<id>/server/index.ts  -> dist/plugins-server/<id>.js
// then dist/plugins.json (entry, integrity, catalogues of every plugin) and the .gz/.br copies of
// dist/public. The presets live in kernel/build/ (plugin-preset.mjs also builds third-party plugins).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './kernel/build/common.mjs';
import { kernelConfig } from './kernel/build/kernel-config.mjs';
import { pluginClientConfig, readPluginManifest, writePluginLocales } from './kernel/build/plugin-preset.mjs';
import { precompressDirectory } from './kernel/build/precompress.mjs';
import { prerenderConfig } from './kernel/build/prerender-config.mjs';
import { pluginServerConfig, serverConfig } from './kernel/build/server-config.mjs';

const production = process.env.NODE_ENV !== 'development';
const outDir = join(repoRoot, 'dist');
const publicDir = join(outDir, 'public');
const pluginsRoot = join(repoRoot, 'plugins');

// Every plugin folder's manifest, validated now: a broken plugin.json fails the build with its errors.
const plugins = readdirSync(pluginsRoot, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(pluginsRoot, entry.name, 'plugin.json')))
  .map((entry) => {
    const dir = join(pluginsRoot, entry.name);
    return { dir, manifest: readPluginManifest(dir) };
  })
  .sort((a, b) => a.manifest.id.localeCompare(b.manifest.id));

/** dist/plugins.json, filled in as the plugin bundles are written */
const records = Object.fromEntries(plugins.map((p) => [p.manifest.id, { localeFiles: {} }]));

/** Runs once the last configuration is written: catalogues, dist/plugins.json, precompression. */
function finishBuild() {
  return {
    name: 'orepanel-finish-build',
    async closeBundle() {
      for (const { dir, manifest } of plugins) {
        records[manifest.id].localeFiles = writePluginLocales({ pluginDir: dir, publicDir, manifest });
      }
      mkdirSync(outDir, { recursive: true });
      writeFileSync(join(outDir, 'plugins.json'), `${JSON.stringify(records, null, 2)}\n`);
      await precompressDirectory(publicDir);
    },
  };
}

const configs = [
  kernelConfig({
    outDir,
    production,
    pluginCatalogues: plugins.map(({ dir, manifest }) => ({ id: manifest.id, dir, locales: manifest.locales ?? [] })),
    clean: [publicDir, join(outDir, 'server'), join(outDir, 'plugins-server'), join(outDir, 'plugins.json'), join(outDir, 'kernel-modules.json')],
  }),
  ...plugins
    .filter(({ manifest }) => manifest.client !== false)
    .map(({ dir, manifest }) =>
      pluginClientConfig({
        pluginDir: dir,
        publicDir,
        production,
        manifest,
        onBuilt: ({ id, entry, integrity, pages }) => {
          // pages: each page's chunks, for the preload hints of its route (server/http/route-preloads.ts)
          records[id] = { entry, integrity, pages, localeFiles: records[id].localeFiles };
        },
      }),
    ),
  serverConfig({ outDir }),
  // the public pages plugins declare pre-renderable, rendered by the server (issue 15)
  prerenderConfig({ outDir, plugins }),
  ...plugins.filter(({ manifest }) => manifest.server === true).map(({ dir, manifest }) => pluginServerConfig({ outDir, pluginDir: dir, id: manifest.id })),
];

configs[configs.length - 1].plugins.push(finishBuild());

export default configs;
