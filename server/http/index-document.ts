// index.html with the start-up data written into it. The build leaves the marker BOOT_MARKER in
// dist/public/index.html; the server replaces it with
//   <script type="application/json" id="op-boot">{"plugins":[…],"settings":{…}}</script>
// — the enabled plugins' served manifests (GET /api/system/plugins) and the public settings (GET
// /api/system/settings) — so the kernel starts without those two requests (issue 2 bundle budget).
//
// The page is rendered, and gzip/brotli-compressed in memory, once per version of its inputs (the
// template on disk, the served plugin list, the settings revision), never per request. The .gz/.br
// files next to index.html on disk hold no boot data and are never sent for it: a precompressed copy
// can never carry stale plugins or settings. index.html itself is never cached (no-cache + ETag).
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** Where the build asks for the boot data (kernel/build/kernel-config.mjs writes it). */
export const BOOT_MARKER = '<!--orepanel:boot-->';
/** The id of the JSON block the kernel reads (kernel/startup/boot-data.ts reads the same id). */
export const BOOT_ELEMENT_ID = 'op-boot';

/** What goes into the page; `plugins` is already JSON (PluginHost caches it as text). */
export interface BootInputs {
  /** the JSON array GET /api/system/plugins answers */
  pluginsJson: string;
  /** the object GET /api/system/settings answers (flat values, and the spec §3 debug object) */
  settings: Readonly<Record<string, string | number | boolean | null | object>>;
  /**
   * the revisions of GET /api/system/custom.css and custom.js, null when one is empty (issue 15: the
   * kernel skips an empty one and fetches the other by its revision, cached for a year)
   */
  custom?: { css: string | null; js: string | null };
}

export interface BootSource {
  /**
   * A value that changes whenever the boot data does (cheap: no rendering). Compared with `===`,
   * so a cached string (the plugin list) is compared by identity first.
   */
  version(): Promise<readonly unknown[]>;
  inputs(): Promise<BootInputs>;
}

/** JSON that is safe inside a <script> element: no `<` can close it or open a comment. */
export function jsonForScript(json: string): string {
  return json
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** Where the kernel fetches a custom asset of this revision (kernel/startup/custom-assets.ts builds the same). */
export function customAssetUrl(kind: 'css' | 'js', revision: string): string {
  return `/api/system/custom.${kind}?v=${encodeURIComponent(revision)}`;
}

/** spec §7: the preload hint of the custom stylesheet of this revision. */
export function customStylesheetPreload(revision: string): string {
  return `<link rel="preload" href="${customAssetUrl('css', revision)}" as="style">`;
}

/** The custom stylesheet itself, marked as the kernel marks the one it adds (kernel/startup/custom-assets.ts). */
export function customStylesheetLink(revision: string): string {
  return `<link rel="stylesheet" href="${customAssetUrl('css', revision)}" data-orepanel="custom">`;
}

/** The boot block for these inputs, after the preload hints of the custom assets that are not empty. */
export function bootScript(inputs: BootInputs): string {
  const custom = inputs.custom ? `,"custom":${JSON.stringify(inputs.custom)}` : '';
  const json = `{"plugins":${inputs.pluginsJson},"settings":${JSON.stringify(inputs.settings)}${custom}}`;
  // spec §7: the custom stylesheet is preloaded (and the script hinted) — when there is one
  const hints = [
    inputs.custom?.css ? customStylesheetPreload(inputs.custom.css) : '',
    inputs.custom?.js ? `<link rel="preload" href="${customAssetUrl('js', inputs.custom.js)}" as="script">` : '',
  ].join('');
  return `${hints}<script type="application/json" id="${BOOT_ELEMENT_ID}">${jsonForScript(json)}</script>`;
}

/** The page with its boot block; a template without the marker (an older build) is served as it is. */
export function renderIndex(template: string, inputs: BootInputs): string {
  const at = template.indexOf(BOOT_MARKER);
  if (at === -1) return template;
  return template.slice(0, at) + bootScript(inputs) + template.slice(at + BOOT_MARKER.length);
}

interface Rendered {
  /** the inputs it was made from: template stamp first, then the source's version */
  key: readonly unknown[];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
  etag: string;
}

function sameKey(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const accepted = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    accepted.add(name);
  }
  if (accepted.has('br') || accepted.has('*')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

export const INDEX_CONTENT_TYPE = 'text/html; charset=utf-8';

/**
 * A per-request variant of the page (e.g. a pre-rendered page inside #app, issue 15). `key` names the
 * variant a request gets (null: none of this kind); the page is rendered and compressed once per
 * template, boot version and the keys of every variant, so keep their number bounded.
 */
export interface PageVariant {
  key(request: FastifyRequest): Promise<string | null> | string | null;
  /** `html` is the page with its boot block (and the earlier variants applied) */
  apply(html: string, key: string, inputs: BootInputs | null): Promise<string> | string;
}

export class IndexDocument {
  private readonly rendered = new Map<string, { current: Rendered | null; pending: { key: readonly unknown[]; done: Promise<Rendered> } | null }>();

  constructor(
    private readonly file: string,
    /** null: no boot data (the page is served as built and the kernel fetches what it needs) */
    private readonly source: BootSource | null,
    private readonly variants: readonly PageVariant[] = [],
  ) {}

  /** The page for the current inputs (and these variant keys), or null when the panel has not been built. */
  async render(variantKeys: readonly (string | null)[] = []): Promise<Rendered | null> {
    let stamp: string;
    try {
      const st = await stat(this.file);
      // a rebuild rewrites index.html (new asset hashes): the next request renders the new one
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch {
      return null;
    }
    const key = [stamp, ...(this.source ? await this.source.version() : [])];
    const slotName = JSON.stringify(variantKeys);
    let slot = this.rendered.get(slotName);
    if (!slot) {
      slot = { current: null, pending: null };
      this.rendered.set(slotName, slot);
    }
    if (slot.current && sameKey(slot.current.key, key)) return slot.current;
    if (slot.pending && sameKey(slot.pending.key, key)) return slot.pending.done;
    const owner = slot;
    const done = this.build(key, variantKeys).finally(() => {
      if (owner.pending?.done === done) owner.pending = null;
    });
    owner.pending = { key, done };
    const rendered = await done;
    owner.current = rendered;
    return rendered;
  }

  private async build(key: readonly unknown[], variantKeys: readonly (string | null)[]): Promise<Rendered> {
    const [template, inputs] = await Promise.all([readFile(this.file, 'utf8'), this.source?.inputs() ?? null]);
    let html = inputs ? renderIndex(template, inputs) : template;
    for (const [i, variant] of this.variants.entries()) {
      const variantKey = variantKeys[i];
      if (variantKey !== null && variantKey !== undefined) html = await variant.apply(html, variantKey, inputs);
    }
    const identity = Buffer.from(html);
    const [gz, br] = await Promise.all([
      gzipAsync(identity, { level: 9 }),
      brotliAsync(identity, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        },
      }),
    ]);
    const etag = createHash('sha256').update(identity).digest('base64url').slice(0, 22);
    return { key, identity, gzip: gz, br, etag };
  }

  /** Sends the page (never cached: every load revalidates with its ETag). */
  async send(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const page = await this.render(await Promise.all(this.variants.map((variant) => variant.key(request))));
    if (!page) {
      return reply.code(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('The panel has not been built yet: run npm run build.');
    }
    const encoding = preferredEncoding(request.headers['accept-encoding']);
    const body = encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.identity;
    const etag = `"${page.etag}${encoding ? `-${encoding}` : ''}"`;
    reply.header('vary', 'Accept-Encoding').header('cache-control', 'no-cache').header('etag', etag);
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    reply.type(INDEX_CONTENT_TYPE).header('content-length', body.length);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(body);
  }
}
