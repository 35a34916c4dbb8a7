// The new_login mail: when mail is on, an account that signs in from an address it never used
// before is told when, from where and with what browser (so a stranger's login does not go unseen).
import type { FastifyRequest } from 'fastify';
import type { ServerPluginContext } from '@orepanel/sdk/server';

export async function noticeNewLogin(ctx: ServerPluginContext, request: FastifyRequest, userId: number): Promise<void> {
  if (!(await ctx.mail.enabled())) return;
  const ip = request.ip ? request.ip.slice(0, 45) : null;
  if (!ip) return;
  // the session just started is one of them: a second means the address is known
  if ((await ctx.auth.sessionsFromAddress(userId, ip)) > 1) return;
  const user = await ctx.accounts.contact(userId);
  if (!user) return;
  await ctx.mail.send({
    to: user.email,
    template: 'new_login',
    placeholders: {
      first_name: user.firstName,
      last_name: user.lastName,
      username: user.username,
      email: user.email,
      ip,
      user_agent: (request.headers['user-agent'] ?? 'unknown browser').slice(0, 200),
      time: new Date().toISOString().replace('T', ' ').slice(0, 16) + ' UTC',
    },
  });
}
