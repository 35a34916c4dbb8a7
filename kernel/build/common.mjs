// Pieces every browser build of the panel shares (the kernel and each plugin): how TypeScript/TSX is
// transpiled, how packages are resolved for the browser, and how output files are named and checked.
// Plain JS so rollup.config.mjs, the plugin preset and the tests can use it without a compile step.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import commonjs from '@rollup/plugin-commonjs';
import nodeResolve from '@rollup/plugin-node-resolve';
import replace from '@rollup/plugin-replace';
import esbuild from 'rollup-plugin-esbuild';

/** The repository root (kernel/build/ is two levels down). */
export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

export const sdkClientEntry = fileURLToPath(new URL('../../sdk/client.ts', import.meta.url));

const sharedModulesFile = new URL('../../sdk/shared-modules.json', import.meta.url);

/**
 * The one list of modules the kernel shares with plugins (sdk/shared-modules.json): bare specifier ->
 * 'eager' (in the kernel bundle) or 'lazy' (a kernel chunk fetched on first import).
 * @returns {Record<string, 'eager' | 'lazy'>}
 */
export function readSharedModules() {
  const json = JSON.parse(readFileSync(sharedModulesFile, 'utf8'));
  return json.modules;
}

/** `sha384-…` Subresource Integrity of some bytes. */
export function subresourceIntegrity(bytes) {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** A short content hash for file names (same length as rollup's default [hash]). */
export function contentHash(bytes) {
  return createHash('sha256').update(bytes).digest('base64url').replace(/[-_]/g, '').slice(0, 8).padEnd(8, '0');
}

/** `import data from './x.json'` for the build (rollup has no JSON support of its own). */
export function jsonModules() {
  return {
    name: 'orepanel-json',
    transform(code, id) {
      if (!id.endsWith('.json')) return null;
      return { code: `export default ${JSON.stringify(JSON.parse(code))};`, map: { mappings: '' } };
    },
  };
}

/** Maps `@orepanel/sdk` to sdk/client.ts for code that bundles the sdk (the kernel only). */
export function sdkAlias() {
  return {
    name: 'orepanel-sdk-alias',
    resolveId(source) {
      return source === '@orepanel/sdk' ? sdkClientEntry : null;
    },
  };
}

/**
 * Applies a package's `browser` field to bare imports made from ANY of its files (node-resolve applies
 * it only to imports from the package's main file): tapable's lib/Hook.js requires "util", which its
 * browser field maps to lib/util-browser.js.
 */
export function browserFieldAliases() {
  /** @type {Map<string, { root: string, map: Record<string, string | false> } | null>} */
  const byDir = new Map();
  const packageOf = (dir) => {
    if (byDir.has(dir)) return byDir.get(dir);
    let found = null;
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const browser = JSON.parse(readFileSync(file, 'utf8')).browser;
      found = { root: dir, map: typeof browser === 'object' && browser !== null ? browser : {} };
    } else if (dirname(dir) !== dir) {
      found = packageOf(dirname(dir));
    }
    byDir.set(dir, found);
    return found;
  };
  return {
    name: 'orepanel-browser-field',
    resolveId(source, importer) {
      if (!importer || source.startsWith('.') || source.startsWith('/') || source.startsWith('\0') || !importer.includes('node_modules')) return null;
      const pkg = packageOf(dirname(importer));
      const target = pkg?.map[source];
      if (target === undefined) return null;
      if (target === false) return { id: '\0orepanel-empty-module', moduleSideEffects: false };
      return join(pkg.root, target);
    },
    load(id) {
      return id === '\0orepanel-empty-module' ? 'export default {};' : null;
    },
  };
}

/**
 * Rollup plugins that turn the panel's TypeScript/TSX and browser packages into browser code.
 * No type-checking here: `tsc --noEmit` does that once for the whole tree (keeps the build fast).
 * @param {{ production: boolean }} options
 */
export function browserTranspile({ production }) {
  return [
    replace({
      preventAssignment: true,
      values: { 'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development') },
    }),
    jsonModules(),
    browserFieldAliases(),
    nodeResolve({
      browser: true,
      // ESM builds first (smaller, tree-shakable); `browser` still maps node-only files (tapable's util).
      mainFields: ['module', 'browser', 'main'],
      // node builtins (tapable's util) must resolve to their browser shims, never to externals
      preferBuiltins: false,
      exportConditions: ['browser', production ? 'production' : 'development', 'import', 'module', 'default'],
      extensions: ['.mjs', '.js', '.ts', '.tsx', '.json'],
    }),
    commonjs({ include: /node_modules/, transformMixedEsModules: true }),
    esbuild({
      include: /\.[cm]?[jt]sx?$/,
      exclude: /node_modules/,
      jsx: 'automatic',
      jsxImportSource: '@emotion/react',
      target: 'es2020',
      minify: production,
      // no source maps: the build runs in every test run and at `npm start`, and maps double its time
      sourceMap: false,
      legalComments: 'none',
      tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)),
    }),
  ];
}

/** Rollup warnings that are expected and say nothing useful about our code. */
export function quietWarnings(warning, warn) {
  // 'use client' directives in react-router/react-i18next; harmless in a client-only bundle
  if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
  // libraries that reference `this` at the top level of an ES module (three.js examples, emotion)
  if (warning.code === 'THIS_IS_UNDEFINED') return;
  if (warning.code === 'CIRCULAR_DEPENDENCY' && /node_modules/.test(warning.message)) return;
  warn(warning);
}
