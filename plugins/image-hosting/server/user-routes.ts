// The customer's side, /api/user/images…: their images, quota, upload key, ShareX file and embed
// settings — every route behind the image_hosting_enabled flag. Uploads come from the page (the
// session) or from ShareX (the key in the X-Upload-Key header, no session: such a request carries
// no Origin header, so the panel's cross-site check lets it through, and a browser on another site
// cannot send the header without the key).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, pageMeta, pageMetaSchema, pagingQuery, successSchema, type PagingQuery, type ServerPluginContext } from '@orepanel/sdk/server';
import type { ImageHost, ImageView } from './host';
import { publicBase, viewerPath } from './public-address';

const FLAG = 'image_hosting_enabled';
const USER = { auth: true, flag: FLAG } as const;
/** the header ShareX sends the key in (its .sxcu Headers) */
export const KEY_HEADER = 'x-upload-key';
/** the form field ShareX sends the file in (its .sxcu FileFormName) */
export const FILE_FIELD = 'file';
export const UPLOAD_PATH = '/api/user/images/upload';

const imageView = {
  type: 'object',
  required: ['id', 'name', 'original_name', 'type', 'size', 'created_at', 'url'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    original_name: { type: 'string' },
    type: { type: 'string' },
    size: { type: 'integer' },
    created_at: { type: 'string' },
    url: { type: 'string' },
  },
} as const;

const usage = {
  type: 'object',
  required: ['used_bytes', 'quota_bytes', 'max_bytes', 'types', 'coins_per_upload'],
  properties: {
    used_bytes: { type: 'integer' },
    quota_bytes: { type: 'integer' },
    max_bytes: { type: 'integer' },
    types: { type: 'array', items: { type: 'string' } },
    coins_per_upload: { type: 'integer' },
  },
} as const;

const embedProperties = {
  enabled: { type: 'boolean' },
  title: { type: 'string', maxLength: 100 },
  description: { type: 'string', maxLength: 300 },
  color: { type: 'string', pattern: '^#[0-9A-Fa-f]{6}$' },
} as const;
const embedView = { type: 'object', required: ['enabled', 'title', 'description', 'color'], properties: embedProperties } as const;
const embedBody = { type: 'object', required: ['enabled', 'title', 'description', 'color'], additionalProperties: false, properties: embedProperties } as const;
const keyView = { type: 'object', required: ['key'], properties: { key: { type: 'string' } } } as const;
const uploaded = {
  type: 'object',
  required: ['image', 'url'],
  properties: { image: imageView, url: { type: 'string' } },
} as const;
const tooMany = { 413: errorResponses[400], 415: errorResponses[400], 429: errorResponses[400] } as const;

export function registerUserRoutes(app: FastifyInstance, ctx: ServerPluginContext, host: ImageHost): void {
  const userOf = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;
  const withUrl = async (request: FastifyRequest, image: ImageView) => ({ ...image, url: `${await publicBase(ctx, request)}${viewerPath(image.name)}` });

  app.get<{ Querystring: PagingQuery }>(
    '/user/images',
    {
      config: USER,
      schema: {
        querystring: pagingQuery,
        response: {
          200: { type: 'object', required: ['data', 'meta', 'usage'], properties: { data: { type: 'array', items: imageView }, meta: pageMetaSchema, usage } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const user = await userOf(request);
      const { page, per_page: perPage } = request.query;
      const [{ rows, total }, limits, used] = await Promise.all([host.list(user.id, page, perPage), host.limits(), host.usedBytes(user.id)]);
      return {
        data: await Promise.all(rows.map((row) => withUrl(request, row))),
        meta: pageMeta(page, perPage, total),
        usage: { used_bytes: used, quota_bytes: limits.quotaBytes, max_bytes: limits.maxBytes, types: limits.types, coins_per_upload: limits.coinsPerUpload },
      };
    },
  );

  // from the page: the session's account, the form's one file
  app.post('/user/images', { config: { ...USER, upload: host.uploadLimits }, schema: { response: { 201: uploaded, ...errorResponses, ...tooMany } } }, async (request, reply) => {
    const image = await withUrl(request, await host.upload(request, (await userOf(request)).id));
    return reply.code(201).send({ image, url: image.url });
  });

  // from ShareX: the key names the account; it is checked before the file is read
  app.post(
    '/user/images/upload',
    {
      config: { flag: FLAG, upload: host.uploadLimits },
      schema: { response: { 201: uploaded, ...errorResponses, ...tooMany } },
    },
    async (request, reply) => {
      const header = request.headers[KEY_HEADER];
      const userId = typeof header === 'string' ? await host.userForKey(header) : null;
      if (userId === null) throw ctx.httpError(401, 'INVALID_UPLOAD_KEY', 'The upload key is missing, wrong or was replaced; download a new ShareX file from /images/config.');
      const image = await withUrl(request, await host.upload(request, userId));
      return reply.code(201).send({ image, url: image.url });
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/user/images/:id',
    { config: USER, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      await host.removeMine((await userOf(request)).id, request.params.id);
      return { success: true };
    },
  );

  app.get('/user/images/key', { config: USER, schema: { response: { 200: keyView, ...errorResponses } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { key: await host.revealKey((await userOf(request)).id) };
  });

  app.post('/user/images/key/rotate', { config: USER, schema: { response: { 200: keyView, ...errorResponses } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const user = await userOf(request);
    const key = await host.rotateKey(user.id);
    await ctx.audit.record(request, { action: 'image_hosting.key_rotated', targetUserId: user.id });
    return { key };
  });

  app.get('/user/images/embed', { config: USER, schema: { response: { 200: embedView, ...errorResponses } } }, async (request) => host.embed((await userOf(request)).id));

  app.put<{ Body: { enabled: boolean; title: string; description: string; color: string } }>(
    '/user/images/embed',
    { config: USER, schema: { body: embedBody, response: { 200: embedView, ...errorResponses } } },
    async (request) => host.setEmbed((await userOf(request)).id, { ...request.body, title: request.body.title.trim(), description: request.body.description.trim() }),
  );

  // the ShareX custom uploader file (.sxcu): ShareX posts the file as multipart with the key header and reads the link from the JSON answer
  app.get(
    '/user/images/sharex',
    {
      config: USER,
      schema: { response: { 200: { description: 'The .sxcu file (JSON, as an attachment)', content: { 'application/octet-stream': { schema: {} } } }, ...errorResponses } },
    },
    async (request, reply) => {
      const key = await host.revealKey((await userOf(request)).id);
      const base = await publicBase(ctx, request);
      const host_ = new URL(base).host;
      const config = {
        Version: '15.0.0',
        Name: `${host_} images`,
        DestinationType: 'ImageUploader',
        RequestMethod: 'POST',
        RequestURL: `${base}${UPLOAD_PATH}`,
        Headers: { 'X-Upload-Key': key },
        Body: 'MultipartFormData',
        FileFormName: FILE_FIELD,
        URL: '{json:url}',
        ErrorMessage: '{json:error.message}',
      };
      const fileName = `${host_.replace(/[^A-Za-z0-9.-]/g, '_')}.sxcu`;
      return reply
        .header('cache-control', 'no-store')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .type('application/octet-stream')
        .send(`${JSON.stringify(config, null, 2)}\n`);
    },
  );
}
