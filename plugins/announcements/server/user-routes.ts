// /api/user/announcements…: what a signed-in reader may read (published, unexpired, for everyone or
// their role — announcements.ts decides), read state, the banners and their dismissal, the images.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorResponses, idParams, pageMeta, successSchema, type ServerPluginContext } from '@orepanel/sdk/server';
import type { Announcements } from './announcements';
import { schemas } from './schemas';

const fileAnswer = {
  200: { description: 'The image (its stored type, nosniff, private cache)', content: { 'application/octet-stream': { schema: {} } } },
  ...errorResponses,
} as const;

export function registerUserRoutes(app: FastifyInstance, ctx: ServerPluginContext, announcements: Announcements): void {
  const reader = async (request: FastifyRequest) => (await ctx.auth.currentUser(request))!;

  app.get<{ Querystring: { page: number; per_page: number; tag?: string } }>(
    '/user/announcements',
    { config: { auth: true }, schema: { querystring: schemas.publishedQuery, response: { 200: schemas.publishedList, ...errorResponses } } },
    async (request) => {
      const { page, per_page: perPage, tag } = request.query;
      const { data, total } = await announcements.published(await reader(request), { page, perPage, tag: tag ?? null });
      return { data, meta: pageMeta(page, perPage, total) };
    },
  );

  app.get('/user/announcements/banners', { config: { auth: true }, schema: { response: { 200: schemas.banners, ...errorResponses } } }, async (request) => ({
    data: await announcements.banners(await reader(request)),
  }));

  app.get<{ Params: { key: string } }>(
    '/user/announcements/images/:key',
    { config: { auth: true }, schema: { params: schemas.keyParams, response: fileAnswer } },
    async (request, reply) => ctx.files.send(reply, await announcements.imageFor(await reader(request), request.params.key)),
  );

  app.get<{ Params: { id: number } }>(
    '/user/announcements/:id',
    { config: { auth: true }, schema: { params: idParams, response: { 200: schemas.publishedOne, ...errorResponses } } },
    async (request) => ({ announcement: await announcements.readableOne(await reader(request), request.params.id) }),
  );

  app.post<{ Params: { id: number } }>(
    '/user/announcements/:id/read',
    { config: { auth: true }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      await announcements.mark(await reader(request), request.params.id, 'read');
      return { success: true };
    },
  );

  app.post<{ Params: { id: number } }>(
    '/user/announcements/:id/dismiss',
    { config: { auth: true }, schema: { params: idParams, response: { 200: successSchema, ...errorResponses } } },
    async (request) => {
      await announcements.mark(await reader(request), request.params.id, 'dismissed');
      return { success: true };
    },
  );
}
