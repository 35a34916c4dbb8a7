// The server's build: server/main.ts and server/cli.ts -> dist/server/*.js, and each plugin's server
// part -> dist/plugins-server/<id>.js. ESM for node; packages stay external (node_modules is there at
// run time) except `@orepanel/sdk/*`, which is our own source and is bundled in.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import esbuild from 'rollup-plugin-esbuild';
import { jsonModules, quietWarnings, repoRoot } from './common.mjs';

const sdkEntries = {
  '@orepanel/sdk/server': join(repoRoot, 'sdk/server.ts'),
  '@orepanel/sdk': join(repoRoot, 'sdk/client.ts'),
};

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** Bare imports (packages, node builtins) stay imports; our own sources are bundled. */
function isExternal(source) {
  if (source.startsWith('\0') || source.startsWith('.') || source.startsWith('/')) return false;
  if (Object.hasOwn(sdkEntries, source)) return false;
  return builtins.has(source) || /^(@[^/]+\/)?[^/]+/.test(source);
}

/**
 * Resolves our own modules: the sdk names, and TypeScript's habit of importing `./x.js` for `./x.ts`.
 */
function serverSources() {
  return {
    name: 'orepanel-server-sources',
    resolveId(source, importer) {
      // in the @orepanel/sdk package there are no sources: the package's own build is resolved instead
      if (Object.hasOwn(sdkEntries, source) && existsSync(sdkEntries[source])) return sdkEntries[source];
      if (importer && source.startsWith('.') && /\.(m?js)$/.test(source)) {
        const asTs = resolve(dirname(importer), source.replace(/\.(m?)js$/, '.$1ts'));
        if (!existsSync(resolve(dirname(importer), source)) && existsSync(asTs)) return asTs;
      }
      return null;
    },
  };
}

/**
 * Keeps `new URL('./file', import.meta.url)` pointing at the same file after bundling: the module's
 * own folder is not the output folder (sdk/manifest-validate.mjs reads its schema that way).
 */
function keepFileUrls(outDir) {
  const pattern = /new URL\(\s*(['"`])(\.{1,2}\/[^'"`$]*)\1\s*,\s*import\.meta\.url\s*\)/g;
  return {
    name: 'orepanel-keep-file-urls',
    transform(code, id) {
      if (id.includes(`${sep}node_modules${sep}`) || !code.includes('import.meta.url')) return null;
      let changed = false;
      const out = code.replace(pattern, (_match, _quote, path) => {
        const target = resolve(dirname(id), path);
        let rel = relative(outDir, target).split(sep).join('/');
        if (!rel.startsWith('.')) rel = `./${rel}`;
        if (path.endsWith('/') && !rel.endsWith('/')) rel += '/';
        changed = true;
        return `new URL(${JSON.stringify(rel)}, import.meta.url)`;
      });
      return changed ? { code: out, map: null } : null;
    },
  };
}

function nodeTranspile(outDir) {
  return [
    serverSources(),
    keepFileUrls(outDir),
    jsonModules(),
    nodeResolve({ extensions: ['.ts', '.mts', '.mjs', '.js', '.json'], preferBuiltins: true }),
    esbuild({ include: /\.[cm]?[jt]sx?$/, exclude: /node_modules/, target: 'node20', platform: 'node', sourceMap: false, tsconfig: join(repoRoot, 'tsconfig.json') }),
  ];
}

/**
 * server/main.ts and server/cli.ts -> dist/server/main.js and dist/server/cli.js.
 * @param {{ outDir: string }} options outDir: dist/
 * @returns {import('rollup').RollupOptions}
 */
export function serverConfig({ outDir }) {
  const dir = join(outDir, 'server');
  return {
    input: { main: join(repoRoot, 'server/main.ts'), cli: join(repoRoot, 'server/cli.ts') },
    external: isExternal,
    onwarn: quietWarnings,
    plugins: nodeTranspile(dir),
    output: {
      dir,
      format: 'es',
      entryFileNames: '[name].js',
      // chunks next to the entries, so that file URLs rewritten for this folder stay right
      chunkFileNames: '[name]-[hash].js',
      sourcemap: false,
    },
  };
}

/**
 * Any of our node modules (the sdk's server entry, its server test kit) -> `dir`, as the server is
 * built: packages stay imports, our own sources are bundled. For the @orepanel/sdk package.
 * @param {{ input: Record<string, string>, dir: string }} options
 * @returns {import('rollup').RollupOptions}
 */
export function nodeBundleConfig({ input, dir }) {
  return {
    input,
    external: isExternal,
    onwarn: quietWarnings,
    plugins: nodeTranspile(dir),
    output: { dir, format: 'es', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', sourcemap: false },
  };
}

/** server/index.ts (or .mts) of a plugin folder; a readable error when it declares a server part without one. */
function pluginServerEntry(pluginDir) {
  const input = ['index.ts', 'index.mts'].map((f) => join(pluginDir, 'server', f)).find((f) => existsSync(f));
  if (!input) throw new Error(`${join(pluginDir, 'plugin.json')} declares "server": true but ${join(pluginDir, 'server')} has no index.ts`);
  return input;
}

/**
 * A third-party plugin's server part -> `<installed folder>/server.js`. Unlike the panel's own
 * plugins it does not live next to the panel's node_modules (DATA_DIR may be anywhere), so every
 * package it imports is bundled in — resolved from the plugin's own node_modules first, then the
 * panel's — and only node's builtins stay imports.
 * @param {{ pluginDir: string, file: string }} options
 * @returns {import('rollup').RollupOptions}
 */
export function thirdPartyServerConfig({ pluginDir, file }) {
  const dir = dirname(file);
  return {
    input: pluginServerEntry(pluginDir),
    external: (source) => builtins.has(source),
    onwarn: quietWarnings,
    plugins: [
      serverSources(),
      keepFileUrls(dir),
      jsonModules(),
      nodeResolve({
        extensions: ['.ts', '.mts', '.mjs', '.js', '.json'],
        preferBuiltins: true,
        exportConditions: ['node', 'import', 'default'],
        modulePaths: [join(repoRoot, 'node_modules')],
      }),
      commonjs({ include: /node_modules/, ignoreDynamicRequires: true }),
      esbuild({ include: /\.[cm]?[jt]sx?$/, exclude: /node_modules/, target: 'node20', platform: 'node', sourceMap: false, tsconfig: join(repoRoot, 'tsconfig.json') }),
    ],
    output: { file, format: 'es', inlineDynamicImports: true, sourcemap: false },
  };
}

/**
 * One plugin's server part -> dist/plugins-server/<id>.js, self-contained (its own copy of the
 * sdk's server helpers), so the host can import it by id.
 * @param {{ outDir: string, pluginDir: string, id: string }} options
 * @returns {import('rollup').RollupOptions}
 */
export function pluginServerConfig({ outDir, pluginDir, id }) {
  const dir = join(outDir, 'plugins-server');
  return {
    input: pluginServerEntry(pluginDir),
    external: isExternal,
    onwarn: quietWarnings,
    plugins: nodeTranspile(dir),
    output: { file: join(dir, `${id}.js`), format: 'es', inlineDynamicImports: true, sourcemap: false },
  };
}
