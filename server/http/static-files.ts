// The built browser files (dist/public) and the SPA fallback. Precompressed .br/.gz siblings are
// chosen by Accept-Encoding; content-hashed files are cached for a year, index.html and sw.js are
// revalidated every time (issue 2 §1); any other GET outside /api that is not a file gets
// index.html so the kernel's router can answer it. index.html itself is rendered with the start-up
// data and compressed in memory (index-document.ts), never read from its precompressed siblings.
import { createReadStream, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendNotFound } from './errors';
import { IndexDocument, type BootSource, type PageVariant } from './index-document';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'application/javascript; charset=utf-8',
  '.mjs': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
};
/** types worth precompressing; others (images, fonts) are already compressed */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.map', '.webmanifest', '.txt', '.xml', '.svg', '.wasm', '.ttf']);

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';
/** a content hash in a file name, as the build writes it: name-<hash>.ext (8+ base64url chars) */
const HASHED_NAME = /-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;
/** prefixes whose files are all content-hashed by the build contract */
const HASHED_PREFIXES = ['/assets/', '/plugins/'];
/** prefixes that hold only files: a miss there is a 404, never the SPA page */
const FILE_PREFIXES = ['/assets/', '/plugins/', '/locales/'];

/**
 * spec §7: GET /assets/main.css is preloaded. The build writes the stylesheet under that fixed name
 * beside its hashed copy (main-<hash>.css); index.html asks for /assets/main.css?v=<hash>, which is
 * served from the hashed copy and cached for a year, while the bare address always answers the
 * current stylesheet and is revalidated.
 */
export const MAIN_STYLESHEET = '/assets/main.css';
const STYLESHEET_VERSION = /^[A-Za-z0-9_-]{8,64}$/;

export function cacheControlFor(urlPath: string): string {
  if (urlPath === '/sw.js' || urlPath === '/index.html' || urlPath === MAIN_STYLESHEET) return REVALIDATE;
  if (HASHED_PREFIXES.some((p) => urlPath.startsWith(p))) return IMMUTABLE;
  if (urlPath.startsWith('/locales/') && HASHED_NAME.test(urlPath)) return IMMUTABLE;
  return REVALIDATE;
}

function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  const out = { br: false, gzip: false };
  if (!header) return out;
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) continue;
    if (name === 'br' || name === '*') out.br = true;
    if (name === 'gzip' || name === '*') out.gzip = true;
  }
  return out;
}

async function fileStat(path: string): Promise<Stats | null> {
  try {
    const st = await stat(path);
    return st.isFile() ? st : null;
  } catch {
    return null;
  }
}

export interface StaticFilesOptions {
  publicDir: string;
  /**
   * where a third-party plugin's built client files live (/plugins/<id>/… URLs): its version in use
   * first, then older ones still served to pages opened before an update; empty when it has none
   */
  pluginClientDirs?: (id: string) => readonly string[];
  /** the start-up data written into index.html (index-document.ts); without it the page is sent as built */
  boot?: BootSource;
  /** per-request variants of index.html (pre-rendered pages, issue 15) */
  variants?: readonly PageVariant[];
}

export class StaticFiles {
  /** index.html, rendered with its boot data and compressed once per version */
  private readonly index: IndexDocument;

  constructor(private readonly options: StaticFilesOptions) {
    this.index = new IndexDocument(join(options.publicDir, 'index.html'), options.boot ?? null, options.variants);
  }

  /** Maps a URL path to the files it may name inside our roots (in the order to try); none when it would escape them. */
  private locate(urlPath: string): string[] {
    const third = /^\/plugins\/([a-z][a-z0-9-]{1,39})\//.exec(urlPath);
    const pluginDirs = third ? (this.options.pluginClientDirs?.(third[1]) ?? []) : [];
    const roots = third && pluginDirs.length > 0 ? pluginDirs : [this.options.publicDir];
    const rest = third && pluginDirs.length > 0 ? urlPath.slice(third[0].length - 1) : urlPath;
    return roots.flatMap((root) => {
      const full = normalize(join(root, rest));
      return full === root || full.startsWith(root.endsWith(sep) ? root : root + sep) ? [full] : [];
    });
  }

  /** The first of `paths` that is a file, with its stat. */
  private async firstFile(paths: readonly string[]): Promise<{ path: string; st: Stats } | null> {
    for (const path of paths) {
      const st = await fileStat(path);
      if (st) return { path, st };
    }
    return null;
  }

  private async send(request: FastifyRequest, reply: FastifyReply, path: string, st: Stats, cacheControl: string): Promise<FastifyReply> {
    const ext = extname(path).toLowerCase();
    let servedPath = path;
    let servedStat = st;
    let encoding: 'br' | 'gzip' | null = null;
    if (COMPRESSIBLE.has(ext)) {
      reply.header('vary', 'Accept-Encoding');
      const accepts = acceptedEncodings(request.headers['accept-encoding']);
      for (const [enc, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        if (!accepts[enc]) continue;
        const variant = await fileStat(path + suffix);
        if (variant) {
          servedPath = path + suffix;
          servedStat = variant;
          encoding = enc;
          break;
        }
      }
    }
    const etag = `"${servedStat.size.toString(36)}-${Math.trunc(servedStat.mtimeMs).toString(36)}${encoding ? `-${encoding}` : ''}"`;
    reply.header('cache-control', cacheControl).header('etag', etag).header('last-modified', servedStat.mtime.toUTCString());
    if (request.url === '/sw.js' || path.endsWith(`${sep}sw.js`)) reply.header('service-worker-allowed', '/');
    const inm = request.headers['if-none-match'];
    if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
    reply.type(CONTENT_TYPES[ext] ?? 'application/octet-stream').header('content-length', servedStat.size);
    if (encoding) reply.header('content-encoding', encoding);
    return reply.send(createReadStream(servedPath));
  }

  private sendIndex(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    return this.index.send(request, reply);
  }

  /** GET/HEAD handler for every path no other route matched. */
  handle = async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const rawPath = request.url.split('?')[0];
    if (rawPath === '/api' || rawPath.startsWith('/api/')) return sendNotFound(reply);
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(rawPath);
    } catch {
      return sendNotFound(reply);
    }
    if (urlPath.includes('\0')) return sendNotFound(reply);
    if (urlPath === '/' || urlPath === '/index.html') return this.sendIndex(request, reply);
    if (urlPath === MAIN_STYLESHEET) {
      const version = new URLSearchParams(request.url.slice(rawPath.length)).get('v');
      const versioned = version && STYLESHEET_VERSION.test(version) ? await this.firstFile(this.locate(`/assets/main-${version}.css`)) : null;
      if (versioned) return this.send(request, reply, versioned.path, versioned.st, IMMUTABLE);
    }
    const file = await this.firstFile(this.locate(urlPath));
    if (file) return this.send(request, reply, file.path, file.st, cacheControlFor(urlPath));
    if (FILE_PREFIXES.some((p) => urlPath.startsWith(p)) || urlPath === '/sw.js') return sendNotFound(reply);
    return this.sendIndex(request, reply);
  };
}
