// The support PIN (reference: 6 digits) a user tells staff so they can be identified in a ticket.
// GET /api/user/session/pin shows it; POST /api/user/session/newPin makes a new random one, avoiding
// the PINs other accounts hold (a million values: a clash is rare, and retried).
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';

const ATTEMPTS = 8;

export function registerSupportPin(app: FastifyInstance, ctx: ServerPluginContext): void {
  const newPin = async (userId: number): Promise<string> => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const taken = await ctx.db.selectFrom('users').select('id').where('support_pin', '=', pin).where('id', '!=', userId).executeTakeFirst();
      if (!taken) return pin;
    }
    throw new Error('could not find a free support PIN');
  };

  app.get(
    '/user/session/pin',
    { config: { auth: true }, schema: { response: { 200: { type: 'object', required: ['pin'], properties: { pin: { type: ['string', 'null'] } } } } } },
    async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const row = await ctx.db.selectFrom('users').select('support_pin').where('id', '=', user.id).executeTakeFirstOrThrow();
      reply.header('cache-control', 'no-store');
      return { pin: row.support_pin };
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
      const pin = await newPin(user.id);
      await ctx.db.updateTable('users').set({ support_pin: pin, updated_at: new Date().toISOString() }).where('id', '=', user.id).execute();
      // the PIN identifies the user to staff: it is not written to the log
      await ctx.audit.record(request, { action: 'account.support_pin_change', targetUserId: user.id });
      return { success: true, pin };
    },
  );
}
