// issue 15: dist/server/prerender.js — the server-side renderer of the public pages plugins declare
// pre-renderable (plugin.json `routes[].prerender`): kernel/prerender/render-page.tsx together with the
// client entries of the panel's plugins that declare such a route, bundled for node (packages stay
// imports from node_modules, like the server's own build). The server imports it on the first request
// of such a page (server/http/prerender.ts); a third-party plugin's page is not in it and is simply
// not pre-rendered.
import { join } from 'node:path';
import nodeResolve from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import { jsonModules, quietWarnings, repoRoot, sdkAlias } from './common.mjs';

const ENTRY = '\0orepanel-prerender-entry';

/** The plugins (manifest + folder) with at least one pre-renderable route and a client part. */
export function prerenderPlugins(plugins) {
  return plugins.filter(({ manifest }) => manifest.client !== false && (manifest.routes ?? []).some((route) => route.prerender));
}

function generatedEntry(plugins) {
  const renderer = join(repoRoot, 'kernel/prerender/render-page.tsx');
  const lines = [`import { providePrerenderPlugin } from ${JSON.stringify(renderer)};`];
  plugins.forEach(({ dir }, i) => {
    lines.push(`import plugin${i} from ${JSON.stringify(join(dir, 'client/index.tsx'))};`);
    lines.push(`providePrerenderPlugin(plugin${i});`);
  });
  lines.push(`export { renderPage, prerenderPluginIds } from ${JSON.stringify(renderer)};`);
  return lines.join('\n');
}

/**
 * @param {{ outDir: string, plugins: { dir: string, manifest: import('../../sdk/types').PluginManifest }[] }} options
 * @returns {import('rollup').RollupOptions}
 */
export function prerenderConfig({ outDir, plugins }) {
  const chosen = prerenderPlugins(plugins);
  return {
    input: ENTRY,
    external: (source) => !source.startsWith('\0') && !source.startsWith('.') && !source.startsWith('/') && source !== '@orepanel/sdk',
    onwarn: quietWarnings,
    plugins: [
      {
        name: 'orepanel-prerender-entry',
        resolveId: (source) => (source === ENTRY ? ENTRY : null),
        load: (id) => (id === ENTRY ? generatedEntry(chosen) : null),
      },
      sdkAlias(),
      jsonModules(),
      nodeResolve({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'], preferBuiltins: true }),
      esbuild({ include: /\.[cm]?[jt]sx?$/, exclude: /node_modules/, target: 'node20', platform: 'node', sourceMap: false, tsconfig: join(repoRoot, 'tsconfig.json') }),
    ],
    // one file: the pages' lazy chunks are part of it
    output: { file: join(outDir, 'server', 'prerender.js'), format: 'es', inlineDynamicImports: true, sourcemap: false },
  };
}
