// issue 15: public pages sent already rendered. A plugin declares a route pre-renderable in plugin.json
// (`routes[].prerender`); a GET of that exact path (no query string) gets index.html with the page
// rendered inside #app — in the language the kernel will pick (the `locale` cookie mirrors the stored
// language, spec §1: English when none) and with the current public settings — so the page shows
// with the first response, before any script. Everything else of index.html stays: the kernel still
// starts in the spec's order and takes the page over when it mounts (kernel/startup/prerendered-page).
//
// The renderer is the build's dist/server/prerender.js (kernel/prerender/render-page.tsx), loaded on
// first need. Pages are rendered once per path, language and boot version (IndexDocument caches them
// as variants); a page whose renderer is missing or fails is sent as the plain index.html.
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { documentTitle } from '../../sdk/document-title';
import { prerenderRouteAt, type PrerenderRoute } from '../../sdk/manifest';
import { LANGUAGE_COOKIE, LANGUAGES, type Language, type ServedPluginManifest } from '../../sdk/types';
import { customStylesheetLink, customStylesheetPreload, renderIndex, type BootInputs, type BootSource, type PageVariant } from './index-document';

/** What the renderer gets (kernel/prerender/render-page.tsx `PrerenderInput`). */
export interface PageRenderInput {
  path: string;
  language: Language;
  manifests: readonly ServedPluginManifest[];
  settings: Readonly<Record<string, unknown>>;
  catalogues: Readonly<Partial<Record<Language, Readonly<Record<string, unknown>>>>>;
  form?: PrerenderedForm | null;
  /** the answers of the route's `prerender.data` (URL -> body) */
  data?: Readonly<Record<string, unknown>>;
}

/** Asks the panel's own API, as a visitor without cookies would (a GET answered in-process). */
export type PublicApi = (url: string) => Promise<{ status: number; body: unknown }>;

/** A refused form sent without JavaScript, shown again (sdk/client/ui/form-context.ts). */
export interface PrerenderedForm {
  error: { status: number; code: string; message: string; field?: string };
  values: Readonly<Record<string, string>>;
}

export interface PageRenderer {
  /** the page's HTML for inside #app, or null when it cannot be pre-rendered */
  renderPage(input: PageRenderInput): Promise<string | null>;
}

export type PageRendererLoader = () => Promise<PageRenderer | null>;

/** Where index.html's pre-rendered page goes (public/index.html, around the boot spinner). */
export const PAGE_START = '<!--orepanel:page-->';
export const PAGE_END = '<!--/orepanel:page-->';
/** The id of the refused form's JSON the kernel hands on to the page it mounts. */
export const PRERENDER_FORM_ELEMENT_ID = 'op-prerender-form';
/** The id of the JSON of the answers the page was drawn with (kernel/startup/prerendered-page.tsx). */
export const PRERENDER_DATA_ELEMENT_ID = 'op-prerender-data';
/** The attribute on #app that names the pre-rendered path (the kernel reads it). */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/** index.html's hints for the kernel's own chunks (kernel/build/kernel-config.mjs), each on its line. */
const KERNEL_MODULE_PRELOAD = /\n[ \t]*<link rel="modulepreload" href="\/assets\/[^"]+">/g;

/**
 * A page already drawn needs no script for its first frame, and the kernel's entry starts the kernel
 * only after that frame (kernel/startup/first-paint.ts): so the kernel's chunks are not hinted. A
 * hinted kernel (640 KB to decode and compile while the page's first frame is drawn) held that frame
 * back on a 2-core machine — login page, loopback, cold, 21 runs alternating: 284 → 224 ms (median),
 * the same as with no script at all (229 ms). The plugin hints after the kernel's script stay: they
 * are small, and measured no later.
 */
function withoutKernelPreloads(html: string): string {
  return html.replace(KERNEL_MODULE_PRELOAD, '');
}

/** Refused-form pages kept rendered (page × language × error); the cache starts over past it. */
const MAX_REFUSED_PAGES = 200;

const KERNEL_LOCALES = /<script type="application\/json" id="orepanel-kernel-locales">([^<]*)<\/script>/;

/** The build's renderer, next to the server's own files (dist/server/prerender.js). */
export function builtRenderer(publicDir: string, log: Pick<FastifyBaseLogger, 'error'>): PageRendererLoader {
  let loading: Promise<PageRenderer | null> | null = null;
  return () => {
    loading ??= import(pathToFileURL(join(publicDir, '..', 'server', 'prerender.js')).href).then(
      (module: Partial<PageRenderer>) => (typeof module.renderPage === 'function' ? (module as PageRenderer) : null),
      (error: unknown) => {
        log.error({ err: error }, 'The pre-rendered pages are off: dist/server/prerender.js could not be loaded');
        return null;
      },
    );
    return loading;
  };
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

/** JSON that is safe inside a <script> element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** One cookie's value from a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

/** spec §1 as the kernel applies it (sdk/client/i18n.ts initialLanguage): the stored language, else English. */
export function languageOf(request: Pick<FastifyRequest, 'headers'>): Language {
  const value = cookieValue(request.headers.cookie, LANGUAGE_COOKIE);
  return value && (LANGUAGES as readonly string[]).includes(value) ? (value as Language) : 'en';
}

/** The path of a GET that may get a pre-rendered page: no query string (a page may read it), decodable. */
function plainPath(url: string): string | null {
  if (url.includes('?')) return null;
  try {
    return decodeURIComponent(url);
  } catch {
    return null;
  }
}

export class PrerenderedPages implements PageVariant {
  private manifestsFor: { json: string; manifests: readonly ServedPluginManifest[] } | null = null;
  private readonly catalogues = new Map<string, Promise<Readonly<Record<string, unknown>> | null>>();
  private readonly refusedPages = new Map<string, { template: string; version: readonly unknown[]; html: string | null }>();
  /** stands for a kept value in a cached refused page; random, so no posted value can fake one */
  private readonly marker = `opkeep${randomBytes(9).toString('hex')}_`;

  constructor(
    private readonly publicDir: string,
    private readonly source: BootSource,
    private readonly renderer: PageRendererLoader,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    private readonly publicApi: PublicApi | null = null,
  ) {}

  /** The enabled plugins' served manifests, parsed once per served list. */
  async manifests(): Promise<readonly ServedPluginManifest[]> {
    const [json] = await this.source.version();
    const text = typeof json === 'string' ? json : (await this.source.inputs()).pluginsJson;
    if (this.manifestsFor?.json !== text) this.manifestsFor = { json: text, manifests: JSON.parse(text) as ServedPluginManifest[] };
    return this.manifestsFor.manifests;
  }

  /** The pre-renderable route at this exact path, or null. */
  async routeAt(path: string): Promise<PrerenderRoute | null> {
    return prerenderRouteAt(await this.manifests(), path);
  }

  async key(request: FastifyRequest): Promise<string | null> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return null;
    const path = plainPath(request.url);
    if (path === null || !(await this.routeAt(path))) return null;
    return `${languageOf(request)} ${path}`;
  }

  async apply(html: string, key: string, inputs: BootInputs | null): Promise<string> {
    const at = key.indexOf(' ');
    return this.withPage(html, key.slice(at + 1), key.slice(0, at) as Language, inputs, null);
  }

  /** The whole index.html with the page at `path`, showing a refused form again (never cached). */
  async pageWithForm(template: string, path: string, language: Language, form: PrerenderedForm): Promise<string | null> {
    // Rendered once per page, language, error and kept field names, with a marker in place of each
    // kept value: a stream of refused posts (a password guesser past its rate limit) costs no render each.
    const names = Object.keys(form.values).sort();
    const version = await this.source.version();
    const key = JSON.stringify([path, language, form.error, names]);
    let cached = this.refusedPages.get(key);
    if (!cached || cached.template !== template || cached.version.length !== version.length || cached.version.some((v, i) => v !== version[i])) {
      const inputs = await this.source.inputs();
      const marked: PrerenderedForm = { error: form.error, values: Object.fromEntries(names.map((name, i) => [name, `${this.marker}${i}_`])) };
      const html = await this.withPage(renderIndex(template, inputs), path, language, inputs, marked);
      if (this.refusedPages.size >= MAX_REFUSED_PAGES) this.refusedPages.clear();
      cached = { template, version, html: html.includes(PRERENDERED_ATTRIBUTE) ? html : null };
      this.refusedPages.set(key, cached);
    }
    if (cached.html === null) return null;
    const pattern = new RegExp(`${this.marker}(\\d+)_`, 'g');
    return cached.html.replace(pattern, (_match, i: string) => escapeAttribute(form.values[names[Number(i)]] ?? ''));
  }

  private async withPage(html: string, path: string, language: Language, inputs: BootInputs | null, form: PrerenderedForm | null): Promise<string> {
    const start = html.indexOf(PAGE_START);
    const end = html.indexOf(PAGE_END);
    if (!inputs || start === -1 || end < start) return html;
    const manifests = JSON.parse(inputs.pluginsJson) as ServedPluginManifest[];
    const route = prerenderRouteAt(manifests, path);
    if (!route) return html;
    try {
      const renderer = await this.renderer();
      if (!renderer) return html;
      const catalogues = await this.cataloguesFor(html, language);
      if (!catalogues) return html;
      const prerender = route.route.prerender;
      const data = typeof prerender === 'object' && prerender.data ? await this.answersOf(prerender.data) : {};
      if (data === null) return html;
      const page = await renderer.renderPage({ path, language, manifests, settings: inputs.settings, catalogues, form, data });
      if (page === null) return html;
      // the kernel's page takes the kept values over from the fields themselves: the error is enough
      const formData = form ? `<script type="application/json" id="${PRERENDER_FORM_ELEMENT_ID}">${jsonForScript({ error: form.error, values: {} })}</script>` : '';
      const pageData = Object.keys(data).length > 0 ? `<script type="application/json" id="${PRERENDER_DATA_ELEMENT_ID}">${jsonForScript(data)}</script>` : '';
      let out = html.slice(0, start) + page + formData + pageData + html.slice(end + PAGE_END.length);
      out = out.replace('<div id="app">', `<div id="app" ${PRERENDERED_ATTRIBUTE}="${escapeAttribute(path)}">`);
      out = out.replace(/<html lang="[a-z]+"/, `<html lang="${language}"`);
      const title = this.titleOf(route, language, catalogues, inputs.settings.app_name);
      if (title) out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeAttribute(title)}</title>`);
      // a page whose form works without a script does not say that the panel needs one
      if (typeof prerender === 'object' && prerender.form) out = out.replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
      // The page is painted before the kernel's first step adds the host's stylesheet: it comes in
      // the page itself (after its spec §7 preload), or the first frame would show the page without
      // the host's styles and then change. The kernel finds it there and does not add a second.
      if (inputs.custom?.css) {
        const preload = customStylesheetPreload(inputs.custom.css);
        out = out.replace(preload, preload + customStylesheetLink(inputs.custom.css));
      }
      return withoutKernelPreloads(out);
    } catch (error) {
      this.log.error({ err: error, path, language }, 'A page could not be pre-rendered; index.html is sent without it');
      return html;
    }
  }

  /**
   * The answers of a page's `prerender.data` routes, or null when one is not a plain 200 (the page is
   * then sent as the plain index.html: a page drawn without its data would show an error or a
   * loading state as if it were final).
   */
  private async answersOf(urls: readonly string[]): Promise<Record<string, unknown> | null> {
    if (!this.publicApi) return null;
    const out: Record<string, unknown> = {};
    for (const url of urls) {
      const answer = await this.publicApi(url);
      if (answer.status !== 200) return null;
      out[url] = answer.body;
    }
    return out;
  }

  /** The tab's title the mounted page will set (the route's title in the page's language, else English). */
  private titleOf(route: PrerenderRoute, language: Language, catalogues: PageRenderInput['catalogues'], appName: unknown): string | null {
    const key = route.route.title;
    if (!key) return null;
    for (const lang of [language, 'en'] as const) {
      let value: unknown = catalogues[lang]?.[route.pluginId];
      for (const part of key.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      if (typeof value === 'string' && value) return documentTitle(value, appName);
    }
    return null;
  }

  /** The kernel's catalogue files (every plugin's texts by namespace) of `language` and English. */
  private async cataloguesFor(html: string, language: Language): Promise<PageRenderInput['catalogues'] | null> {
    const match = KERNEL_LOCALES.exec(html);
    if (!match) return null;
    const urls = JSON.parse(match[1]) as Partial<Record<Language, string>>;
    const out: Partial<Record<Language, Readonly<Record<string, unknown>>>> = {};
    for (const lang of new Set<Language>(['en', language])) {
      const url = urls[lang];
      if (!url || !/^\/locales\/[A-Za-z0-9_-]+\.json$/.test(url)) return null;
      let loading = this.catalogues.get(url);
      if (!loading) {
        loading = readFile(join(this.publicDir, url), 'utf8').then(
          (text) => JSON.parse(text) as Record<string, unknown>,
          () => null,
        );
        this.catalogues.set(url, loading);
      }
      const catalogue = await loading;
      if (!catalogue) return null;
      out[lang] = catalogue;
    }
    return out;
  }
}
