// The sdk as a plugin author gets it (issue 16): `npm run sdk:pack` gives the @orepanel/sdk tarball;
// its `init` scaffolds a project in a folder outside the repository; with the tarball installed there,
// the project's own tsc, vitest (a page test in jsdom, a server test in a real panel) and build work
// with nothing copied by hand. Then `plugin build`'s checks: a type error, a missing translation key
// and a table outside the plugin's namespace each refuse the build, named.
//
// Slow-ish on purpose (it packs the sdk and runs three tools in a second project): about a minute and
// a half on an idle 2-core machine, most of it tsc and the panel the server test starts.
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiReportOfDeclarations, readCommittedReport } from '../../scripts/api-report.mjs';
import { importedPackages, packSdk, packageName } from '../../scripts/sdk-package.mjs';
import { main, type CliIO } from '../../server/cli';
import { unpackPluginArchive } from '../../server/plugins/plugin-archive';
import { installSdk, runIn } from './support/author-project';
import { REPO } from './support/fixtures';

// realpath: on some systems the temporary folder is itself a link (macOS /var → /private/var)
const work = realpathSync(mkdtempSync(join(tmpdir(), 'orepanel-sdk-author-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let packed: Awaited<ReturnType<typeof packSdk>>;
let project: string;
const LANGUAGES = ['en', 'de', 'es', 'fr', 'md', 'ro'];

beforeAll(async () => {
  packed = await packSdk({ outDir: join(work, 'pack') });
  // the package's own bin, as `npx @orepanel/sdk init notes` runs it
  const made = await runIn(work, process.execPath, [join(packed.dir, 'bin', 'orepanel-sdk.mjs'), 'init', 'notes', '--sdk', `file:${packed.tarball}`]);
  if (made.code !== 0) throw new Error(`orepanel-sdk init failed:\n${made.output}`);
  project = join(work, 'notes');
  await installSdk(project, packed.tarball);
}, 600_000);

const read = (path: string) => readFileSync(join(project, path), 'utf8');

describe('the @orepanel/sdk package', () => {
  it('holds the types, the client and server test kits, the vitest and build presets and the bin', async () => {
    const listing = await runIn(work, 'tar', ['-tzf', packed.tarball]);
    const files = new Set(listing.output.split('\n').map((line) => line.replace(/^package\//, '')));
    for (const file of [
      'package.json',
      'types/sdk/client.d.ts',
      'types/sdk/server.d.ts',
      'types/sdk/testing.d.ts',
      'types/sdk/testing/server.d.ts',
      'dist/client.js',
      'dist/testing.js',
      'dist/server.js',
      'dist/server/testing-server.js',
      'vitest.mjs',
      'tsconfig.json',
      'bin/orepanel-sdk.mjs',
      'kernel/build/plugin-preset.mjs',
      'kernel/build/installable-plugin.mjs',
      'plugins/auth/plugin.json',
    ]) {
      expect(files, file).toContain(file);
    }
    expect(packed.manifest).toMatchObject({ name: '@orepanel/sdk', bin: { 'orepanel-sdk': 'bin/orepanel-sdk.mjs' } });
  });

  it('names the shared modules as peers (one react, router, i18next in a project) and every package its code imports', () => {
    const manifest = packed.manifest as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
    const shared = Object.keys((JSON.parse(readFileSync(join(REPO, 'sdk/shared-modules.json'), 'utf8')) as { modules: Record<string, string> }).modules)
      .map(packageName)
      .filter((name) => name !== '@orepanel/sdk');
    for (const name of [...shared, 'kysely', 'vitest']) {
      expect(Object.keys(manifest.peerDependencies), name).toContain(name);
      expect(Object.keys(manifest.dependencies), name).not.toContain(name);
    }
    const declared = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    expect(importedPackages(packed.dir).filter((name) => !declared.has(name))).toEqual([]);
  });

  it("has the sdk's public surface in its types: the committed API report", () => {
    // the package keeps the doc comments (for the author's editor); the report is compared without layout
    const layout = (text: string) => text.replace(/\s+/g, ' ').replace(/ ?([(),;{}]) ?/g, '$1');
    const fromPackage = apiReportOfDeclarations(join(packed.dir, 'types'));
    const committed = readCommittedReport();
    expect([...fromPackage.keys()].sort()).toEqual([...committed.keys()].sort());
    for (const [name, text] of fromPackage) expect(layout(text), name).toBe(layout(committed.get(name) ?? ''));
  });
});

describe('a plugin project made by `orepanel-sdk init`, outside the repository', () => {
  it('has a page that reads and writes, a server route with its own table, six languages with the same keys and two tests', () => {
    expect(project.startsWith(REPO)).toBe(false);
    const manifest = JSON.parse(read('plugin.json')) as { id: string; tables: string[]; locales: string[] };
    expect(manifest).toMatchObject({ id: 'notes', tables: ['notes'], locales: LANGUAGES });
    const page = read('client/NotesPage.tsx');
    for (const piece of ['http.post(', 'useApi<', 'reload()', '<Form', '<TextField', '<Button']) expect(page).toContain(piece);
    expect(read('server/index.ts')).toContain("kit\n          .createTable('notes')");
    const keys = (lang: string) => JSON.stringify(Object.keys(JSON.parse(read(`locales/${lang}.json`)) as object));
    for (const lang of LANGUAGES) expect(keys(lang), lang).toBe(keys('en'));
    expect(JSON.parse(read('package.json')).devDependencies['@orepanel/sdk']).toBe(`file:${packed.tarball}`);
    expect(readdirSync(join(project, 'tests')).sort()).toEqual(['NotesPage.test.tsx', 'server.test.ts']);
    expect(read('vitest.config.ts')).toContain("from '@orepanel/sdk/vitest'");
  });

  it('type-checks, passes its client and server tests, and builds an installable folder and archive', async () => {
    const tsc = await runIn(project, 'tsc', ['--noEmit']);
    expect(tsc.output).toBe('');
    expect(tsc.code).toBe(0);

    const tests = await runIn(project, 'vitest', ['run']);
    expect(tests.output).toMatch(/Test Files\s+2 passed \(2\)/);
    expect(tests.output).toMatch(/Tests\s+4 passed \(4\)/);
    // all passed but the run failed: an error outside the tests (its output says which)
    expect(tests.code, tests.output).toBe(0);

    const build = await runIn(project, 'orepanel-sdk', ['build', '.', '--pack']);
    expect(build.output).toContain('Built plugin "notes" 1.0.0 into dist/notes');
    expect(build.code).toBe(0);
    const out = join(project, 'dist', 'notes');
    const record = JSON.parse(readFileSync(join(out, 'build.json'), 'utf8')) as { entry: string; localeFiles: Record<string, string> };
    expect(Object.keys(record.localeFiles).sort()).toEqual([...LANGUAGES].sort());
    // the sdk is the panel's at run time (a System.register external), never a copy in the plugin
    const entry = readFileSync(join(out, 'client', record.entry.slice('/plugins/notes/'.length)), 'utf8');
    expect(entry).toMatch(/^System\.register\(\["@orepanel\/sdk"\]/);
    const page = readdirSync(join(out, 'client')).find((f) => f.startsWith('NotesPage-'));
    expect(readFileSync(join(out, 'client', page ?? ''), 'utf8')).not.toContain('PluginContractError');
    // the server part is self-contained: only node builtins stay imports
    expect(readFileSync(join(out, 'server.js'), 'utf8')).not.toMatch(/^import .* from ['"](?!node:)[^'"]+['"]/m);
    const archive = unpackPluginArchive(readFileSync(join(project, 'dist', 'notes-1.0.0.tgz')));
    expect([...archive.files.keys()]).toEqual(expect.arrayContaining(['plugin.json', 'build.json', 'server.js', `client/${record.entry.slice('/plugins/notes/'.length)}`]));
  }, 600_000);

  it('refuses to build with a type error, showing it, and writes nothing', async () => {
    const source = join(project, 'client', 'NotesPage.tsx');
    const before = readFileSync(source, 'utf8');
    const built = readFileSync(join(project, 'dist', 'notes', 'build.json'), 'utf8');
    writeFileSync(source, before.replace("const { t } = useTranslation('notes');", "const { t } = useTranslation('notes');\n  const count: number = 'many';\n  void count;"));
    try {
      const build = await runIn(project, 'orepanel-sdk', ['build', '.']);
      expect(build.code).toBe(1);
      expect(build.output).toContain('it does not type-check (tsc --noEmit -p tsconfig.json)');
      expect(build.output).toMatch(/client\/NotesPage\.tsx\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/);
      expect(readFileSync(join(project, 'dist', 'notes', 'build.json'), 'utf8')).toBe(built);
    } finally {
      writeFileSync(source, before);
    }
  }, 300_000);

  it("names the translation keys a language misses and refuses a table outside the plugin's namespace", async () => {
    const copy = join(work, 'broken', 'notes');
    cpSync(project, copy, { recursive: true, filter: (path) => !path.startsWith(join(project, 'dist')) });
    const de = JSON.parse(readFileSync(join(copy, 'locales/de.json'), 'utf8')) as { form: Record<string, string> };
    delete de.form.save;
    writeFileSync(join(copy, 'locales/de.json'), JSON.stringify(de));
    const manifest = JSON.parse(readFileSync(join(copy, 'plugin.json'), 'utf8')) as { tables: string[] };
    manifest.tables = ['entries'];
    writeFileSync(join(copy, 'plugin.json'), JSON.stringify(manifest));
    const build = await runIn(copy, 'orepanel-sdk', ['build', '.', '--skip-typecheck']);
    expect(build.code).toBe(1);
    expect(build.output).toContain('locales/de.json is missing 1 translation key: form.save (in en, es, fr, md, ro)');
    expect(build.output).toContain('plugin.json declares table "entries" outside its namespace: a plugin\'s tables are named "notes" or start with "notes_"');
    expect(existsSync(join(copy, 'dist'))).toBe(false);
  }, 120_000);

  it('is the same project `orepanel plugin init` makes from the panel', async () => {
    const lines: string[] = [];
    const io: CliIO = { out: (t) => lines.push(t), err: (t) => lines.push(t) };
    const dir = join(work, 'from-panel');
    expect(await main(['plugin', 'init', 'notes', '--dir', dir, '--sdk', `file:${packed.tarball}`], io, { LOG_LEVEL: 'silent', DATA_DIR: join(work, 'data') })).toBe(0);
    const listing = (root: string, sub = ''): string[] =>
      readdirSync(join(root, sub), { withFileTypes: true })
        .filter((e) => e.name !== 'node_modules' && e.name !== 'dist')
        .flatMap((e) => (e.isDirectory() ? listing(root, join(sub, e.name)) : [join(sub, e.name)]))
        .sort();
    expect(listing(dir)).toEqual(listing(project));
    for (const file of listing(dir)) {
      expect(readFileSync(join(dir, file), 'utf8'), file).toBe(readFileSync(join(project, file), 'utf8'));
    }
    // a taken folder is refused, nothing overwritten
    expect(await main(['plugin', 'init', 'notes', '--dir', dir], io, { LOG_LEVEL: 'silent', DATA_DIR: join(work, 'data') })).toBe(1);
    expect(lines.join('\n')).toContain('already exists and is not empty');
  });
});
