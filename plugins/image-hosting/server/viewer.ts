// The public side: a hosted image's viewer link (/api/i/<name>) and its abuse report. The link
// serves the file itself, or — when its owner turned embeds on — a small page whose Open Graph tags
// (title, description, colour, the image) make Discord show a card, with a report link under it.
// Every text the owner wrote is HTML-escaped there. No login; reports are rate-limited per address.
// The file is sent for public caching (a name is random and its bytes never change).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import { NAME_PATTERN, type ImageHost } from './host';
import { publicBase, viewerPath } from './public-address';
import { REPORT_REASONS, type ImageHostingTables, type ReportReason } from './tables';

const FLAG = 'image_hosting_enabled';
const nameParams = { type: 'object', required: ['name'], additionalProperties: false, properties: { name: { type: 'string', pattern: NAME_PATTERN } } } as const;
const viewerQuery = { type: 'object', additionalProperties: false, properties: { raw: { type: 'boolean' } } } as const;
const reportBody = {
  type: 'object',
  required: ['reason'],
  additionalProperties: false,
  properties: { reason: { type: 'string', enum: [...REPORT_REASONS] }, details: { type: 'string', maxLength: 500 } },
} as const;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);

/** the viewer page's own words, in the reader's language (the page is the server's, not the kernel's) */
const PAGE_TEXTS: Readonly<Record<string, { report: string; uploaded: string }>> = {
  en: { report: 'Report this image', uploaded: 'Uploaded by' },
  ro: { report: 'Raportează această imagine', uploaded: 'Încărcată de' },
  md: { report: 'Raportează această imagine', uploaded: 'Încărcată de' },
  fr: { report: 'Signaler cette image', uploaded: 'Envoyée par' },
  de: { report: 'Dieses Bild melden', uploaded: 'Hochgeladen von' },
  es: { report: 'Denunciar esta imagen', uploaded: 'Subida por' },
};

function readerLanguage(request: FastifyRequest): keyof typeof PAGE_TEXTS {
  for (const part of (request.headers['accept-language'] ?? '').split(',')) {
    const tag = part.trim().split(';')[0]?.toLowerCase() ?? '';
    if (tag === 'ro-md') return 'md';
    const base = tag.split('-')[0] ?? '';
    if (Object.hasOwn(PAGE_TEXTS, base)) return base;
  }
  return 'en';
}

export interface EmbedPage {
  title: string;
  description: string;
  color: string;
  imageUrl: string;
  reportPath: string;
  author: string;
  language: keyof typeof PAGE_TEXTS;
}

/** The Open Graph page; every value the owner wrote is escaped. */
export function embedPage(page: EmbedPage): string {
  const texts = PAGE_TEXTS[page.language] ?? PAGE_TEXTS.en!;
  const title = escapeHtml(page.title);
  const description = escapeHtml(page.description);
  const image = escapeHtml(page.imageUrl);
  const color = /^#[0-9a-f]{6}$/i.test(page.color) ? page.color : '#5865f2';
  return `<!doctype html>
<html lang="${page.language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta property="og:type" content="website">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:image" content="${image}">
<meta name="twitter:card" content="summary_large_image">
<meta name="theme-color" content="${color}">
<style>body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#0f1117;color:#e6e8ee;font-family:system-ui,sans-serif}main{max-width:min(960px,96vw);text-align:center;padding:16px}img{max-width:100%;max-height:80vh;border-radius:8px;border-top:4px solid ${color}}h1{font-size:1.2rem}p{color:#a0a6b4}a{color:#a0a6b4;font-size:.85rem}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<img src="${image}" alt="${title}">
${description ? `<p>${description}</p>` : ''}
<p>${escapeHtml(texts.uploaded)} ${escapeHtml(page.author)}</p>
<a href="${escapeHtml(page.reportPath)}" rel="nofollow">${escapeHtml(texts.report)}</a>
</main>
</body>
</html>
`;
}

export function registerViewerRoutes(app: FastifyInstance, ctx: ServerPluginContext, host: ImageHost): void {
  const db = ctx.db.withTables<ImageHostingTables>();

  app.get<{ Params: { name: string }; Querystring: { raw?: boolean } }>(
    '/i/:name',
    {
      config: { flag: FLAG },
      schema: {
        params: nameParams,
        querystring: viewerQuery,
        response: {
          200: {
            description: 'The image (nosniff), or the Open Graph page when its owner turned embeds on',
            content: { 'image/png': { schema: {} }, 'text/html': { schema: {} } },
          },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const image = await host.byName(request.params.name);
      if (!image) throw ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
      if (request.query.raw === true || Number(image.embed_enabled ?? 0) !== 1) return ctx.files.send(reply, image.file_key, { public: true });
      const owner = await ctx.db.selectFrom('user_public').select('username').where('id', '=', image.user_id).executeTakeFirst();
      const base = await publicBase(ctx, request);
      const html = embedPage({
        title: image.embed_title || image.original_name,
        description: image.embed_description ?? '',
        color: image.embed_color ?? '#5865f2',
        imageUrl: `${base}${viewerPath(image.name)}?raw=true`,
        reportPath: `/images/report/${image.name}`,
        author: owner?.username ?? '',
        language: readerLanguage(request),
      });
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    },
  );

  app.post<{ Params: { name: string }; Body: { reason: ReportReason; details?: string } }>(
    '/i/:name/report',
    { config: { flag: FLAG, rateLimit: 'image-hosting.report' }, schema: { params: nameParams, body: reportBody, response: { 201: successSchema, ...errorResponses } } },
    async (request, reply) => {
      const image = await host.byName(request.params.name);
      if (!image) throw ctx.httpError(404, 'IMAGE_NOT_FOUND', 'No such image.');
      await db
        .insertInto('image_hosting_reports')
        .values({
          image_id: image.id,
          image_name: image.name,
          reason: request.body.reason,
          details: (request.body.details ?? '').trim(),
          reporter_ip: request.ip,
          status: 'pending',
          handled_by: null,
          handled_at: null,
          created_at: new Date(ctx.clock.now()).toISOString(),
        })
        .execute();
      return reply.code(201).send({ success: true });
    },
  );
}
