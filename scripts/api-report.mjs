#!/usr/bin/env node
// The sdk's API report (Backstage's report.api.md is the model): the public surface of each
// `@orepanel/sdk…` entry point, flattened into one file per entry under sdk/api-report/, committed,
// and compared by sdk/api-report.test.ts. A change to the plugin API then shows as a diff of these
// files in review, and an accidental one fails the tests.
//
//   npm run api-report            writes the report files
//   npm run api-report -- --check  exits 1 with a diff when they are not current
//
// TypeScript 7 has no JavaScript compiler API, so the surface is read from what tsc itself emits:
// declarations only, comments removed, into a temporary folder. Each entry's exports are followed
// through re-exports (`export *`, `export { a as b } from`) to the declaration that makes them, so
// moving code between the sdk's modules changes nothing here; only what a plugin can see does.
// Types an exported declaration uses but the entry does not export are listed too (they are part of
// what a plugin depends on), as are module augmentations (the route options on Fastify's config).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the committed report lives, relative to the repository. */
export const REPORT_DIR = 'sdk/api-report';
export const UPDATE_COMMAND = 'npm run api-report';

/** The sdk's entry points: import path → source file, and the report file each gets. */
export const ENTRY_POINTS = [
  { name: '@orepanel/sdk', source: 'sdk/client.ts', report: 'client.api.md' },
  { name: '@orepanel/sdk/server', source: 'sdk/server.ts', report: 'server.api.md' },
  { name: '@orepanel/sdk/testing', source: 'sdk/testing.ts', report: 'testing.api.md' },
  { name: '@orepanel/sdk/testing/server', source: 'sdk/testing/server.ts', report: 'testing-server.api.md' },
];

// ---- emitting declarations ------------------------------------------------------------------------

/** Runs tsc over the entry points into `outDir` (declarations only, no comments). */
function emitDeclarations(root, outDir, entries) {
  const config = join(outDir, 'tsconfig.json');
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        removeComments: true,
        declarationMap: false,
        sourceMap: false,
        incremental: false,
        outDir: join(outDir, 'out'),
        rootDir: root,
        typeRoots: [join(root, 'node_modules', '@types')],
      },
      include: [],
      files: entries.map((entry) => join(root, entry.source)),
    }),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', config], { cwd: root, encoding: 'utf8' });
  // type errors elsewhere (someone's change under way) still emit; a missing entry is what fails
  for (const entry of entries) {
    if (!existsSync(join(outDir, 'out', entry.source.replace(/\.tsx?$/, '.d.ts')))) {
      throw new Error(`api-report: tsc emitted no declarations for ${entry.source}\n${result.stdout}${result.stderr}`);
    }
  }
  return join(outDir, 'out');
}

// ---- reading a declaration file ---------------------------------------------------------------------

/**
 * `text` with the insides of strings and comments blanked (template `${…}` parts kept), same length.
 * With `{ strings: true }` only the comments are blanked.
 */
export function codeOnly(text, { strings = false } = {}) {
  const blank = (part) => (strings ? part : ' '.repeat(part.length));
  let out = '';
  let i = 0;
  const templateDepths = [];
  let depth = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out += ' '.repeat(stop - i);
      i = stop;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
    } else if (ch === '"' || ch === "'") {
      let j = i + 1;
      while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
      out += ch + blank(text.slice(i + 1, Math.max(i + 1, j))) + ch;
      i = j + 1;
    } else if (ch === '`' || (ch === '}' && templateDepths.length > 0 && templateDepths[templateDepths.length - 1] === depth)) {
      // a template literal's text, from its opening backtick (or the `}` closing a `${`) to its end or next `${`
      if (ch === '}') templateDepths.pop();
      let j = i + 1;
      while (j < text.length && text[j] !== '`' && !(text[j] === '$' && text[j + 1] === '{')) j += text[j] === '\\' ? 2 : 1;
      if (text[j] === '`') {
        out += ch + blank(text.slice(i + 1, j)) + '`';
        i = j + 1;
      } else {
        out += ch + blank(text.slice(i + 1, j)) + '${';
        templateDepths.push(depth);
        i = j + 2;
      }
    } else {
      if (ch === '{') depth++;
      else if (ch === '}') depth--;
      out += ch;
      i++;
    }
  }
  return out;
}

const BLOCK_STATEMENT = /^(export\s+)?(declare\s+)?(abstract\s+)?(interface|class|namespace|module|global|enum|const\s+enum)\b/;

/** The top-level statements of a declaration file, each trimmed. */
export function splitStatements(text) {
  const code = codeOnly(text);
  const statements = [];
  let start = 0;
  let depth = 0;
  const flush = (end) => {
    const statement = text.slice(start, end).trim();
    if (statement && !statement.startsWith('///')) statements.push(statement);
    start = end;
  };
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    if (ch === '{' || ch === '(' || ch === '[') depth++;
    else if (ch === '}' || ch === ')' || ch === ']') {
      depth--;
      if (depth === 0 && ch === '}' && BLOCK_STATEMENT.test(text.slice(start, i).trim())) flush(i + 1);
    } else if (ch === ';' && depth === 0) flush(i + 1);
    else if (ch === '\n' && depth === 0 && text.slice(start, i).trim().startsWith('///')) flush(i + 1);
  }
  flush(text.length);
  return statements;
}

const DECLARATION = /^(export\s+)?(default\s+)?(declare\s+)?(abstract\s+)?(const\s+enum|enum|interface|type|class|function|const|let|var|namespace)\s+([A-Za-z_$][\w$]*)/;
const IMPORT_FROM = /^import\s+(type\s+)?([\s\S]*?)\s+from\s+(['"])(.+?)\3$/;
const EXPORT_FROM = /^export\s+(type\s+)?\{([\s\S]*?)\}\s*from\s+(['"])(.+?)\3$/;
const EXPORT_STAR = /^export\s+\*\s+from\s+(['"])(.+?)\1$/;
const EXPORT_LIST = /^export\s+(type\s+)?\{([\s\S]*?)\}$/;
const AUGMENTATION = /^(export\s+)?declare\s+(module\s+['"]|global\b)/;

/** `a`, `type b as c` → [{ imported: 'a', local: 'a' }, { imported: 'b', local: 'c' }] */
function specifiers(list) {
  return list
    .split(',')
    .map((s) => s.trim().replace(/^type\s+/, ''))
    .filter(Boolean)
    .map((s) => {
      const [imported, local = imported] = s.split(/\s+as\s+/);
      return { imported: imported.trim(), local: local.trim() };
    });
}

/** Declarations, imports and exports of one declaration file. */
function parseDeclarationFile(text) {
  const file = { declarations: new Map(), imports: new Map(), namespaceImports: new Map(), exportLists: [], reexports: [], stars: [], augmentations: [], specs: new Set() };
  for (const raw of splitStatements(text)) {
    const statement = raw.replace(/;$/, '');
    let m;
    if ((m = IMPORT_FROM.exec(statement))) {
      file.specs.add(m[4]);
      const clause = m[2].trim();
      const named = /\{([\s\S]*)\}/.exec(clause);
      if (named) for (const s of specifiers(named[1])) file.imports.set(s.local, { spec: m[4], name: s.imported });
      const ns = /\*\s+as\s+([\w$]+)/.exec(clause);
      if (ns) file.namespaceImports.set(ns[1], m[4]);
      const def = /^([\w$]+)\s*(,|$)/.exec(clause);
      if (def) file.imports.set(def[1], { spec: m[4], name: 'default' });
    } else if (/^import\s+['"]/.test(statement)) {
      file.specs.add(statement.replace(/^import\s+['"](.+)['"]$/, '$1'));
    } else if ((m = EXPORT_STAR.exec(statement))) {
      file.specs.add(m[2]);
      file.stars.push(m[2]);
    } else if ((m = EXPORT_FROM.exec(statement))) {
      file.specs.add(m[4]);
      for (const s of specifiers(m[2])) file.reexports.push({ spec: m[4], name: s.imported, as: s.local });
    } else if ((m = EXPORT_LIST.exec(statement))) {
      for (const s of specifiers(m[2])) file.exportLists.push({ local: s.imported, as: s.local });
    } else if (AUGMENTATION.test(statement)) {
      file.augmentations.push(raw);
    } else if ((m = DECLARATION.exec(statement))) {
      const name = m[6];
      const entry = file.declarations.get(name) ?? { exported: false, statements: [] };
      entry.exported ||= Boolean(m[1]);
      entry.statements.push(raw);
      file.declarations.set(name, entry);
    } else {
      throw new Error(`api-report: cannot read the declaration statement:\n${raw}`);
    }
  }
  return file;
}

// ---- following exports -----------------------------------------------------------------------------

class Surface {
  constructor(root, outDir) {
    this.root = root;
    this.outDir = outDir;
    this.files = new Map();
  }

  /** The declaration file a relative specifier names, or null for a package. */
  target(fromFile, spec) {
    if (!spec.startsWith('.')) return null;
    const base = resolve(dirname(fromFile), spec);
    const stem = base.replace(/\.(m?js|tsx?|mts)$/, '');
    const inSource = (p) => join(this.root, relative(this.outDir, p));
    const candidates = [`${stem}.d.ts`, `${stem}.d.mts`, join(stem, 'index.d.ts'), inSource(`${stem}.d.ts`), inSource(`${stem}.d.mts`)];
    const found = candidates.find((p) => existsSync(p));
    if (!found) throw new Error(`api-report: ${relative(this.outDir, fromFile)} imports "${spec}", which has no declarations`);
    return found;
  }

  file(path) {
    let parsed = this.files.get(path);
    if (!parsed) {
      parsed = parseDeclarationFile(readFileSync(path, 'utf8'));
      this.files.set(path, parsed);
    }
    return parsed;
  }

  /** The names `path` exports. */
  exportNames(path, seen = new Set()) {
    if (seen.has(path)) return new Set();
    seen.add(path);
    const file = this.file(path);
    const names = new Set();
    for (const [name, d] of file.declarations) if (d.exported) names.add(name);
    for (const e of file.exportLists) names.add(e.as);
    for (const r of file.reexports) names.add(r.as);
    for (const spec of file.stars) {
      const target = this.target(path, spec);
      if (!target) throw new Error(`api-report: \`export * from "${spec}"\` (a package) cannot be listed; name what is re-exported`);
      for (const name of this.exportNames(target, seen)) if (name !== 'default') names.add(name);
    }
    return names;
  }

  /** Where the export `name` of `path` is declared: { path, name } or { module, name } for a package. */
  resolveExport(path, name, seen = new Set()) {
    const key = `${path}#${name}`;
    if (seen.has(key)) return null;
    seen.add(key);
    const file = this.file(path);
    const own = file.declarations.get(name);
    if (own?.exported) return { path, name };
    const listed = file.exportLists.find((e) => e.as === name);
    if (listed) return this.resolveLocal(path, listed.local, seen);
    const re = file.reexports.find((r) => r.as === name);
    if (re) {
      const target = this.target(path, re.spec);
      return target ? this.resolveExport(target, re.name, seen) : { module: re.spec, name: re.name };
    }
    for (const spec of file.stars) {
      const target = this.target(path, spec);
      const found = target && this.resolveExport(target, name, seen);
      if (found) return found;
    }
    return null;
  }

  /** What the name `name`, as used inside `path`, refers to; null when it is not a declaration of ours or a package's. */
  resolveLocal(path, name, seen = new Set()) {
    const file = this.file(path);
    if (file.declarations.has(name)) return { path, name };
    const imported = file.imports.get(name);
    if (imported) {
      const target = this.target(path, imported.spec);
      return target ? this.resolveExport(target, imported.name, seen) : { module: imported.spec, name: imported.name };
    }
    return null;
  }

  /** Every declaration file `path` reaches through its imports and exports (itself included). */
  reachable(path, seen = new Set()) {
    if (seen.has(path)) return seen;
    seen.add(path);
    for (const spec of this.file(path).specs) {
      const target = this.target(path, spec);
      if (target) this.reachable(target, seen);
    }
    return seen;
  }
}

const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const siteKey = (site) => `${site.path}#${site.name}`;

/** A declaration as the report prints it: `declare` dropped, `export` kept only when `exported`. */
function printStatement(statement, exported) {
  const bare = statement
    .replace(/^export\s+/, '')
    .replace(/^default\s+/, '')
    .replace(/^declare\s+/, '');
  return exported ? `export ${bare}` : bare;
}

/** The report text of one entry point. */
function entryReport(surface, entry) {
  const entryPath = join(surface.outDir, entry.source.replace(/\.tsx?$/, '.d.ts'));
  const names = [...surface.exportNames(entryPath)].sort(byCodePoint);
  const publicSites = new Map();
  const fromPackages = [];
  const exported = [];
  for (const name of names) {
    const site = surface.resolveExport(entryPath, name);
    if (!site) throw new Error(`api-report: ${entry.name} exports "${name}" but its declaration cannot be found`);
    if (site.module) {
      fromPackages.push(`export { ${site.name === name ? name : `${site.name} as ${name}`} } from '${site.module}';`);
      continue;
    }
    publicSites.set(siteKey(site), name);
    exported.push({ name, site });
  }

  // the types the exported declarations use that this entry does not export, followed to the end
  const referenced = new Map();
  const queue = exported.map((e) => e.site);
  const inlineImport = /import\((["'])(\.[^"']+)\1\)\.([A-Za-z_$][\w$]*)/g;
  const textOf = (site) =>
    surface
      .file(site.path)
      .declarations.get(site.name)
      .statements.map((s) =>
        s.replace(inlineImport, (_all, _q, spec, name) => {
          const target = surface.target(site.path, spec);
          const found = surface.resolveExport(target, name);
          if (found && !found.module && !publicSites.has(siteKey(found)) && !referenced.has(siteKey(found))) {
            referenced.set(siteKey(found), found);
            queue.push(found);
          }
          return name;
        }),
      );
  const texts = new Map();
  while (queue.length > 0) {
    const site = queue.shift();
    const statements = textOf(site);
    texts.set(siteKey(site), statements);
    const code = codeOnly(statements.join('\n')).replace(/\.\s*[A-Za-z_$][\w$]*/g, ' ');
    for (const id of new Set(code.match(/[A-Za-z_$][\w$]*/g) ?? [])) {
      if (id === site.name) continue;
      const found = surface.resolveLocal(site.path, id);
      if (!found || found.module) continue;
      const key = siteKey(found);
      if (publicSites.has(key) || referenced.has(key)) continue;
      referenced.set(key, found);
      queue.push(found);
    }
  }

  const augmentations = new Set();
  for (const path of surface.reachable(entryPath)) for (const a of surface.file(path).augmentations) augmentations.add(a);

  const out = [];
  out.push(`## API Report File for "${entry.name}"`, '');
  out.push(`> Do not edit this file. \`${UPDATE_COMMAND}\` writes it from the declarations of ${entry.source} (comments`);
  out.push('> left out) and sdk/api-report.test.ts checks that it is current. A change here is a change to the plugin');
  out.push('> API: review it as one (a breaking change bumps the sdk major version).', '');
  out.push('```ts');
  for (const { name, site } of exported) {
    const statements = texts.get(siteKey(site));
    if (site.name !== name) out.push(`// exported as ${name}`);
    for (const s of statements) out.push(printStatement(s, site.name === name));
    out.push('');
  }
  if (fromPackages.length > 0) {
    out.push('// re-exported from packages', ...fromPackages.sort(byCodePoint), '');
  }
  const used = [...referenced.values()].sort((a, b) => byCodePoint(a.name, b.name) || byCodePoint(a.path, b.path));
  if (used.length > 0) {
    out.push(`// used by the API above, not exported by ${entry.name}`);
    const seenNames = new Map();
    for (const site of used) {
      const n = (seenNames.get(site.name) ?? 0) + 1;
      seenNames.set(site.name, n);
      if (n > 1) out.push(`// (another declaration named ${site.name})`);
      for (const s of texts.get(siteKey(site))) out.push(printStatement(s, false));
      out.push('');
    }
  }
  if (augmentations.size > 0) {
    out.push('// module augmentations');
    for (const a of [...augmentations].sort(byCodePoint)) out.push(a, '');
  }
  while (out[out.length - 1] === '') out.pop();
  out.push('```', '');
  const text = out.join('\n');
  for (const path of [surface.root, surface.outDir]) {
    if (text.includes(path)) throw new Error(`api-report: the report of ${entry.name} names a local path (${path})`);
  }
  return text;
}

/** Generates the report in memory: report file name → text. */
export function generateApiReport(root = REPO_ROOT, entries = ENTRY_POINTS) {
  const work = mkdtempSync(join(tmpdir(), 'orepanel-api-report-'));
  try {
    const outDir = emitDeclarations(root, work, entries);
    const surface = new Surface(root, outDir);
    const reports = new Map();
    for (const entry of entries) reports.set(entry.report, entryReport(surface, entry));
    return reports;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * The report of declarations tsc already emitted into `declarationsDir` (laid out as the sources are,
 * e.g. sdk/client.d.ts): the @orepanel/sdk package's types/ folder, checked against the committed report.
 */
export function apiReportOfDeclarations(declarationsDir, root = REPO_ROOT, entries = ENTRY_POINTS) {
  // the report is made from declarations without comments (a package keeps them for editors)
  const work = mkdtempSync(join(tmpdir(), 'orepanel-api-report-'));
  try {
    const copy = (from, to) => {
      mkdirSync(to, { recursive: true });
      for (const entry of readdirSync(from, { withFileTypes: true })) {
        if (entry.isDirectory()) copy(join(from, entry.name), join(to, entry.name));
        else {
          const text = readFileSync(join(from, entry.name), 'utf8');
          if (!/\.d\.m?ts$/.test(entry.name)) {
            writeFileSync(join(to, entry.name), text);
            continue;
          }
          // a comment's lines go, as tsc's removeComments drops them; the code's lines keep their place
          const before = text.split('\n');
          const after = codeOnly(text, { strings: true }).split('\n');
          writeFileSync(
            join(to, entry.name),
            after
              .filter((line, i) => line.trim() !== '' || before[i].trim() === '')
              .map((line) => line.trimEnd())
              .join('\n'),
          );
        }
      }
    };
    copy(declarationsDir, work);
    const surface = new Surface(root, work);
    return new Map(entries.map((entry) => [entry.report, entryReport(surface, entry)]));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The committed report: file name → text (every *.api.md in the report folder). */
export function readCommittedReport(root = REPO_ROOT) {
  const dir = join(root, REPORT_DIR);
  const files = new Map();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.api.md'))
    .sort(byCodePoint))
    files.set(name, readFileSync(join(dir, name), 'utf8'));
  return files;
}

// ---- comparing ------------------------------------------------------------------------------------

/** A unified diff of two texts by lines (`context` lines around each change), '' when equal. */
export function lineDiff(before, after, context = 2) {
  if (before === after) return '';
  const a = before.split('\n');
  const b = after.split('\n');
  // trim the common head and tail, then a longest-common-subsequence table over the middle
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) for (let j = y.length - 1; j >= 0; j--) lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops = a.slice(0, head).map((line) => [' ', line]);
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) ops.push([' ', x[i]]), i++, j++;
    else if (i < x.length && (j === y.length || lcs[i + 1][j] >= lcs[i][j + 1])) ops.push(['-', x[i]]), i++;
    else ops.push(['+', y[j]]), j++;
  }
  for (const line of a.slice(a.length - tail)) ops.push([' ', line]);
  const keep = ops.map((op, k) => op[0] !== ' ' || ops.slice(Math.max(0, k - context), k + context + 1).some((o) => o[0] !== ' '));
  const lines = [];
  ops.forEach((op, k) => {
    if (keep[k]) lines.push(`${op[0]} ${op[1]}`);
    else if (k === 0 || keep[k - 1]) lines.push('  …');
  });
  return lines.join('\n');
}

/** What differs between the committed report and a generated one, readable; '' when current. */
export function compareReports(committed, generated) {
  const parts = [];
  for (const [name, text] of generated) {
    const old = committed.get(name);
    if (old === undefined) parts.push(`${REPORT_DIR}/${name} is missing`);
    else if (old !== text) parts.push(`${REPORT_DIR}/${name} differs (- committed, + now):\n${lineDiff(old, text)}`);
  }
  for (const name of committed.keys()) if (!generated.has(name)) parts.push(`${REPORT_DIR}/${name} reports an entry point that no longer exists`);
  if (parts.length === 0) return '';
  return `${parts.join('\n\n')}\n\nThe sdk's public API changed. If that is intended, run \`${UPDATE_COMMAND}\` and commit the report with the change.`;
}

function main(argv) {
  const generated = generateApiReport();
  if (argv.includes('--check')) {
    const difference = compareReports(readCommittedReport(), generated);
    if (difference) {
      process.stderr.write(`${difference}\n`);
      process.exit(1);
    }
    process.stdout.write('api-report: current\n');
    return;
  }
  const dir = join(REPO_ROOT, REPORT_DIR);
  mkdirSync(dir, { recursive: true });
  for (const name of readCommittedReport().keys()) if (!generated.has(name)) rmSync(join(dir, name));
  for (const [name, text] of generated) writeFileSync(join(dir, name), text);
  process.stdout.write(`api-report: wrote ${[...generated.keys()].map((n) => `${REPORT_DIR}/${n}`).join(', ')}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2));
