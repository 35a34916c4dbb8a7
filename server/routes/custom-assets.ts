// spec §4.1, §7: GET /api/system/custom.css and /api/system/custom.js — every active plugin's own
// stylesheet or script first, the administrator's custom code (custom_css / custom_js) last so it wins.
//
// Issue 15: both are empty on most panels, and the start-up waits for them. index.html's boot data
// carries a revision of each (a hash of its body, null when empty): the kernel skips an empty one
// and asks for a non-empty one as /api/system/custom.css?v=<revision>, which is cached for a year —
// a change gives a new revision, so a second visit never waits for them. Without a revision (or
// with a stale one) the answer is revalidated (no-cache, with an ETag).
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PluginHost } from '../plugins/host';
import type { SettingsStore } from '../settings/store';
import { IMMUTABLE, REVALIDATE } from '../http/static-files';

export type CustomAssetKind = 'css' | 'js';

/** The revisions index.html carries: null when that asset is empty (nothing to load). */
export interface CustomAssetRevisions {
  css: string | null;
  js: string | null;
}

export interface CustomAssetSources {
  settings: Pick<SettingsStore, 'get'>;
  plugins: Pick<PluginHost, 'assets'>;
}

const SETTING: Record<CustomAssetKind, string> = { css: 'custom_css', js: 'custom_js' };
const SEPARATOR: Record<CustomAssetKind, string> = { css: '\n', js: '\n;\n' };
const CONTENT_TYPE: Record<CustomAssetKind, string> = { css: 'text/css; charset=utf-8', js: 'application/javascript; charset=utf-8' };

/** The served body: the plugins' parts, then the administrator's; blank parts left out. */
export async function customAssetBody(kind: CustomAssetKind, sources: CustomAssetSources): Promise<string> {
  const own = String((await sources.settings.get(SETTING[kind])) ?? '');
  return [...sources.plugins.assets(kind), own].filter((part) => part.trim() !== '').join(SEPARATOR[kind]);
}

/** A revision of a body (a content hash, URL-safe), null for an empty one. */
export function customAssetRevision(body: string): string | null {
  if (body === '') return null;
  return createHash('sha256').update(body).digest('base64url').slice(0, 16);
}

export async function customAssetRevisions(sources: CustomAssetSources): Promise<CustomAssetRevisions> {
  const [css, js] = await Promise.all([customAssetBody('css', sources), customAssetBody('js', sources)]);
  return { css: customAssetRevision(css), js: customAssetRevision(js) };
}

async function sendCustomAsset(kind: CustomAssetKind, sources: CustomAssetSources, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const body = await customAssetBody(kind, sources);
  const revision = customAssetRevision(body) ?? 'empty';
  const asked = (request.query as Record<string, unknown> | undefined)?.v;
  // only the current revision's address is cached for good; an older one gets today's body, revalidated
  const cacheControl = typeof asked === 'string' && asked === revision ? IMMUTABLE : REVALIDATE;
  const etag = `"${revision}"`;
  reply.type(CONTENT_TYPE[kind]).header('cache-control', cacheControl).header('etag', etag);
  const inm = request.headers['if-none-match'];
  if (inm && inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) return reply.code(304).send();
  return reply.send(body);
}

/** A text answer, sent as it is; the media type is what the API document (/api/docs) shows. */
const textResponse = (mediaType: string) => ({ 200: { content: { [mediaType]: { schema: { type: 'string' } } } } });
const revisionQuery = {
  type: 'object',
  properties: { v: { type: 'string', maxLength: 64, description: 'the revision index.html names (cached for a year when it is the current one)' } },
} as const;

export function customAssetRoutes(app: FastifyInstance, sources: CustomAssetSources): void {
  app.get('/api/system/custom.css', { schema: { querystring: revisionQuery, response: textResponse('text/css') } }, (request, reply) =>
    sendCustomAsset('css', sources, request, reply),
  );
  app.get('/api/system/custom.js', { schema: { querystring: revisionQuery, response: textResponse('application/javascript') } }, (request, reply) =>
    sendCustomAsset('js', sources, request, reply),
  );
}
