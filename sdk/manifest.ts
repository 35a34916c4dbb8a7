// Pure helpers over plugin manifests, shared by the browser kernel, the server host and the build.
// No dependencies: this runs in the kernel's first-load bundle.
import type { ManifestRoute, PluginManifest } from './types';
import { SDK_VERSION } from './version';

type Version = [number, number, number];

function parseVersion(text: string): Version | null {
  const m = /^v?(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Expands a partial version (`1`, `1.2`, `1.x`) into its lower bound and the number of fixed parts. */
function parsePartial(text: string): { v: Version; fixed: number } | null {
  const parts = text.trim().replace(/^v/, '').split('-')[0].split('.');
  if (parts.length === 0 || parts.length > 3) return null;
  const nums: number[] = [];
  for (const p of parts) {
    if (p === 'x' || p === 'X' || p === '*') break;
    if (!/^\d+$/.test(p)) return null;
    nums.push(Number(p));
  }
  const fixed = nums.length;
  while (nums.length < 3) nums.push(0);
  return { v: nums as Version, fixed };
}

function satisfiesComparator(v: Version, comp: string): boolean | null {
  if (comp === '*' || comp === '' || comp === 'x') return true;
  const op = /^(\^|~|>=|<=|>|<|=)?\s*(.+)$/.exec(comp);
  if (!op) return null;
  const p = parsePartial(op[2]);
  if (!p) return null;
  const { v: base, fixed } = p;
  switch (op[1]) {
    case '^': {
      // ^1.2.3 := >=1.2.3 <2.0.0; ^0.2.3 := >=0.2.3 <0.3.0 (semver's caret rule)
      if (compare(v, base) < 0) return false;
      if (base[0] > 0 || fixed <= 1) return v[0] === base[0];
      if (base[1] > 0 || fixed <= 2) return v[0] === 0 && v[1] === base[1];
      return compare(v, base) === 0;
    }
    case '~':
      if (compare(v, base) < 0) return false;
      return fixed <= 1 ? v[0] === base[0] : v[0] === base[0] && v[1] === base[1];
    case '>=':
      return compare(v, base) >= 0;
    case '>':
      return compare(v, base) > 0;
    case '<=':
      return compare(v, base) <= 0;
    case '<':
      return compare(v, base) < 0;
    default:
      // "1.2.3", "=1.2.3" or an x-range such as "1.x"
      if (fixed === 3) return compare(v, base) === 0;
      return (fixed < 1 || v[0] === base[0]) && (fixed < 2 || v[1] === base[1]);
  }
}

/**
 * Does `version` satisfy the semver `range`? Supports `||`, space-separated comparator sets,
 * ^ ~ >= > <= < = and x-ranges. Returns null when the range cannot be parsed.
 */
export function satisfiesRange(version: string, range: string): boolean | null {
  const v = parseVersion(version);
  if (!v) return null;
  let parsedAny = false;
  for (const set of range.split('||')) {
    const comps = set.trim().split(/\s+/).filter(Boolean);
    let all = true;
    for (const comp of comps.length ? comps : ['*']) {
      const ok = satisfiesComparator(v, comp);
      if (ok === null) return null;
      if (!ok) all = false;
    }
    parsedAny = true;
    if (all) return true;
  }
  return parsedAny ? false : null;
}

/** A readable reason why a plugin asking for `range` cannot run on this SDK, or null when it can. */
export function sdkRangeProblem(range: string, sdkVersion: string = SDK_VERSION): string | null {
  const ok = satisfiesRange(sdkVersion, range);
  if (ok === null) return `its sdk range "${range}" is not a valid semver range`;
  if (!ok) {
    return `it needs sdk ${range} but this panel provides sdk ${sdkVersion} (plugin API v${sdkVersion.split('.')[0]})`;
  }
  return null;
}

export interface Orderable {
  id: string;
  requires?: string[];
}

export interface OrderResult<T extends Orderable> {
  ordered: T[];
  refused: { item: T; reason: string }[];
}

/**
 * Orders plugins so that every plugin comes after the ones it `requires` (depth-first, stable for
 * ties: input order). A plugin whose requirement is missing, refused or part of a cycle is refused
 * with a readable reason, and so are the plugins that depend on it.
 */
export function orderByRequires<T extends Orderable>(items: T[]): OrderResult<T> {
  const byId = new Map(items.map((it) => [it.id, it]));
  const state = new Map<string, 'visiting' | 'done' | 'refused'>();
  const ordered: T[] = [];
  const refused: { item: T; reason: string }[] = [];

  const refuse = (item: T, reason: string) => {
    state.set(item.id, 'refused');
    refused.push({ item, reason });
  };

  const visit = (item: T, chain: string[]): boolean => {
    const s = state.get(item.id);
    if (s === 'done') return true;
    if (s === 'refused') return false;
    if (s === 'visiting') return false;
    state.set(item.id, 'visiting');
    for (const dep of item.requires ?? []) {
      const target = byId.get(dep);
      if (!target) {
        refuse(item, `it requires plugin "${dep}", which is not installed or not enabled`);
        return false;
      }
      if (state.get(dep) === 'visiting') {
        refuse(item, `it is part of a dependency cycle: ${[...chain, item.id, dep].join(' -> ')}`);
        return false;
      }
      if (!visit(target, [...chain, item.id])) {
        if (state.get(item.id) !== 'refused') refuse(item, `it requires plugin "${dep}", which could not be loaded`);
        return false;
      }
    }
    state.set(item.id, 'done');
    ordered.push(item);
    return true;
  };

  for (const item of items) visit(item, []);
  return { ordered, refused };
}

/**
 * Does a plugin's client install at start-up (before the first page), rather than when one of its
 * routes or slot components is first rendered? Its `startup` says so; when absent, a plugin that
 * declares kernel hooks or events installs at start-up, so that it hears them from the beginning.
 */
export function installsAtStartup(manifest: Pick<PluginManifest, 'startup' | 'hooks' | 'events'>): boolean {
  return manifest.startup ?? ((manifest.hooks?.length ?? 0) > 0 || (manifest.events?.length ?? 0) > 0);
}

/** True when the user's permission list passes `permission` (spec §6: admin.root passes every check). */
export function hasPermission(permissions: readonly string[], permission: string | undefined | null): boolean {
  if (!permission) return true;
  return permissions.includes('admin.root') || permissions.includes(permission);
}

/** spec §2 rule 2 / §6: role numbers 2 to 8 are admin-type. */
export function isAdminRole(role: unknown): boolean {
  const n = typeof role === 'number' ? role : typeof role === 'string' && /^\d+$/.test(role.trim()) ? Number(role) : NaN;
  return Number.isInteger(n) && n >= 2 && n <= 8;
}

/** A pre-renderable route (plugin.json `routes[].prerender`, issue 15) and the plugin that declares it. */
export interface PrerenderRoute {
  pluginId: string;
  route: ManifestRoute;
}

/** The pre-renderable route whose path is exactly `path` among these manifests, or null. */
export function prerenderRouteAt(manifests: readonly Pick<PluginManifest, 'id' | 'routes'>[], path: string): PrerenderRoute | null {
  for (const manifest of manifests) {
    for (const route of manifest.routes ?? []) {
      if (route.prerender && route.path === path) return { pluginId: manifest.id, route };
    }
  }
  return null;
}
