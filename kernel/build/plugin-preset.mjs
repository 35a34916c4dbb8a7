// The build preset of a browser plugin: the same for the plugins in this repository (rollup.config.mjs)
// and for third-party plugins kept in DATA_DIR/plugins/<id> (buildPlugin() below).
//
// A plugin's client becomes ONE anonymous System.register bundle, `<id>-<hash>.js`, that imports the
// modules of sdk/shared-modules.json as externals (the kernel hands it its own instances at load time)
// and fetches its pages as hashed chunks next to it. Its catalogues are copied as content-hashed JSON.
// What the server needs to serve the plugin (entry, SRI integrity, locale files) comes back as a
// PluginBuildRecord, the value of dist/plugins.json for that plugin.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { rollup } from 'rollup';
import { validateManifest } from '../../sdk/manifest-validate.mjs';
import { browserTranspile, contentHash, quietWarnings, readSharedModules, subresourceIntegrity } from './common.mjs';
import { readRouterExclusions, ROUTER_PACKAGE } from './router-exports.mjs';

/**
 * @typedef {{ entry?: string, integrity?: string, localeFiles: Record<string, string> }} PluginBuildRecord
 * @typedef {import('../../sdk/types').PluginManifest} PluginManifest
 */

/**
 * Reads and validates `<pluginDir>/plugin.json` (the same validator the server uses). A folder whose
 * name differs from the manifest id is refused too, because URLs and the i18n namespace use the id.
 * @param {string} pluginDir
 * @param {{ checkFolderName?: boolean }} [options]
 * @returns {PluginManifest}
 * @throws {Error} with every schema problem listed, one per line
 */
export function readPluginManifest(pluginDir, { checkFolderName = true } = {}) {
  const file = join(pluginDir, 'plugin.json');
  let json;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: cannot be read as JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const result = validateManifest(json);
  if (!result.ok) {
    throw new Error(`${file} is not a valid plugin manifest:\n${result.errors.map((e) => `  - ${e}`).join('\n')}`);
  }
  const folder = basename(resolve(pluginDir));
  if (checkFolderName && folder !== result.manifest.id) {
    throw new Error(`${file}: the plugin id "${result.manifest.id}" must equal its folder name "${folder}"`);
  }
  return result.manifest;
}

/** client/index.tsx or client/index.ts of a plugin. */
export function pluginClientEntry(pluginDir) {
  for (const name of ['index.tsx', 'index.ts']) {
    const file = join(pluginDir, 'client', name);
    if (existsSync(file)) return file;
  }
  throw new Error(`${join(pluginDir, 'plugin.json')} declares "client": true but ${join(pluginDir, 'client')} has no index.tsx or index.ts`);
}

/**
 * Fails the build of a plugin that imports a react-router-dom export the kernel does not share
 * (kernel/modules/react-router-dom.exclusions.json): at run time it would be `undefined`.
 * @param {string} id
 * @returns {import('rollup').Plugin}
 */
function onlySharedRouterExports(id) {
  const exclusions = readRouterExclusions();
  return {
    name: 'orepanel-shared-router-exports',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        const refused = (chunk.importedBindings[ROUTER_PACKAGE] ?? []).filter((name) => Object.hasOwn(exclusions, name));
        if (refused.length === 0) continue;
        this.error(
          `plugin "${id}" imports ${refused.map((name) => `${name} (${exclusions[name]})`).join(', ')} from ${ROUTER_PACKAGE}; ` +
            'the panel shares only the browser API of the router with plugins (see kernel/modules/react-router-dom.exclusions.json)',
        );
      }
    },
  };
}

/**
 * The folder a plugin's browser files are written to: `outDir` when given (a third-party plugin's
 * client/ folder), else `<publicDir>/plugins/<id>`. Either way they are served at /plugins/<id>/.
 * @param {{ publicDir?: string, outDir?: string }} options
 * @param {string} id
 */
function clientOutDir({ publicDir, outDir }, id) {
  if (outDir) return outDir;
  if (!publicDir) throw new Error(`plugin "${id}": give publicDir or outDir to say where its browser files go`);
  return join(publicDir, 'plugins', id);
}

/**
 * Each lazily imported module of the entry (a page, by its file name: `import('./LoginPage')` is
 * LoginPage) with the chunks the browser needs for it — its own and those it imports statically —
 * as URLs. The server names them in preload hints for the page's route (server/http/route-preloads.ts).
 * @param {string} id
 * @param {import('rollup').OutputBundle} bundle
 * @param {import('rollup').OutputChunk} entry
 * @returns {Record<string, string[]>}
 */
export function pageChunks(id, bundle, entry) {
  /** @type {Record<string, string[]>} */
  const pages = {};
  for (const file of entry.dynamicImports) {
    const chunk = bundle[file];
    if (!chunk || chunk.type !== 'chunk' || !chunk.facadeModuleId) continue;
    const name = basename(chunk.facadeModuleId).replace(/\.[cm]?[jt]sx?$/, '');
    const files = [file];
    for (let i = 0; i < files.length; i++) {
      const current = bundle[files[i]];
      if (current?.type !== 'chunk') continue;
      // shared modules (react, the sdk…) are imports too, but no file of ours: the kernel provides them
      for (const dep of current.imports) if (bundle[dep]?.type === 'chunk' && dep !== entry.fileName && !files.includes(dep)) files.push(dep);
    }
    pages[name] = files.map((f) => `/plugins/${id}/${f}`);
  }
  return pages;
}

/**
 * The rollup options that build one plugin's client into `<publicDir>/plugins/<id>/` (or `outDir`).
 * @param {{
 *   pluginDir: string,
 *   publicDir?: string,
 *   outDir?: string,
 *   production?: boolean,
 *   manifest?: PluginManifest,
 *   onBuilt?: (built: { id: string, entry: string, integrity: string, files: string[], pages: Record<string, string[]> }) => void,
 * }} options  `onBuilt` receives the entry URL, its integrity, every file written (relative to
 *   the output folder) and each page's chunks ({@link pageChunks}) once the files are on disk.
 * @returns {import('rollup').RollupOptions}
 */
export function pluginClientConfig({ pluginDir, publicDir, outDir: explicitOutDir, production = true, manifest, onBuilt }) {
  const plugin = manifest ?? readPluginManifest(pluginDir);
  const id = plugin.id;
  const shared = readSharedModules();
  const outDir = clientOutDir({ publicDir, outDir: explicitOutDir }, id);
  return {
    input: pluginClientEntry(pluginDir),
    // The shared modules come from the kernel at load time (the very same instances). Subpaths are
    // shared only when listed (react/jsx-runtime is, react-dom/server is not and would be bundled).
    external: (source) => Object.hasOwn(shared, source),
    // code shared by the entry and a lazy page stays in the entry (one request), instead of a facade
    // entry re-exporting a second chunk
    preserveEntrySignatures: 'allow-extension',
    onwarn: quietWarnings,
    onLog(level, log, handler) {
      // experimentalMinChunkSize's report of what it merged
      if (log.code === 'OPTIMIZE_CHUNK_STATUS') return;
      handler(level, log);
    },
    plugins: [
      ...browserTranspile({ production }),
      onlySharedRouterExports(id),
      {
        name: 'orepanel-plugin-record',
        writeBundle(options, bundle) {
          const entry = Object.values(bundle).find((file) => file.type === 'chunk' && file.isEntry);
          if (!entry) throw new Error(`plugin "${id}": rollup produced no entry chunk`);
          // the integrity is taken from the bytes on disk: exactly what the browser will fetch
          const bytes = readFileSync(join(options.dir ?? outDir, entry.fileName));
          const pages = pageChunks(id, bundle, entry);
          onBuilt?.({ id, entry: `/plugins/${id}/${entry.fileName}`, integrity: subresourceIntegrity(bytes), files: Object.keys(bundle).sort(), pages });
        },
      },
    ],
    output: {
      dir: outDir,
      format: 'system',
      entryFileNames: `${id}-[hash].js`,
      chunkFileNames: '[name]-[hash].js',
      assetFileNames: '[name]-[hash][extname]',
      // a small module shared by two pages joins a chunk that is loaded anyway, instead of costing a
      // request of its own (lazy pages stay separate)
      experimentalMinChunkSize: 4096,
      // rollup's System output resolves `import()` relative to the bundle's own URL (import.meta)
      sourcemap: false,
    },
  };
}

/**
 * Copies a plugin's catalogues (locales/<lang>.json for every language its manifest lists) to
 * `<publicDir>/plugins/<id>/locales/<lang>-<hash>.json` (or `<outDir>/locales/…`), checking that each
 * one is valid JSON.
 * @param {{ pluginDir: string, publicDir?: string, outDir?: string, manifest?: PluginManifest }} options
 * @returns {Record<string, string>} language -> URL
 */
export function writePluginLocales({ pluginDir, publicDir, outDir: explicitOutDir, manifest }) {
  const plugin = manifest ?? readPluginManifest(pluginDir);
  const outDir = join(clientOutDir({ publicDir, outDir: explicitOutDir }, plugin.id), 'locales');
  /** @type {Record<string, string>} */
  const localeFiles = {};
  for (const lang of plugin.locales ?? []) {
    const source = join(pluginDir, 'locales', `${lang}.json`);
    if (!existsSync(source)) {
      throw new Error(`${join(pluginDir, 'plugin.json')} lists locale "${lang}" but ${source} does not exist`);
    }
    const text = readFileSync(source, 'utf8');
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`${source} is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
    }
    // minified: the catalogue is fetched on every start-up
    const bytes = Buffer.from(JSON.stringify(parsed));
    const name = `${lang}-${contentHash(bytes)}.json`;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(join(outDir, name), bytes);
    localeFiles[lang] = `/plugins/${plugin.id}/locales/${name}`;
  }
  return localeFiles;
}

/**
 * Builds one plugin completely (client bundle + catalogues) with rollup's JS API: what
 * `orepanel plugin build` runs for a third-party plugin (kernel/build/installable-plugin.mjs), and what
 * the contract tests run for their fixtures.
 * @param {{ pluginDir: string, publicDir?: string, outDir?: string, production?: boolean, checkFolderName?: boolean }} options
 *   the browser files go to `<publicDir>/plugins/<id>/`, or to `outDir` when given
 * @returns {Promise<{ id: string, manifest: PluginManifest, record: PluginBuildRecord, files: string[] }>}
 *   `files`: every file written, relative to the output folder
 */
export async function buildPlugin({ pluginDir, publicDir, outDir, production = true, checkFolderName = true }) {
  const manifest = readPluginManifest(pluginDir, { checkFolderName });
  const localeFiles = writePluginLocales({ pluginDir, publicDir, outDir, manifest });
  /** @type {PluginBuildRecord} */
  const record = { localeFiles };
  /** @type {string[]} */
  const files = Object.values(localeFiles).map((url) => url.slice(`/plugins/${manifest.id}/`.length));
  if (manifest.client !== false) {
    const config = pluginClientConfig({
      pluginDir,
      publicDir,
      outDir,
      production,
      manifest,
      onBuilt: (built) => {
        record.entry = built.entry;
        record.integrity = built.integrity;
        files.push(...built.files);
      },
    });
    const bundle = await rollup(config);
    try {
      await bundle.write(/** @type {import('rollup').OutputOptions} */ (config.output));
    } finally {
      await bundle.close();
    }
  }
  return { id: manifest.id, manifest, record, files: files.sort() };
}
