// Preload hints for the page a request opens (issue 15): index.html names, right after the kernel's
// script tag, what the kernel will ask for to show that route — the entries of the route's plugin
// and of the plugins it requires (with their integrity, as the kernel's loader asks for them), the
// route's page chunk and the chunks it imports statically, and the shell's chunk for a page inside
// it. Without them each of those waits for the one before it (kernel → entry → page → its imports),
// one round trip each; with them they download while the kernel starts. After the kernel's tag, not
// before: hints placed before it competed with the kernel's own download and slowed it.
//
// The build records each plugin's pages (dist/plugins.json "pages": component → its chunk and static
// imports, kernel/build/plugin-preset.mjs) and the kernel's chunks (dist/kernel-modules.json). The
// page is rendered once per route (IndexDocument caches each variant): the variant key is the route.
import { readFileSync, statSync } from 'node:fs';
import type { FastifyRequest } from 'fastify';
import type { PageVariant } from './index-document';

/** What the hints need of a served manifest (GET /api/system/plugins). */
interface ServedRouteManifest {
  id: string;
  entry?: string;
  integrity?: string;
  requires?: string[];
  routes?: { path: string; component: string; layout?: string }[];
}

export interface RoutePreloadOptions {
  /** the served manifests as JSON (PluginHost.servedJson: a new string whenever they change) */
  servedJson(): string;
  /** dist/plugins.json */
  buildManifest: string;
  /** dist/kernel-modules.json (the kernel's chunks) */
  kernelModules: string;
}

/** The script tag of the kernel, after which the hints go. */
const KERNEL_SCRIPT = /<script type="module" src="\/assets\/kernel-[^"]*"><\/script>/;
/** The shell's chunk among the kernel's (kernel/router/create-router.tsx imports it lazily). */
const SHELL_CHUNK = /^assets\/AppShell-[A-Za-z0-9_-]+\.js$/;
/** A URL a hint may name: our own files only, nothing that could close the attribute. */
const SAFE_URL = /^\/(plugins|assets)\/[A-Za-z0-9_./-]+\.js$/;
const SAFE_INTEGRITY = /^sha(256|384|512)-[A-Za-z0-9+/=]+$/;

/** A route path of a manifest as a matcher: `:name` is one segment, a trailing `*` the rest. */
export function routeMatcher(path: string): RegExp {
  const parts = path.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.startsWith(':')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}/?$`);
}

interface RouteEntry {
  key: string;
  matcher: RegExp;
  /** no parameter: a literal path wins over a pattern that also matches */
  literal: boolean;
}

function readJsonFile(path: string): { stamp: string; value: unknown } {
  try {
    const st = statSync(path);
    return { stamp: `${st.size}:${st.mtimeMs}`, value: JSON.parse(readFileSync(path, 'utf8')) as unknown };
  } catch {
    return { stamp: 'missing', value: null };
  }
}

export class RoutePreloads implements PageVariant {
  private manifestsFor: string | null = null;
  private manifests = new Map<string, ServedRouteManifest>();
  private routes: RouteEntry[] = [];
  private build: { stamp: string; pages: Record<string, Record<string, string[]>>; shell: string | null } | null = null;

  constructor(private readonly options: RoutePreloadOptions) {}

  private refreshManifests(): void {
    const json = this.options.servedJson();
    if (json === this.manifestsFor) return;
    this.manifestsFor = json;
    let served: ServedRouteManifest[] = [];
    try {
      const parsed = JSON.parse(json) as unknown;
      if (Array.isArray(parsed)) served = parsed as ServedRouteManifest[];
    } catch {
      served = [];
    }
    this.manifests = new Map(served.filter((m) => typeof m?.id === 'string').map((m) => [m.id, m]));
    this.routes = served.flatMap((m) =>
      (m.routes ?? []).map((r) => ({
        key: `${m.id}\u0000${r.component}\u0000${r.layout === 'bare' ? 'bare' : 'app'}`,
        matcher: routeMatcher(r.path),
        literal: !/[:*]/.test(r.path),
      })),
    );
  }

  private readBuild(): NonNullable<RoutePreloads['build']> {
    const plugins = readJsonFile(this.options.buildManifest);
    const kernel = readJsonFile(this.options.kernelModules);
    const stamp = `${plugins.stamp}|${kernel.stamp}`;
    if (this.build?.stamp === stamp) return this.build;
    const pages: Record<string, Record<string, string[]>> = {};
    if (plugins.value && typeof plugins.value === 'object') {
      for (const [id, record] of Object.entries(plugins.value as Record<string, { pages?: Record<string, string[]> }>)) {
        if (record?.pages && typeof record.pages === 'object') pages[id] = record.pages;
      }
    }
    const chunks = kernel.value && typeof kernel.value === 'object' ? Object.keys(kernel.value) : [];
    const shellFile = chunks.find((file) => SHELL_CHUNK.test(file));
    this.build = { stamp, pages, shell: shellFile ? `/${shellFile}` : null };
    return this.build;
  }

  /** The route a path opens (its key), null when none of the served plugins' routes matches. */
  key(request: FastifyRequest): string | null {
    this.refreshManifests();
    const path = new URL(request.url, 'http://panel.invalid').pathname;
    const matches = this.routes.filter((route) => route.matcher.test(path));
    return (matches.find((route) => route.literal) ?? matches[0])?.key ?? null;
  }

  /** The hint tags for a route key: entries (requirements first), page chunks, then the shell. */
  hints(key: string): string {
    this.refreshManifests();
    const [pluginId, component, layout] = key.split('\u0000');
    const tags: string[] = [];
    const seen = new Set<string>();
    const addEntry = (id: string) => {
      const manifest = this.manifests.get(id);
      if (!manifest || seen.has(`plugin:${id}`)) return;
      seen.add(`plugin:${id}`);
      for (const dep of manifest.requires ?? []) addEntry(dep);
      if (!manifest.entry || !SAFE_URL.test(manifest.entry) || seen.has(manifest.entry)) return;
      seen.add(manifest.entry);
      const integrity = manifest.integrity && SAFE_INTEGRITY.test(manifest.integrity) ? ` integrity="${manifest.integrity}"` : '';
      tags.push(`<link rel="preload" href="${manifest.entry}" as="script"${integrity}>`);
    };
    addEntry(pluginId);
    const build = this.readBuild();
    for (const file of build.pages[pluginId]?.[component] ?? []) {
      if (!SAFE_URL.test(file) || seen.has(file)) continue;
      seen.add(file);
      tags.push(`<link rel="preload" href="${file}" as="script">`);
    }
    if (layout === 'app' && build.shell) tags.push(`<link rel="modulepreload" href="${build.shell}">`);
    return tags.join('');
  }

  apply(html: string, key: string): string {
    const hints = this.hints(key);
    const script = KERNEL_SCRIPT.exec(html);
    if (!hints || !script) return html;
    const at = script.index + script[0].length;
    return html.slice(0, at) + hints + html.slice(at);
  }
}
