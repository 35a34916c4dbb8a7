// /api/admin/images (spec §2 /mc-admin/images, admin.images.*): the library, paged with a name
// search; one picture with what uses it; upload (a name and one png/jpeg/gif/webp file, typed by its
// bytes, no larger than the setting images_max_mb); delete, refused while the catalog uses the
// picture. GET /api/library-images/<key>.<ext>: the picture for anyone, cached for a year.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  errorResponses,
  idParams,
  pageMeta,
  pageMetaSchema,
  pagingQuery,
  successSchema,
  type PagingQuery,
  type ServerPluginContext,
  type UploadRouteConfig,
} from '@orepanel/sdk/server';
import { cleanImageName, IMAGE_RULES, LIBRARY_IMAGE_TYPES, PUBLIC_IMAGE_PREFIX } from '../shared/image-rules';
import { imageDimensions } from './dimensions';
import type { ImageLibrary } from './library';
import { describeUsers, type ImageUsage } from './usage';

const imageSchema = {
  type: 'object',
  required: ['id', 'name', 'url', 'type', 'size', 'width', 'height', 'created_by', 'created_at'],
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    url: { type: 'string' },
    type: { type: 'string' },
    size: { type: 'integer' },
    width: { type: ['integer', 'null'] },
    height: { type: ['integer', 'null'] },
    created_by: { type: ['integer', 'null'] },
    created_at: { type: 'string' },
  },
} as const;

const userSchema = {
  type: 'object',
  required: ['kind', 'id', 'name'],
  properties: { kind: { type: 'string', enum: ['location', 'category', 'egg'] }, id: { type: 'integer' }, name: { type: 'string' } },
} as const;

const listQuery = {
  ...pagingQuery,
  properties: { ...pagingQuery.properties, search: { type: 'string', maxLength: IMAGE_RULES.name.maxLength, default: '' } },
} as const;

const uploadBody = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: { name: { type: 'string', minLength: IMAGE_RULES.name.minLength, maxLength: 200 } },
} as const;

const publicParams = {
  type: 'object',
  required: ['file'],
  properties: { file: { type: 'string', pattern: '^[A-Za-z0-9_-]{22}\\.(png|jpg|gif|webp)$' } },
} as const;

/** The picture itself: its stored image type, inline, never sniffed, cached by anyone for a year. */
const pictureAnswer = {
  200: {
    description: 'The picture (Cache-Control: public, max-age=31536000, immutable; X-Content-Type-Options: nosniff)',
    content: Object.fromEntries(LIBRARY_IMAGE_TYPES.map((type) => [type, { schema: {} }])),
  },
  400: errorResponses[400],
  404: errorResponses[404],
} as const;

const uploadErrors = { ...errorResponses, 413: errorResponses[400], 415: errorResponses[400] } as const;

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

export function registerImageRoutes(app: FastifyInstance, ctx: ServerPluginContext, library: ImageLibrary, usage: ImageUsage): void {
  const notFound = () => ctx.httpError(404, 'IMAGE_NOT_FOUND', 'There is no such image.');

  /** the limits at this request: one picture, no larger than the setting says */
  const limits = async (): Promise<UploadRouteConfig> => {
    const mb = Number(await ctx.settings.get('images_max_mb'));
    const clamped = Number.isFinite(mb) ? Math.min(IMAGE_RULES.maxMb.maximum, Math.max(IMAGE_RULES.maxMb.minimum, Math.floor(mb))) : IMAGE_RULES.maxMb.default;
    return { maxFiles: 1, maxBytes: clamped * 1024 * 1024, types: LIBRARY_IMAGE_TYPES };
  };

  app.get<{ Querystring: PagingQuery & { search: string } }>(
    '/admin/images',
    {
      config: { permission: 'admin.images.list' },
      schema: {
        querystring: listQuery,
        response: { 200: { type: 'object', required: ['data', 'meta'], properties: { data: { type: 'array', items: imageSchema }, meta: pageMetaSchema } }, ...errorResponses },
      },
    },
    async (request) => {
      const { page, per_page: perPage, search } = request.query;
      const { images, total } = await library.page(page, perPage, search);
      return { data: images, meta: pageMeta(page, perPage, total) };
    },
  );

  app.get(
    '/admin/images/limits',
    {
      config: { permission: 'admin.images.create' },
      schema: {
        response: {
          200: { type: 'object', required: ['max_bytes', 'types'], properties: { max_bytes: { type: 'integer' }, types: { type: 'array', items: { type: 'string' } } } },
          ...errorResponses,
        },
      },
    },
    async () => {
      const { maxBytes, types } = await limits();
      return { max_bytes: maxBytes, types };
    },
  );

  app.get<{ Params: { id: number } }>(
    '/admin/images/:id',
    {
      config: { permission: 'admin.images.list' },
      schema: {
        params: idParams,
        response: { 200: { type: 'object', required: ['image', 'used_by'], properties: { image: imageSchema, used_by: { type: 'array', items: userSchema } } }, ...errorResponses },
      },
    },
    async (request) => {
      const found = await library.find(request.params.id);
      if (!found) throw notFound();
      return { image: found.image, used_by: await usage.usersOf(found.fileKey) };
    },
  );

  app.post<{ Body: { name: string } }>(
    '/admin/images',
    {
      config: { permission: 'admin.images.create', upload: limits },
      schema: { body: uploadBody, response: { 201: { type: 'object', required: ['image'], properties: { image: imageSchema } }, ...uploadErrors } },
    },
    async (request: FastifyRequest<{ Body: { name: string } }>, reply) => {
      const name = cleanImageName(request.body.name);
      if (name === null) throw ctx.httpError(400, 'VALIDATION_ERROR', `The name must have 1 to ${IMAGE_RULES.name.maxLength} characters and no control characters.`, 'name');
      const { files } = await ctx.files.fromRequest(request);
      const [file] = files;
      if (!file) throw ctx.httpError(400, 'IMAGE_FILE_REQUIRED', 'Choose a picture to upload (png, jpeg, gif or webp).', 'file');
      const opened = await ctx.files.open(file.key);
      const dimensions = opened ? imageDimensions(file.type, await readAll(opened.stream)) : null;
      const user = await ctx.auth.currentUser(request);
      const image = await library.add({
        name,
        fileKey: file.key,
        type: file.type,
        size: file.size,
        width: dimensions?.width ?? null,
        height: dimensions?.height ?? null,
        createdBy: user?.id ?? null,
        createdAt: new Date(ctx.clock.now()).toISOString(),
      });
      // the error answer makes the file service drop the file it just kept
      if (!image) throw ctx.httpError(409, 'IMAGE_NAME_TAKEN', 'Another image already has this name.', 'name');
      await ctx.audit.record(request, { action: 'admin.image.create', details: { image_id: image.id, name: image.name, type: image.type, size: image.size } });
      return reply.code(201).send({ image });
    },
  );

  app.delete<{ Params: { id: number } }>(
    '/admin/images/:id',
    { config: { permission: 'admin.images.delete' }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      const found = await library.find(request.params.id);
      if (!found) throw notFound();
      const users = await usage.usersOf(found.fileKey);
      if (users.length > 0) throw ctx.httpError(409, 'IMAGE_IN_USE', `This image is in use by ${describeUsers(users)}: pick another picture there first.`);
      if (!(await library.remove(found.image.id))) throw notFound();
      // the row goes first, and the delete stands even if the store fails now: an orphan file is
      // harmless (nothing serves a key without its row), a row without its file would be a broken picture
      await ctx.files
        .delete(found.fileKey)
        .catch((error: unknown) => ctx.log.warn({ err: error, image_id: found.image.id }, 'images: the file of a deleted image could not be removed'));
      await ctx.audit.record(request, { action: 'admin.image.delete', details: { image_id: found.image.id, name: found.image.name } });
      return { success: true };
    },
  );

  // only keys the library holds: the file service also keeps private files (ticket attachments)
  app.get<{ Params: { file: string } }>(`${PUBLIC_IMAGE_PREFIX}:file`, { schema: { params: publicParams, response: pictureAnswer } }, async (request, reply) => {
    const key = request.params.file.slice(0, 22);
    if ((await library.typeOf(key)) === null) throw ctx.httpError(404, 'FILE_NOT_FOUND', 'This file does not exist.');
    return ctx.files.send(reply, key, { public: true });
  });
}
