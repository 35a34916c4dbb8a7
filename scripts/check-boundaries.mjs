#!/usr/bin/env node
// The import boundaries of the tree, checked by machine (`npm run lint` runs it):
// - a plugin imports only the sdk (@orepanel/sdk…), the modules the kernel shares with plugins
//   (sdk/shared-modules.json), its own folder, and the `contract.ts` of a plugin it lists in
//   `requires`; its server part and its tests may also use Node's built-ins and the packages the
//   panel itself depends on (a plugin's client bundle may not: the kernel does not share them); its
//   client takes only types from another plugin's contract (`import type`: a contract names
//   server-side references, which must not be bundled into the browser);
// - a plugin's `contract.ts` is what other plugins compile against, so it stands on its own: it
//   imports the sdk, the shared modules, types of the panel's packages (`import type`), and the
//   contracts of the plugins its own plugin requires — never a file of its own plugin (its internals
//   would leak into every consumer);
// - the kernel, the server core and the sdk never import plugins/.
// A plugin's tests may also load another plugin the way the kernel does (manifest, client entry,
// catalogues) to render the two together, and a plugin's API and browser tests (tests/*.api.test.ts,
// tests/*.e2e.test.ts) may import the repository's test helpers (the modules under tests/ that are not
// tests themselves: the per-dialect API harness, the browser harness, stand-ins of outside services).
// Relative imports are resolved to files, so `../../other-plugin/x` is caught at any depth.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs)$/;
/** What the kernel loads of a plugin: its manifest, its client entry and its catalogues. */
const KERNEL_LOADS = /^(plugin\.json|client\/index\.tsx?|locales\/[a-z]{2}\.json)$/;
/** A plugin's tests that run against a whole panel: its API tests and its browser tests. */
const PANEL_TEST = /\.(api|e2e)\.test\.ts$/;
const TEST_FILE = /\.test\.(ts|tsx)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', '.git']);
const IMPORT =
  /(?:^|[^\w.$])(?:import|export)\s+(type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?['"]([^'"\n]+)['"]|(?:^|[^\w.$])import\s*\(\s*['"]([^'"\n]+)['"]\s*\)|(?:^|[^\w.$])require\s*\(\s*['"]([^'"\n]+)['"]\s*\)/g;
/** A plugin's contract: plugins/<id>/contract.ts, the one file of a plugin others may import. */
const CONTRACT = /^contract\.(ts|tsx)$/;

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) walk(join(dir, entry.name), out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

/**
 * Every module specifier a source file names, with its line and whether it is `import type` /
 * `export type` (erased from the build). Comments are blanked first.
 */
export function importsOf(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/[^\n]*/g, (c, p) => p + ' '.repeat(c.length - p.length));
  const found = [];
  for (const match of code.matchAll(IMPORT)) {
    const specifier = match[2] ?? match[3] ?? match[4];
    const line = code.slice(0, match.index).split('\n').length + (code[match.index] === '\n' ? 1 : 0);
    found.push({ specifier, line, typeOnly: match[1] !== undefined });
  }
  return found;
}

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The file a relative specifier names (TypeScript style: extensionless, or an index file). */
function resolveRelative(from, specifier) {
  const base = resolve(dirname(from), specifier);
  const candidates = [base, ...['.ts', '.tsx', '.mts', '.mjs', '.js', '.json'].map((ext) => base + ext), ...['index.ts', 'index.tsx', 'index.js'].map((f) => join(base, f))];
  return candidates.find(isFile) ?? base;
}

function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * The violations in the tree at `root`: `{ file, line, specifier, rule }`, file relative to root.
 */
export function checkBoundaries(root) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const panelPackages = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);
  const shared = new Set(Object.keys(JSON.parse(readFileSync(join(root, 'sdk', 'shared-modules.json'), 'utf8')).modules));
  const pluginsDir = join(root, 'plugins');
  const testsDir = join(root, 'tests') + sep;
  const requiresOf = new Map();
  for (const id of readdirSync(pluginsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)) {
    try {
      // a plugin it lists as optional may be imported too: its contract, asked with ctx.services.find
      const manifest = JSON.parse(readFileSync(join(pluginsDir, id, 'plugin.json'), 'utf8'));
      requiresOf.set(id, new Set([...(manifest.requires ?? []), ...(manifest.optional ?? [])]));
    } catch {
      requiresOf.set(id, new Set());
    }
  }
  const violations = [];
  const report = (file, line, specifier, rule) => violations.push({ file: relative(root, file).split(sep).join('/'), line, specifier, rule });

  for (const file of walk(pluginsDir)) {
    const [id, part] = relative(pluginsDir, file).split(sep);
    if (part === undefined) continue; // files of plugins/ itself (tree-wide checks), not of a plugin
    const own = join(pluginsDir, id) + sep;
    const inClient = part === 'client';
    const isTest = /\.test\.(ts|tsx)$/.test(file) || part === 'tests';
    const isOwnContract = CONTRACT.test(part) && relative(pluginsDir, file).split(sep).length === 2;
    for (const { specifier, line, typeOnly } of importsOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolveRelative(file, specifier);
        if (target.startsWith(own)) {
          if (isOwnContract)
            report(
              file,
              line,
              specifier,
              `the contract of "${id}" imports its own plugin's ${relative(own, target).split(sep).join('/')}; a contract stands on its own (the sdk and types only), or its plugin's internals reach every consumer`,
            );
          continue;
        }
        const inPlugins = relative(pluginsDir, target).split(sep);
        const other = inPlugins[0];
        const isContract = target.startsWith(pluginsDir + sep) && inPlugins.length === 2 && CONTRACT.test(inPlugins[1]);
        if (isContract && requiresOf.get(id)?.has(other)) {
          if (inClient && !isTest && !typeOnly) {
            report(file, line, specifier, `plugin "${id}"'s client imports values from the contract of "${other}"; a client takes only its types (import type)`);
          }
          continue;
        }
        // a test stands where the kernel stands: it may load another plugin the way the kernel loads
        // one (its manifest, its client entry, its catalogues) to render the two together
        if (isTest && target.startsWith(pluginsDir + sep) && KERNEL_LOADS.test(inPlugins.slice(1).join('/'))) continue;
        // the sdk's test kit (@orepanel/sdk/testing/server) runs on SQLite only; a first-party plugin's
        // API tests must prove their queries on every dialect and its browser tests need the built
        // panel, which only the repository's harnesses (and their stand-ins of outside services) give
        if (part === 'tests' && PANEL_TEST.test(file) && target.startsWith(testsDir) && !TEST_FILE.test(target)) continue;
        const why = isContract
          ? `plugin "${id}" imports the contract of "${other}" without listing it in requires`
          : `plugin "${id}" reaches outside its folder (to ${relative(root, target).split(sep).join('/')}); use the sdk or the other plugin's contract.ts`;
        report(file, line, specifier, why);
        continue;
      }
      if (specifier === '@orepanel/sdk' || specifier.startsWith('@orepanel/sdk/')) continue;
      if (shared.has(specifier)) continue;
      if (isOwnContract && !typeOnly) {
        report(
          file,
          line,
          specifier,
          `the contract of "${id}" imports "${specifier}"; a contract imports the sdk and shared modules, and other packages only as types (import type)`,
        );
        continue;
      }
      if (inClient && !isTest) {
        report(file, line, specifier, `plugin "${id}"'s client imports "${specifier}", which the kernel does not share (sdk/shared-modules.json)`);
        continue;
      }
      if (specifier.startsWith('node:') || panelPackages.has(packageName(specifier))) continue;
      report(file, line, specifier, `plugin "${id}" imports "${specifier}", which is neither the sdk, a shared module, a Node built-in nor a package of the panel`);
    }
  }

  for (const area of ['kernel', 'server', 'sdk']) {
    for (const file of walk(join(root, area))) {
      for (const { specifier, line } of importsOf(readFileSync(file, 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const target = resolveRelative(file, specifier);
        if (target.startsWith(pluginsDir + sep))
          report(file, line, specifier, `the ${area} imports a plugin (${relative(root, target).split(sep).join('/')}); plugins plug into it, never the other way round`);
      }
    }
  }
  return violations;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkBoundaries(root);
  for (const v of violations) process.stderr.write(`${v.file}:${v.line}  ${v.specifier}\n    ${v.rule}\n`);
  process.stdout.write(violations.length === 0 ? 'import boundaries: ok\n' : `import boundaries: ${violations.length} violation(s)\n`);
  process.exit(violations.length === 0 ? 0 : 1);
}
