// Signing a known user in without a password (an /auth/sso token, a linked Discord or GitHub
// account): the same rules as the password login — a banned account is refused, the browser gets a
// fresh session (the old one is rotated away), and with 2FA on the session stays TW0_FA_BLOCKED
// until a code is verified. The caller has already proved who the user is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditDetails, ServerPluginContext } from '@orepanel/sdk/server';
import { noticeNewLogin } from './login-notice';

export interface SignInResult {
  /** the session waits for a TOTP code (the browser goes to /auth/2fa/verify) */
  twoFaPending: boolean;
}

/**
 * Starts a session for `userId`; throws 403 USER_BANNED (audited as auth.login_banned) for a banned
 * account. `action` is the audit entry of the sign-in, e.g. auth.sso_login.
 */
export async function signInAs(
  ctx: ServerPluginContext,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  action: string,
  details: AuditDetails = {},
): Promise<SignInResult> {
  const user = await ctx.accounts.signInState(userId);
  if (!user) throw ctx.httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');
  if (user.banned) {
    await ctx.audit.record(request, { action: 'auth.login_banned', actorUserId: null, targetUserId: userId, details });
    throw ctx.httpError(403, 'USER_BANNED', user.banReason ? `This account has been banned: ${user.banReason}` : 'This account has been banned.');
  }
  const twoFaPending = user.twoFactorEnabled;
  await ctx.auth.startSession(request, reply, userId, { twoFaPending });
  await ctx.audit.record(request, { action, actorUserId: userId, targetUserId: userId, details: { ...details, two_fa_pending: twoFaPending } });
  await noticeNewLogin(ctx, request, userId);
  return { twoFaPending };
}
