// The support PIN (reference: 6 digits) a user tells staff so they can be identified in a ticket.
// GET /api/user/session/pin shows it; POST /api/user/session/newPin makes a new random one that no
// other account holds (ctx.accounts keeps the PIN on the account).
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';

export function registerSupportPin(app: FastifyInstance, ctx: ServerPluginContext): void {
  app.get(
    '/user/session/pin',
    { config: { auth: true }, schema: { response: { 200: { type: 'object', required: ['pin'], properties: { pin: { type: ['string', 'null'] } } } } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const pin = await ctx.accounts.supportPin(user.id);
      reply.header('cache-control', 'no-store');
      return { pin };
    },
  );

  app.post(
    '/user/session/newPin',
    {
      config: { auth: true },
      schema: { response: { 200: { type: 'object', required: ['success', 'pin'], properties: { success: { type: 'boolean' }, pin: { type: 'string' } } } } },
    },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const pin = await ctx.accounts.newSupportPin(user.id);
      // the PIN identifies the user to staff: it is not written to the log
      await ctx.audit.record(request, { action: 'account.support_pin_change', targetUserId: user.id });
      return { success: true, pin };
    },
  );
}
