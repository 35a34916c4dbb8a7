// Reads the two documents the spec-coverage contract compares: the product spec (docs/spec.txt, a
// verbatim copy) and its map to the code (docs/spec-coverage.md). Kept apart from the test so the
// extractors can be tried on small texts of their own.

/** What a route of spec §2 needs, by the subsection that lists it. */
export type RouteAccess = 'public' | 'login' | 'admin';

export interface SpecRoute {
  /** the spec's spelling (`/mc-admin/users/{id}/edit`, `*` for "any other path"); null for a screen it names without a path */
  path: string | null;
  access: RouteAccess;
  /** a permission the spec writes in parentheses right after the path */
  permission?: string;
  /** the permission prefix the spec names for the whole line ("(egg permissions)" → admin.egg) */
  areaPrefix?: string;
  /** the absolute path the line starts from (`/mc-admin/locations` for `/create`) */
  base?: string;
  /** the spec's own words for the route (the bullet or table row) */
  source: string;
  /** 1-based line in the spec */
  line: number;
}

/** A screen the spec says does not exist ("(no create screen)", "(no edit)", "(list only)"). */
export interface ForbiddenRoute {
  path: string;
  /** true: nothing may exist under `path/` */
  prefix: boolean;
  reason: string;
  line: number;
}

export interface SpecSection {
  number: number;
  title: string;
  /** 1-based line of the heading */
  line: number;
  lines: string[];
}

/** The `## N. Title` sections of the spec. */
export function specSections(text: string): SpecSection[] {
  const sections: SpecSection[] = [];
  text.split('\n').forEach((raw, index) => {
    const heading = /^## (\d+)\. (.+)$/.exec(raw.trim());
    if (heading) sections.push({ number: Number(heading[1]), title: heading[2], line: index + 1, lines: [] });
    else sections.at(-1)?.lines.push(raw);
  });
  return sections;
}

function section(text: string, number: number): SpecSection {
  const found = specSections(text).find((s) => s.number === number);
  if (!found) throw new Error(`the spec has no section ${number}`);
  return found;
}

/** Splits a Markdown table row into trimmed cells (no cell of these documents holds a `|`). */
export function tableCells(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

const isSeparatorRow = (cells: string[]) => cells.every((c) => /^:?-+:?$/.test(c));

/** A path as it appears in §2's prose: `/`, `/auth/login`, `/{id}/edit` (no file names there). */
const PATH_TOKEN = /(^|[\s(,])(\/[A-Za-z0-9_\-{}/]*)/g;
const PERMISSION = /\b(?:admin|user)\.[a-z]+(?:\.[a-z]+)+\b/;

/**
 * The browser routes of spec §2, in the order it lists them, and the screens it rules out. Server
 * paths (`/api/…`) named in passing are not routes of the panel.
 */
export function parseSpecRoutes(text: string): { routes: SpecRoute[]; forbidden: ForbiddenRoute[] } {
  const s = section(text, 2);
  const routes: SpecRoute[] = [];
  const forbidden: ForbiddenRoute[] = [];
  let access: RouteAccess | null = null;
  s.lines.forEach((raw, index) => {
    const line = s.line + 1 + index;
    const trimmed = raw.trim();
    const sub = /^### (.+)$/.exec(trimmed);
    if (sub) {
      const name = sub[1].toLowerCase();
      access = name.includes('without login') ? 'public' : name.includes('needing login') ? 'login' : name.startsWith('admin routes') ? 'admin' : null;
      return;
    }
    if (access === null) return;
    if (access === 'public') {
      if (!trimmed.startsWith('|')) return;
      const cells = tableCells(trimmed);
      if (isSeparatorRow(cells) || cells[0].toLowerCase() === 'path') return;
      const path = cells[0] === 'any other path' ? '*' : cells[0];
      if (!path.startsWith('/') && path !== '*') throw new Error(`spec line ${line}: a route row the extractor does not understand: ${trimmed}`);
      routes.push({ path, access, source: trimmed, line });
      return;
    }
    if (!trimmed.startsWith('- ')) return;
    const bullet = trimmed.slice(2);
    const found: SpecRoute[] = [];
    let base: string | undefined;
    let areaPrefix: string | undefined;
    for (const match of bullet.matchAll(PATH_TOKEN)) {
      const token = match[2];
      const at = (match.index ?? 0) + match[1].length;
      if (token.startsWith('/api/')) continue;
      const before = bullet.slice(0, at);
      const after = bullet.slice(at + token.length);
      const paren = /^\s*\(([^)]*)\)/.exec(after)?.[1].trim();
      if (/\bunder\s+$/.test(before)) {
        // "a cloud backup integration screen under /mc-admin": a screen without a path of its own
        found.push({ path: null, access, source: bullet, line });
        continue;
      }
      const absolute = access === 'login' || token.startsWith('/mc-admin') || base === undefined;
      const path = absolute ? token : `${base}${token}`;
      if (absolute) base = token;
      const route: SpecRoute = { path, access, source: bullet, line, base };
      if (paren) {
        const named = PERMISSION.exec(paren)?.[0];
        if (named) route.permission = named;
        const area = /^(?:guarded by the )?(\w+) permissions$/.exec(paren);
        if (area) areaPrefix = `admin.${area[1]}`;
        if (/^no create\b/.test(paren)) forbidden.push({ path: `${base}/create`, prefix: false, reason: paren, line });
        if (/^no edit\b/.test(paren)) forbidden.push({ path: `${base}/{id}/edit`, prefix: false, reason: paren, line });
        if (/^list only$/.test(paren)) forbidden.push({ path: `${base}/`, prefix: true, reason: paren, line });
      }
      found.push(route);
    }
    for (const route of found) if (areaPrefix && route.path !== null) route.areaPrefix = areaPrefix;
    // a path named twice ("/ redirects to /dashboard", then /dashboard in the list) is one route
    routes.push(...found.filter((r) => r.path === null || !routes.some((known) => known.path === r.path)));
  });
  return { routes, forbidden };
}

/**
 * The permission strings of spec §6's table, expanded: `admin.locations, admin.nests | create, edit,
 * delete, list (each)` gives admin.locations.create …; a row whose first cell is a whole permission
 * (`admin.dashboard.view | dashboard view`) gives that permission. Rows naming no permission prefix
 * ("dashboard components", "cloud backup integration") give nothing here.
 */
export function specPermissions(text: string): Set<string> {
  const out = new Set<string>();
  for (const raw of section(text, 6).lines) {
    if (!raw.trim().startsWith('|')) continue;
    const cells = tableCells(raw);
    if (cells.length < 2 || isSeparatorRow(cells) || cells[0] === 'Area') continue;
    const names = cells[0].split(',').map((c) => c.trim());
    if (!names.every((n) => /^[a-z]+(\.[a-z]+)+$/.test(n))) continue;
    const actions = cells[1]
      .replace(/\(each\)/, '')
      .split(',')
      .map((a) => a.trim());
    const isActionList = actions.every((a) => /^[a-z]+(\.[a-z]+)*$/.test(a));
    for (const name of names) {
      if (isActionList) for (const action of actions) out.add(`${name}.${action}`);
      else out.add(name);
    }
  }
  return out;
}

/** `{id}` and `:uuid` alike: a parameter is a parameter, whatever its name. */
export function normaliseRoutePath(path: string): string {
  return path.replace(/\{[^}]+\}/g, ':param').replace(/:[A-Za-z_]\w*/g, ':param');
}

/**
 * The permission an admin route of spec §2 needs: the one it names, else "the matching list, create,
 * edit or delete permission of its area" — the area's prefix (named by the line, else the path's
 * segment after /mc-admin with dashes as dots) and the action its suffix names (nothing: list, or view
 * where the area has no list; `/{id}`: view; `/logs`: logs.view). Null when §6 has no such permission.
 */
export function expectedPermission(route: SpecRoute, catalogue: ReadonlySet<string>): string | null {
  if (route.permission) return route.permission;
  if (route.path === null || route.access !== 'admin') return null;
  const [, segment, ...rest] = route.path.replace(/^\/mc-admin/, '').split('/');
  if (!segment) return null;
  const prefix = route.areaPrefix ?? `admin.${segment.replace(/-/g, '.')}`;
  const words = rest.filter((part) => !/^\{.+\}$/.test(part));
  const candidates =
    rest.length === 0 ? [`${prefix}.list`, `${prefix}.view`] : words.length === 0 ? [`${prefix}.view`] : [`${prefix}.${words.join('.')}`, `${prefix}.${words.join('.')}.view`];
  return candidates.find((c) => catalogue.has(c)) ?? null;
}

/** The numbered steps of spec §4's start-up order ("spec §4.N" in comments names step N). */
export function startupSteps(text: string): string[] {
  const lines = section(text, 4).lines;
  const start = lines.findIndex((l) => /^### Start-up order/.test(l.trim()));
  const steps: string[] = [];
  for (const raw of lines.slice(start + 1)) {
    const step = /^(\d+)\. (.+)$/.exec(raw.trim());
    if (step) steps.push(step[2]);
    else if (steps.length > 0 && raw.trim() !== '') break;
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------
// docs/spec-coverage.md

export type Status = 'done' | 'partial' | 'missing';

export interface CoverageRow {
  /** the `## §N …` heading above the table */
  section: string;
  header: string[];
  cells: string[];
  status: Status;
  /** the issue numbers the status names ("missing → issue 11", "partial → issues 12, 14") */
  issues: number[];
  line: number;
}

/** Every row of every table whose last column is "Status". */
export function coverageRows(markdown: string): CoverageRow[] {
  const rows: CoverageRow[] = [];
  let section = '';
  let header: string[] | null = null;
  markdown.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const trimmed = raw.trim();
    if (trimmed.startsWith('## ')) section = trimmed.slice(3);
    if (!trimmed.startsWith('|')) {
      header = null;
      return;
    }
    const cells = tableCells(trimmed);
    if (header === null) {
      header = cells;
      return;
    }
    if (isSeparatorRow(cells) || header.at(-1) !== 'Status') return;
    const statusCell = cells.at(-1) ?? '';
    const status = /^(done|partial|missing)\b/.exec(statusCell)?.[1] as Status | undefined;
    if (!status) throw new Error(`docs/spec-coverage.md line ${line}: the status "${statusCell}" is not done, partial or missing`);
    if (cells.length !== header.length) throw new Error(`docs/spec-coverage.md line ${line}: ${cells.length} cells under a header of ${header.length}`);
    const issueList = /\bissues? (\d+(?:\s*(?:,|and)\s*\d+)*)/.exec(statusCell)?.[1] ?? '';
    const issues = [...issueList.matchAll(/\d+/g)].map((m) => Number(m[0]));
    rows.push({ section, header, cells, status, issues, line });
  });
  return rows;
}

export interface TestCitation {
  file: string;
  /** the test's name, or the start of it, as the document quotes it */
  names: string[];
  line: number;
}

const TEST_FILE = /`?((?:tests|plugins|kernel|sdk|server|bench)\/[\w./-]+\.test\.tsx?)`?((?:\s*[›;]\s*“[^”]+”)*)/g;

/** Every test file the document cites, with the test names quoted after it (`file` › “name”; “other”). */
export function testCitations(markdown: string): TestCitation[] {
  const out: TestCitation[] = [];
  markdown.split('\n').forEach((raw, index) => {
    for (const match of raw.matchAll(TEST_FILE)) {
      out.push({ file: match[1], names: [...match[2].matchAll(/“([^”]+)”/g)].map((m) => m[1]), line: index + 1 });
    }
  });
  return out;
}
