// The panel's public address for links a customer shares (viewer links, the ShareX upload URL):
// APP_URL or the app_url setting; without either (a panel that sends no mail yet), the address the
// customer's own request came in on — the link goes back only to that customer.
import type { FastifyRequest } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';

export async function publicBase(ctx: ServerPluginContext, request: FastifyRequest): Promise<string> {
  try {
    return await ctx.mail.publicUrl(request);
  } catch {
    return `${request.protocol}://${request.host}`;
  }
}

/** Where a hosted image's viewer answers: under /api, the prefix the panel's page fallback never takes. */
export const viewerPath = (name: string) => `/api/i/${name}`;
