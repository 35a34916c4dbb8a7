// The user behind a route with `config: { auth: true }` (the host has checked the session already;
// a session that ended in between is answered like any other).
import type { FastifyRequest } from 'fastify';
import type { ServerPluginContext, SessionUser } from '@orepanel/sdk/server';

export async function signedInUser(ctx: ServerPluginContext, request: FastifyRequest): Promise<SessionUser> {
  const user = await ctx.auth.currentUser(request);
  if (!user) throw ctx.httpError(401, 'INVALID_SESSION', 'Sign in first.');
  return user;
}
