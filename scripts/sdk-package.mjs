#!/usr/bin/env node
// `npm run sdk:pack`: the sdk as the package a plugin author installs, `@orepanel/sdk`, packed with
// `npm pack` into dist/orepanel-sdk-<version>.tgz (staged in dist/sdk-package/).
//
//   types/          declarations of the four entry points (tsc, from sdk/client.ts, sdk/server.ts,
//                   sdk/testing.ts, sdk/testing/server.ts): the surface of sdk/api-report/
//   dist/           the client sdk and its test kit (one module graph: a test and the plugin share the
//                   sdk's stores), the server sdk, the server test kit with the panel's server, and the
//                   panel's plugins' server parts (dist/server/, dist/plugins-server/, as the panel's
//                   own build lays them out, so the test kit starts the panel from its build)
//   plugins/<id>/   the panel's plugins' manifests and mail texts (what the test kit's panel reads)
//   kernel/build/   the panel's build preset and checks (`orepanel-sdk build` is `orepanel plugin build`)
//   vitest.mjs, tsconfig.json, bin/orepanel-sdk.mjs   from sdk/package/
//
// In the panel the client sdk is never a second copy: a plugin's bundle imports `@orepanel/sdk` as an
// external that the kernel hands over at load time (sdk/shared-modules.json). The package's dist/
// client code runs only in the author's tests. The shared modules are peer dependencies, so the
// author's project has one react, one router, one i18next, as the panel has.
//
//   node scripts/sdk-package.mjs [--out <folder>]   prints the tarball's path
import { spawn, spawnSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import nodeResolve from '@rollup/plugin-node-resolve';
import { rollup } from 'rollup';
import esbuild from 'rollup-plugin-esbuild';
import { jsonModules, quietWarnings } from '../kernel/build/common.mjs';
import { pluginDevDependencies } from '../kernel/build/scaffold.mjs';
import { nodeBundleConfig, pluginServerConfig } from '../kernel/build/server-config.mjs';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SDK_VERSION = /SDK_VERSION = '([^']+)'/.exec(readFileSync(join(REPO_ROOT, 'sdk/version.ts'), 'utf8'))?.[1];
if (!SDK_VERSION) throw new Error('sdk/version.ts names no SDK_VERSION');

/** The entry points: import path → source, declaration and runtime file in the package. */
export const PACKAGE_ENTRIES = [
  { path: '.', source: 'sdk/client.ts', types: 'types/sdk/client.d.ts', runtime: 'dist/client.js' },
  { path: './server', source: 'sdk/server.ts', types: 'types/sdk/server.d.ts', runtime: 'dist/server.js' },
  { path: './testing', source: 'sdk/testing.ts', types: 'types/sdk/testing.d.ts', runtime: 'dist/testing.js' },
  { path: './testing/server', source: 'sdk/testing/server.ts', types: 'types/sdk/testing/server.d.ts', runtime: 'dist/server/testing-server.js' },
];

/** Plain-JS files of the panel the package carries as they are (the build preset and what it reads). */
const COPIED = [
  'kernel/build/common.mjs',
  'kernel/build/plugin-preset.mjs',
  'kernel/build/plugin-preset.d.mts',
  'kernel/build/installable-plugin.mjs',
  'kernel/build/installable-plugin.d.mts',
  'kernel/build/plugin-checks.mjs',
  'kernel/build/plugin-checks.d.mts',
  'kernel/build/server-config.mjs',
  'kernel/build/router-exports.mjs',
  'kernel/build/router-exports.d.mts',
  'kernel/build/scaffold.mjs',
  'kernel/modules/react-router-dom.exclusions.json',
  'sdk/manifest-validate.mjs',
  'sdk/manifest-validate.d.mts',
  'sdk/manifest.schema.json',
  'sdk/shared-modules.json',
  'sdk/table-names.mjs',
  'sdk/table-names.d.mts',
];

/** Packages an author's project must hold once (peers): the shared modules, kysely, the test tools. */
const PEERS = ['@emotion/react', 'i18next', 'immer', 'kysely', 'mitt', 'react', 'react-dom', 'react-i18next', 'react-router-dom', 'sweetalert2', 'vitest', 'zustand'];
const OPTIONAL_PEERS = ['jsdom', 'skinview3d', 'typescript'];

const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const isBare = (source) => !source.startsWith('.') && !source.startsWith('/') && !source.startsWith('\0') && !/^[a-z]:[\\/]/i.test(source);
/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
export const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

// ---- declarations ---------------------------------------------------------------------------------

/** Relative module specifiers of a declaration file (imports, exports, `import("…")` types). */
function relativeSpecifiers(text) {
  const found = new Set();
  // doc comments hold examples (`import('./HelloPage')`) that are no imports
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const match of code.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)(['"])(\.{1,2}\/[^'"]+)\1/g)) found.add(match[2]);
  return [...found];
}

/**
 * The declaration a relative specifier of `fromFile` names, relative to the emit folder: what tsc
 * wrote, or a file of the sources (a hand-written .d.mts next to its .mjs, a JSON file).
 */
function declarationFor(out, fromFile, specifier) {
  const base = join(dirname(relative(out, fromFile)), specifier);
  const candidates = /\.mjs$/.test(base)
    ? [base.replace(/\.mjs$/, '.d.mts')]
    : /\.json$/.test(base)
      ? [base]
      : [`${base}.d.ts`, join(base, 'index.d.ts'), base.replace(/\.js$/, '.d.ts')];
  return candidates.find((c) => existsSync(join(out, c)) || existsSync(join(REPO_ROOT, c))) ?? null;
}

/**
 * tsc's declarations of the entry points into `<pkg>/types`, keeping only the files they reach (the
 * server test kit's types reach into the panel's server). Plain-JS modules bring their .d.mts.
 */
async function writeDeclarations(pkg) {
  const work = mkdtempSync(join(tmpdir(), 'orepanel-sdk-types-'));
  try {
    const config = join(work, 'tsconfig.json');
    writeFileSync(
      config,
      JSON.stringify({
        extends: join(REPO_ROOT, 'tsconfig.json'),
        compilerOptions: {
          noEmit: false,
          declaration: true,
          emitDeclarationOnly: true,
          declarationMap: false,
          sourceMap: false,
          incremental: false,
          outDir: join(work, 'out'),
          rootDir: REPO_ROOT,
          typeRoots: [join(REPO_ROOT, 'node_modules', '@types')],
        },
        include: [],
        files: PACKAGE_ENTRIES.map((entry) => join(REPO_ROOT, entry.source)),
      }),
    );
    // type errors elsewhere in the tree (work under way) still emit; a missing entry is what fails
    await new Promise((done, fail) => {
      const tsc = spawn(process.execPath, [join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config], { cwd: REPO_ROOT, stdio: 'ignore' });
      tsc.on('error', fail);
      tsc.on('close', done);
    });
    const out = join(work, 'out');
    const types = join(pkg, 'types');
    const queue = PACKAGE_ENTRIES.map((entry) => join(out, entry.types.slice('types/'.length)));
    const seen = new Set();
    while (queue.length > 0) {
      const file = queue.shift();
      if (seen.has(file)) continue;
      seen.add(file);
      const rel = relative(out, file);
      if (!existsSync(file)) {
        // a .d.mts written by hand next to its .mjs, or a JSON file: taken from the sources
        const source = join(REPO_ROOT, rel);
        if (!existsSync(source)) throw new Error(`sdk package: the declarations need ${rel}, which neither tsc nor the sources have`);
        mkdirSync(dirname(file), { recursive: true });
        copyFileSync(source, file);
      }
      mkdirSync(dirname(join(types, rel)), { recursive: true });
      copyFileSync(file, join(types, rel));
      if (/\.json$/.test(file)) continue;
      for (const specifier of relativeSpecifiers(readFileSync(file, 'utf8'))) {
        const target = declarationFor(out, file, specifier);
        if (!target) throw new Error(`sdk package: ${rel} imports ${specifier}, which has no declaration`);
        queue.push(join(out, target));
      }
    }
    return [...seen].map((f) => relative(out, f)).sort();
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

// ---- runtime code -----------------------------------------------------------------------------------

/**
 * Resolves the panel's plain-JS modules that the package carries as files (COPIED) to those files, as
 * externals: one copy of the manifest validator, reading its schema from beside itself.
 */
function carriedFiles(pkg) {
  const carried = new Map(COPIED.filter((f) => f.endsWith('.mjs')).map((f) => [join(REPO_ROOT, f), f]));
  const MARK = 'orepanel-carried:';
  return {
    name: 'orepanel-sdk-carried-files',
    resolveId(source, importer) {
      if (!importer || !source.startsWith('.')) return null;
      const file = carried.get(resolve(dirname(importer), source));
      return file ? { id: `${MARK}${file}`, external: true } : null;
    },
    // the import is written relative to the chunk that makes it, wherever rollup put that chunk
    renderChunk(code, chunk, options) {
      if (!code.includes(MARK)) return null;
      const from = dirname(join(options.dir ?? dirname(options.file), chunk.fileName));
      return {
        code: code.replace(new RegExp(`(['"])${MARK}([^'"]+)\\1`, 'g'), (_all, quote, file) => {
          let path = relative(from, join(pkg, file)).split('\\').join('/');
          if (!path.startsWith('.')) path = `./${path}`;
          return `${quote}${path}${quote}`;
        }),
        map: null,
      };
    },
  };
}

/** The client sdk, its test kit and the preset's setup file: browser code run in node + jsdom by vitest. */
async function writeClientRuntime(pkg) {
  const bundle = await rollup({
    input: {
      client: join(REPO_ROOT, 'sdk/client.ts'),
      testing: join(REPO_ROOT, 'sdk/testing.ts'),
      'vitest-setup': join(REPO_ROOT, 'sdk/testing/vitest-setup.ts'),
    },
    // every package stays an import: the shared modules are the author's (peers), one instance each
    external: (source) => isBare(source) && source !== '@orepanel/sdk',
    onwarn: quietWarnings,
    plugins: [
      { name: 'orepanel-sdk-self', resolveId: (source) => (source === '@orepanel/sdk' ? join(REPO_ROOT, 'sdk/client.ts') : null) },
      carriedFiles(pkg),
      jsonModules(),
      nodeResolve({ extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] }),
      esbuild({
        include: /\.[cm]?[jt]sx?$/,
        exclude: /node_modules/,
        jsx: 'automatic',
        jsxImportSource: '@emotion/react',
        target: 'es2022',
        sourceMap: false,
        tsconfig: join(REPO_ROOT, 'tsconfig.json'),
      }),
    ],
  });
  try {
    await bundle.write({ dir: join(pkg, 'dist'), format: 'es', entryFileNames: '[name].js', chunkFileNames: 'chunks/[name]-[hash].js', sourcemap: false });
  } finally {
    await bundle.close();
  }
}

async function writeRollup(config) {
  const bundle = await rollup(config);
  try {
    const outputs = Array.isArray(config.output) ? config.output : [config.output];
    for (const output of outputs) await bundle.write(output);
  } finally {
    await bundle.close();
  }
}

/** A bundle config with the carried plain-JS files kept as imports of the package's copies. */
function withCarriedFiles(config, pkg) {
  return { ...config, plugins: [carriedFiles(pkg), ...config.plugins] };
}

/**
 * The server sdk, the plugin-archive writer (`orepanel-sdk build --pack`), the server test kit with the
 * panel's server, and every panel plugin's server part and manifest (a plugin under test may require
 * any of them).
 */
async function writeServerRuntime(pkg) {
  await writeRollup(
    withCarriedFiles(
      nodeBundleConfig({ input: { server: join(REPO_ROOT, 'sdk/server.ts'), 'plugin-archive': join(REPO_ROOT, 'server/plugins/plugin-archive.ts') }, dir: join(pkg, 'dist') }),
      pkg,
    ),
  );
  await writeRollup(withCarriedFiles(nodeBundleConfig({ input: { 'testing-server': join(REPO_ROOT, 'sdk/testing/server.ts') }, dir: join(pkg, 'dist', 'server') }), pkg));
  const pluginsDir = join(REPO_ROOT, 'plugins');
  const builds = [];
  for (const id of readdirSync(pluginsDir).sort()) {
    const dir = join(pluginsDir, id);
    if (!existsSync(join(dir, 'plugin.json'))) continue;
    const target = join(pkg, 'plugins', id);
    mkdirSync(target, { recursive: true });
    for (const name of ['plugin.json', 'custom.css', 'custom.js']) if (existsSync(join(dir, name))) copyFileSync(join(dir, name), join(target, name));
    if (existsSync(join(dir, 'mail'))) cpSync(join(dir, 'mail'), join(target, 'mail'), { recursive: true });
    const serverEntry = ['index.ts', 'index.mts'].some((f) => existsSync(join(dir, 'server', f)));
    if (serverEntry) builds.push(writeRollup(withCarriedFiles(pluginServerConfig({ outDir: join(pkg, 'dist'), pluginDir: dir, id }), pkg)));
  }
  // side by side: esbuild transpiles in its own threads while rollup waits
  await Promise.all(builds);
}

// ---- package.json ---------------------------------------------------------------------------------------

/** Every JS file under `dir`. */
function scripts(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return scripts(path);
    return /\.(m?js)$/.test(entry.name) ? [path] : [];
  });
}

/** The packages the package's own code imports (bare specifiers, builtins left out). */
export function importedPackages(pkg) {
  const names = new Set();
  const files = [...scripts(join(pkg, 'dist')), ...scripts(join(pkg, 'kernel')), ...scripts(join(pkg, 'sdk')), ...scripts(join(pkg, 'bin')), join(pkg, 'vitest.mjs')];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:^|[\s;}])(?:import|export)\s*(?:[\w*{}\s,$]+\s*from\s*)?(['"])([^'"]+)\1|import\(\s*(['"])([^'"]+)\3\s*\)/gm)) {
      const specifier = match[2] ?? match[4];
      if (!specifier || !isBare(specifier) || builtins.has(specifier) || specifier.startsWith('node:')) continue;
      const name = packageName(specifier);
      if (name !== '@orepanel/sdk') names.add(name);
    }
  }
  return [...names].sort();
}

function writePackageJson(pkg) {
  const panel = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
  const versions = { ...panel.devDependencies, ...panel.dependencies };
  const versionOf = (name) => {
    if (!versions[name]) throw new Error(`sdk package: its code imports ${name}, which the panel's package.json does not list`);
    return versions[name];
  };
  const imported = importedPackages(pkg);
  const peers = [...PEERS, ...OPTIONAL_PEERS];
  // esbuild: rollup-plugin-esbuild's own peer, the transpiler of `orepanel-sdk build`
  const needed = [...new Set([...imported, 'esbuild'])].sort();
  const dependencies = Object.fromEntries(needed.filter((name) => !peers.includes(name)).map((name) => [name, versionOf(name)]));
  const exports = { './package.json': './package.json', './tsconfig.json': './tsconfig.json' };
  for (const entry of PACKAGE_ENTRIES) exports[entry.path] = { types: `./${entry.types}`, default: `./${entry.runtime}` };
  exports['./vitest'] = { types: './vitest.d.mts', default: './vitest.mjs' };
  exports['./rollup'] = { types: './kernel/build/plugin-preset.d.mts', default: './kernel/build/plugin-preset.mjs' };
  exports['./build'] = { types: './kernel/build/installable-plugin.d.mts', default: './kernel/build/installable-plugin.mjs' };
  const manifest = {
    name: '@orepanel/sdk',
    version: SDK_VERSION,
    description: "The Orepanel plugin SDK: types, the client and server test kits, the vitest preset, the build preset and the plugin author's command line.",
    license: panel.license,
    type: 'module',
    engines: panel.engines,
    bin: { 'orepanel-sdk': 'bin/orepanel-sdk.mjs' },
    exports,
    types: `./${PACKAGE_ENTRIES[0].types}`,
    files: ['bin', 'dist', 'kernel', 'plugins', 'sdk', 'types', 'README.md', 'tsconfig.json', 'vitest.mjs', 'vitest.d.mts'],
    dependencies,
    peerDependencies: Object.fromEntries(peers.map((name) => [name, versionOf(name)])),
    peerDependenciesMeta: Object.fromEntries(OPTIONAL_PEERS.map((name) => [name, { optional: true }])),
    orepanel: { panelVersion: panel.version, pluginDevDependencies: pluginDevDependencies(panel) },
  };
  writeFileSync(join(pkg, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

// ---- the whole package ------------------------------------------------------------------------------------

/**
 * Stages the package in `<outDir>/sdk-package/` and packs it into `<outDir>/orepanel-sdk-<version>.tgz`.
 * @param {{ outDir?: string }} [options] default dist/
 * @returns {Promise<{ tarball: string, dir: string, manifest: object, declarations: string[] }>}
 */
export async function packSdk({ outDir = join(REPO_ROOT, 'dist') } = {}) {
  const pkg = join(outDir, 'sdk-package');
  rmSync(pkg, { recursive: true, force: true });
  mkdirSync(pkg, { recursive: true });
  for (const file of COPIED) {
    mkdirSync(dirname(join(pkg, file)), { recursive: true });
    copyFileSync(join(REPO_ROOT, file), join(pkg, file));
  }
  cpSync(join(REPO_ROOT, 'sdk/package'), pkg, { recursive: true });
  const timings = {};
  const timed = async (name, step) => {
    const started = Date.now();
    const result = await step();
    timings[name] = Date.now() - started;
    return result;
  };
  // tsc runs in a process of its own while rollup bundles here
  const [declarations] = await Promise.all([
    timed('types', () => writeDeclarations(pkg)),
    timed('runtime', async () => {
      await writeClientRuntime(pkg);
      await writeServerRuntime(pkg);
    }),
  ]);
  const manifest = writePackageJson(pkg);
  const packed = await timed('pack', () => JSON.parse(run('npm', ['pack', '--json', '--pack-destination', outDir], pkg)));
  const tarball = join(outDir, packed[0].filename);
  if (!statSync(tarball).isFile()) throw new Error(`npm pack wrote no ${tarball}`);
  return { tarball, dir: pkg, manifest, declarations, timings };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const started = Date.now();
  const { tarball, timings } = await packSdk(at >= 0 ? { outDir: resolve(args[at + 1]) } : {});
  const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
  process.stdout.write(
    `${relative(process.cwd(), tarball) || tarball} (${seconds(Date.now() - started)}: ${Object.entries(timings)
      .map(([k, v]) => `${k} ${seconds(v)}`)
      .join(', ')})\n`,
  );
}
