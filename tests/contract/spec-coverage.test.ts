// The map from the spec to the code (docs/spec-coverage.md) against the code itself. Every browser
// route of spec §2 must be a route of some plugin.json or of the kernel, with the access spec §2 and
// §6 give it — unless the map marks it missing with the issue that will build it; a route marked
// missing that exists fails too, so the map and the code cannot drift apart. The tests and files the
// map cites must exist, and so must the section of every "spec §N" comment in the code.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KERNEL_PATHS } from '../../kernel/router/route-table';
import type { ManifestRoute } from '../../sdk/types';
import {
  coverageRows,
  expectedPermission,
  normaliseRoutePath,
  parseSpecRoutes,
  specPermissions,
  specSections,
  startupSteps,
  testCitations,
  type CoverageRow,
  type SpecRoute,
} from './spec-map';
import { REPO } from './support/fixtures';

const SPEC_FILE = 'docs/spec.txt';
const MAP_FILE = 'docs/spec-coverage.md';
/** the spec's file name in the product's shared folder is the start of its SHA-256 */
const SPEC_SHA256_PREFIX = '7bc065210d4e9d62';

const read = (path: string) => readFileSync(join(REPO, path), 'utf8');
const spec = read(SPEC_FILE);
const map = read(MAP_FILE);
const { routes: specRoutes, forbidden } = parseSpecRoutes(spec);
const catalogue = specPermissions(spec);
const rows = coverageRows(map);
const routeRows = rows.filter((r) => r.header[0] === 'Spec route');

interface DeclaredRoute {
  owner: string;
  /** null for the kernel's own paths (`/` redirects, the after-login route), which have no flags */
  route: ManifestRoute | null;
}

/** Every route the running panel can have: each plugin.json's, and the kernel's own. */
function declaredRoutes(): Map<string, DeclaredRoute> {
  const out = new Map<string, DeclaredRoute>();
  const pluginsDir = join(REPO, 'plugins');
  for (const entry of readdirSync(pluginsDir, { withFileTypes: true })) {
    const file = join(pluginsDir, entry.name, 'plugin.json');
    if (!entry.isDirectory() || !existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { id: string; routes?: ManifestRoute[] };
    for (const route of manifest.routes ?? []) {
      const key = normaliseRoutePath(route.path);
      if (!out.has(key)) out.set(key, { owner: `plugins/${entry.name}/plugin.json`, route });
    }
  }
  for (const path of KERNEL_PATHS) out.set(normaliseRoutePath(path), { owner: 'kernel/router/route-table.ts', route: null });
  return out;
}

const declared = declaredRoutes();

/** The map's first cell for a route: its path in backticks, or the spec's words for a screen without one. */
function rowKey(row: CoverageRow): string {
  const path = /^`([^`]+)`/.exec(row.cells[0])?.[1];
  return path !== undefined ? normaliseRoutePath(path === 'any other path' ? '*' : path) : row.cells[0].replace(/`/g, '').trim();
}
function routeKey(route: SpecRoute): string {
  return route.path === null ? route.source.trim() : normaliseRoutePath(route.path);
}
const describeRoute = (route: SpecRoute) => `${route.path ?? route.source} (spec line ${route.line})`;

describe('the spec', () => {
  it(`${SPEC_FILE} is the product spec, verbatim`, () => {
    const digest = createHash('sha256')
      .update(readFileSync(join(REPO, SPEC_FILE)))
      .digest('hex');
    expect(digest.startsWith(SPEC_SHA256_PREFIX), `${SPEC_FILE} was changed: it must stay a copy of spec/000_${SPEC_SHA256_PREFIX}.txt`).toBe(true);
  });

  it('yields the routes of every subsection of §2, with the permissions and areas it names', () => {
    const count = (access: string) => specRoutes.filter((r) => r.access === access).length;
    expect([count('public'), count('login'), count('admin')]).toEqual([12, 27, 58]);
    const find = (path: string) => specRoutes.find((r) => r.path === path);
    expect(find('*')?.access).toBe('public');
    expect(find('/')?.access).toBe('login');
    expect(specRoutes.some((r) => r.path?.startsWith('/api/'))).toBe(false);
    expect(find('/mc-admin/locations/{id}/delete')?.base).toBe('/mc-admin/locations');
    expect(find('/mc-admin/roles/{id}/permissions')?.permission).toBe('admin.permissions.list');
    expect(find('/mc-admin/egg-categories/create')?.areaPrefix).toBe('admin.nests');
    expect(specRoutes.filter((r) => r.path === null).map((r) => r.source)).toEqual(['a cloud backup integration screen under /mc-admin']);
    expect(forbidden.map((f) => f.path)).toEqual(['/mc-admin/users/create', '/mc-admin/servers/', '/mc-admin/backups/', '/mc-admin/images/{id}/edit']);
  });

  it('gives every admin route a permission of the §6 table', () => {
    expect(catalogue.has('admin.server.queue.logs.view') && catalogue.has('user.permission.vip')).toBe(true);
    const without = specRoutes.filter((r) => r.access === 'admin' && r.path !== null && expectedPermission(r, catalogue) === null);
    expect(without.map(describeRoute)).toEqual([]);
    const permissionOf = (path: string) => expectedPermission(specRoutes.find((r) => r.path === path)!, catalogue);
    expect(
      [
        '/mc-admin/users',
        '/mc-admin/eggs/{id}/edit',
        '/mc-admin/egg-categories/create',
        '/mc-admin/settings',
        '/mc-admin/server-queue/{id}',
        '/mc-admin/server-queue/logs',
        '/mc-admin/redirect-links/{id}/delete',
      ].map(permissionOf),
    ).toEqual([
      'admin.users.list',
      'admin.egg.edit',
      'admin.nests.create',
      'admin.settings.view',
      'admin.server.queue.view',
      'admin.server.queue.logs.view',
      'admin.redirect.links.delete',
    ]);
  });
});

describe('spec §2 routes in the code', () => {
  it('every spec route has a plugin or kernel route, unless the map says which issue builds it', () => {
    const problems: string[] = [];
    for (const route of specRoutes) {
      const row = routeRows.find((r) => rowKey(r) === routeKey(route));
      if (route.path === null) {
        // a screen the spec names without a path: the map names the path it got
        if (row?.status === 'missing') continue;
        const named = [...(row?.cells[1] ?? '').matchAll(/`(\/[^`]*)`/g)].map((m) => m[1]);
        if (!named.some((p) => declared.has(normaliseRoutePath(p))))
          problems.push(`${describeRoute(route)}: no route; name the route it got in ${MAP_FILE}, or mark it missing with its issue`);
        continue;
      }
      const exists = declared.has(normaliseRoutePath(route.path));
      if (!exists && !(row?.status === 'missing' && row.issues.length > 0))
        problems.push(`${describeRoute(route)}: no plugin declares this route (mark it "missing → issue N" in ${MAP_FILE} if an issue will build it)`);
      if (exists && row?.status === 'missing')
        problems.push(`${describeRoute(route)}: ${declared.get(normaliseRoutePath(route.path))?.owner} declares it, but ${MAP_FILE} line ${row.line} says missing: mark it done`);
    }
    expect(problems).toEqual([]);
  });

  it('the map lists every spec route once, and no route the spec does not name', () => {
    const wanted = specRoutes.map(routeKey);
    const listed = routeRows.map(rowKey);
    expect(
      listed.filter((key) => !wanted.includes(key)),
      'rows naming no route of spec §2',
    ).toEqual([]);
    expect(
      wanted.filter((key) => !listed.includes(key)),
      `spec routes without a row in ${MAP_FILE}`,
    ).toEqual([]);
    expect(
      listed.filter((key, i) => listed.indexOf(key) !== i),
      'routes listed twice',
    ).toEqual([]);
  });

  it('each route has the access §2 and §6 give it: public pages no login, the others a login, admin pages the admin flag and their area’s permission', () => {
    const problems: string[] = [];
    for (const route of specRoutes) {
      if (route.path === null) continue;
      const found = declared.get(normaliseRoutePath(route.path));
      if (!found?.route) continue;
      const { route: r, owner } = found;
      const where = `${route.path} (${owner})`;
      if (route.access === 'public' && r.auth === true) problems.push(`${where}: spec §2 lists it without login, spec §6 says its login flag is false`);
      if (route.access !== 'public' && r.auth !== true) problems.push(`${where}: needs a login (spec §2), but auth is not true`);
      if (route.access !== 'admin') {
        if (r.admin === true) problems.push(`${where}: not an admin route in spec §2, but admin is true`);
        continue;
      }
      if (r.admin !== true) problems.push(`${where}: an admin route (spec §2 rule 2), but admin is not true`);
      const permission = expectedPermission(route, catalogue);
      if (r.permission !== permission) problems.push(`${where}: needs ${permission} (spec §2, §6), declares ${r.permission ?? 'no permission'}`);
    }
    expect(problems).toEqual([]);
  });

  it('the screens the spec rules out do not exist', () => {
    const problems: string[] = [];
    for (const rule of forbidden) {
      const target = normaliseRoutePath(rule.path);
      for (const [key, { owner }] of declared) {
        if (rule.prefix ? key.startsWith(target) : key === target) problems.push(`${key} (${owner}): spec line ${rule.line} says "${rule.reason}"`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe(`${MAP_FILE}`, () => {
  it('cites only tests that exist, by a name they have', () => {
    const citations = testCitations(map);
    expect(citations.length).toBeGreaterThan(100);
    const problems: string[] = [];
    for (const { file, names, line } of citations) {
      const path = join(REPO, file);
      if (!existsSync(path)) {
        problems.push(`line ${line}: ${file} does not exist`);
        continue;
      }
      // names as written in the source, quotes unescaped
      const source = readFileSync(path, 'utf8').replace(/\\(['"`])/g, '$1');
      for (const name of names) if (!source.includes(name)) problems.push(`line ${line}: ${file} has no test named “${name}”`);
    }
    expect(problems).toEqual([]);
  });

  it('says for every requirement which test checks it, or "no test"', () => {
    const problems: string[] = [];
    for (const row of rows) {
      const checkedBy = row.cells[row.header.indexOf('Checked by')] ?? '';
      const cites = testCitations(checkedBy).length > 0;
      if (!cites && !/\bno test\b/.test(checkedBy) && row.status !== 'missing') problems.push(`line ${row.line}: "${checkedBy}" cites no test and does not say "no test"`);
      const implemented = row.cells[row.header.indexOf('Implemented in')] ?? '';
      if (row.status !== 'missing' && /^(—|-|)$/.test(implemented.trim())) problems.push(`line ${row.line}: ${row.status}, but implemented nowhere`);
      if (row.status !== 'done' && row.issues.length === 0 && !/\(no issue\)/.test(row.cells.at(-1) ?? ''))
        problems.push(`line ${row.line}: ${row.status} needs "→ issue N" or "(no issue)"`);
    }
    expect(problems).toEqual([]);
  });

  it('names only files and folders that exist as where a requirement is implemented', () => {
    const problems: string[] = [];
    for (const row of rows) {
      const implemented = row.cells[row.header.indexOf('Implemented in')] ?? '';
      for (const [, path] of implemented.matchAll(/`((?:plugins|kernel|sdk|server|locales|public|scripts)\/[^`\s]*)`/g)) {
        if (!existsSync(join(REPO, path.replace(/\/$/, '')))) problems.push(`line ${row.line}: ${path} does not exist`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('totals its tables in its summary', () => {
    const count = (status: string) => rows.filter((r) => r.status === status).length;
    const summary = /Requirements: \*\*(\d+)\*\* — done \*\*(\d+)\*\*, partial \*\*(\d+)\*\*, missing \*\*(\d+)\*\*/.exec(map);
    expect(summary, 'the summary line').not.toBeNull();
    expect(summary!.slice(1).map(Number)).toEqual([rows.length, count('done'), count('partial'), count('missing')]);
  });

  it('has a section for every section of the spec, and every "spec §N" in the code names one', () => {
    const sections = specSections(spec).map((s) => s.number);
    expect(sections).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const n of sections) expect(map, `a "## §${n} …" heading`).toMatch(new RegExp(`^## §${n} `, 'm'));
    const steps = startupSteps(spec).length;
    expect(steps).toBe(5);
    const problems: string[] = [];
    const walk = (dir: string): string[] =>
      readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? (['node_modules', 'dist', 'data'].includes(e.name) ? [] : walk(join(dir, e.name))) : /\.(tsx?|mjs|json|md)$/.test(e.name) ? [join(dir, e.name)] : [],
      );
    for (const file of ['kernel', 'sdk', 'server', 'plugins', 'tests', 'locales'].flatMap(walk)) {
      const text = readFileSync(join(REPO, file), 'utf8');
      for (const m of text.matchAll(/\bspec §(\d+)(?:\.(\d+))?/gi)) {
        const n = Number(m[1]);
        const sub = m[2] === undefined ? null : Number(m[2]);
        if (!sections.includes(n)) problems.push(`${file}: "${m[0]}" — the spec has sections 1 to ${sections.length}`);
        else if (sub !== null && (n !== 4 || sub < 1 || sub > steps)) problems.push(`${file}: "${m[0]}" — only §4's start-up steps are numbered (§4.1 to §4.${steps})`);
      }
    }
    expect(problems).toEqual([]);
  });
});
