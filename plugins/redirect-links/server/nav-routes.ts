// GET /api/redirect-links: the links the navigation shows, for anyone (like the navigation they
// belong to). The plugin's navigation component fetches them once the app shell shows, rather than
// index.html's boot data carrying them: they concern the shell only (not the login page), and the
// boot cache would need a revision shared by every instance to notice a change. While the plugin is
// disabled this route answers 404 and the component is not served, so the links leave the
// navigation at once.
import { dataListSchema } from '@orepanel/sdk/server';
import type { FastifyInstance } from 'fastify';
import type { RedirectLinkStore } from './link-store';

const publicLinks = dataListSchema({
  type: 'object',
  required: ['id', 'name', 'url', 'icon', 'order'],
  properties: { id: { type: 'integer' }, name: { type: 'string' }, url: { type: 'string' }, icon: { type: ['string', 'null'] }, order: { type: 'integer' } },
});

/** where the navigation reads the links */
export const NAV_LINKS_URL = '/redirect-links';

export function registerNavRoutes(app: FastifyInstance, links: RedirectLinkStore): void {
  app.get(NAV_LINKS_URL, { schema: { response: { 200: publicLinks } } }, async (_request, reply) => {
    const all = await links.all();
    reply.header('cache-control', 'no-cache');
    return { data: all.map(({ id, name, url, icon, order }) => ({ id, name, url, icon, order })) };
  });
}
