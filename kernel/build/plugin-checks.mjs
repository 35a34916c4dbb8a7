// What `plugin build` checks before it builds a third-party plugin, so that an author hears of a
// mistake from the build rather than from an administrator's refused install or a page showing raw
// translation keys:
//
//   - its table names are in its namespace (sdk/table-names.mjs, the rule the panel applies too);
//   - every language it lists has the same translation keys as the others (missing keys named);
//   - its TypeScript type-checks (tsc --noEmit over its own tsconfig.json, or the panel's).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { tableNamespaceProblem } from '../../sdk/table-names.mjs';
import { repoRoot } from './common.mjs';

/** The checks' findings, each a readable line; `plugin build` refuses the plugin when there is any. */
export class PluginCheckError extends Error {
  /** @param {string[]} problems */
  constructor(problems) {
    super(`the plugin cannot be built:\n${problems.map((p) => `  - ${p.replace(/\n/g, '\n    ')}`).join('\n')}`);
    this.name = 'PluginCheckError';
    this.problems = problems;
  }
}

/**
 * The dotted paths of a catalogue's strings (`nav.notes`), sorted. i18next's plural forms
 * (`count_one`, `count_other`) are keys like any other: a language needs the forms it uses.
 * @param {unknown} value
 * @param {string} [prefix]
 * @returns {string[]}
 */
export function catalogueKeys(value, prefix = '') {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return prefix ? [prefix] : [];
  return Object.entries(value)
    .flatMap(([key, child]) => catalogueKeys(child, prefix ? `${prefix}.${key}` : key))
    .sort();
}

/**
 * For each language the manifest lists, the keys the other languages have and it lacks.
 * @param {string} pluginDir
 * @param {{ locales?: readonly string[] }} manifest
 * @returns {string[]} one line per language with missing keys (a missing or broken file is the build's own error)
 */
export function translationKeyProblems(pluginDir, manifest) {
  /** @type {Map<string, Set<string>>} */
  const keys = new Map();
  for (const lang of manifest.locales ?? []) {
    const file = join(pluginDir, 'locales', `${lang}.json`);
    if (!existsSync(file)) continue;
    try {
      keys.set(lang, new Set(catalogueKeys(JSON.parse(readFileSync(file, 'utf8')))));
    } catch {
      // not JSON: writePluginLocales names the file and the parse error
    }
  }
  const all = new Set([...keys.values()].flatMap((set) => [...set]));
  const problems = [];
  for (const [lang, own] of keys) {
    const missing = [...all].filter((key) => !own.has(key)).sort();
    if (missing.length === 0) continue;
    const holders = (key) => [...keys].filter(([, set]) => set.has(key)).map(([l]) => l);
    const shown = missing.slice(0, 20).map((key) => `${key} (in ${holders(key).join(', ')})`);
    problems.push(`locales/${lang}.json is missing ${missing.length} translation key${missing.length === 1 ? '' : 's'}: ${shown.join(', ')}${missing.length > 20 ? ', …' : ''}`);
  }
  return problems;
}

/** node_modules/typescript/bin/tsc in `dir` or a folder above it (its package exports no bin path). */
function tscAbove(dir) {
  for (let at = resolve(dir); ; at = dirname(at)) {
    const tsc = join(at, 'node_modules', 'typescript', 'bin', 'tsc');
    if (existsSync(tsc)) return tsc;
    if (dirname(at) === at) return null;
  }
}

/** The tsc of the plugin's own project if it has typescript installed, else the panel's (or the sdk package's). */
function tscFor(pluginDir) {
  return tscAbove(pluginDir) ?? tscAbove(repoRoot);
}

function run(command, args, cwd) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code: code ?? 1, output }));
  });
}

/** The panel's tsconfig `paths` (the sdk's entry points), made absolute. */
function panelPaths() {
  const config = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8'));
  const paths = config.compilerOptions?.paths ?? {};
  return Object.fromEntries(Object.entries(paths).map(([name, targets]) => [name, targets.map((target) => join(repoRoot, target))]));
}

/**
 * Type-checks the plugin: `tsc --noEmit -p <pluginDir>` when it has a tsconfig.json (a project made by
 * `init`), else its client/, server/ and tests/ files under the panel's tsconfig (a plugin folder kept
 * inside the panel's checkout, as the repository's fixtures are).
 * @param {string} pluginDir
 * @returns {Promise<string | null>} tsc's report of the errors, or null when there are none
 */
export async function typeCheckProblem(pluginDir) {
  const tsc = tscFor(pluginDir);
  if (!tsc) return 'it cannot be type-checked: typescript is not installed (npm install --save-dev typescript)';
  const own = join(pluginDir, 'tsconfig.json');
  let project = own;
  let scratch = null;
  if (!existsSync(own)) {
    scratch = mkdtempSync(join(tmpdir(), 'orepanel-plugin-check-'));
    project = join(scratch, 'tsconfig.json');
    writeFileSync(
      project,
      JSON.stringify({
        extends: join(repoRoot, 'tsconfig.json'),
        compilerOptions: {
          noEmit: true,
          incremental: false,
          typeRoots: [join(repoRoot, 'node_modules', '@types')],
          // a folder outside the checkout finds the sdk and the panel's packages as one inside it does
          paths: { ...panelPaths(), '*': [join(repoRoot, 'node_modules', '@types', '*'), join(repoRoot, 'node_modules', '*')] },
        },
        include: ['client/**/*', 'server/**/*', 'tests/**/*', '*.ts'].map((pattern) => join(pluginDir, pattern)),
      }),
    );
  }
  try {
    const { code, output } = await run(process.execPath, [tsc, '--noEmit', '-p', project, '--pretty', 'false'], pluginDir);
    if (code === 0) return null;
    const report = output.trim() || `tsc exited with code ${code}`;
    return `it does not type-check (tsc --noEmit -p ${existsSync(own) ? 'tsconfig.json' : "the panel's tsconfig"}):\n${report}`;
  } finally {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Every check; throws a PluginCheckError listing all the problems found.
 * @param {string} pluginDir
 * @param {import('./plugin-preset.mjs').PluginManifest} manifest
 * @param {{ typeCheck?: boolean }} [options]
 */
export async function checkPlugin(pluginDir, manifest, { typeCheck = true } = {}) {
  const dir = resolve(pluginDir);
  const problems = [];
  const tables = tableNamespaceProblem(manifest);
  if (tables) problems.push(tables.replace(/^its /, ''));
  problems.push(...translationKeyProblems(dir, manifest));
  if (typeCheck) {
    const types = await typeCheckProblem(dir);
    if (types) problems.push(types);
  }
  if (problems.length > 0) throw new PluginCheckError(problems);
}
