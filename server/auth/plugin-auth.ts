// ctx.auth: the account and session operations plugins build on (the auth plugin's login and
// registration, later 2FA and account pages).
import { httpError, type PluginAuth, type SessionState, type SessionUser } from '../../sdk/server';
import type { EventBus } from '../events';
import type { AbuseScreen } from '../security/abuse-screen';
import type { Accounts } from './accounts';
import { clearLoginCookies, readCookie, setLoginCookies, TOKEN_COOKIE } from './cookies';
import { hashPassword, verifyPassword } from './password';
import type { ResolvedSession, SessionService } from './sessions';

export function sessionUser(resolved: ResolvedSession): SessionUser | null {
  const { row, role } = resolved;
  if (resolved.status !== 'ok' || !row || !role) return null;
  return {
    id: row.user_id,
    uuid: row.uuid,
    username: row.username,
    email: row.email,
    role: row.role_id,
    roleName: role.realName,
    permissions: role.permissions,
    banned: row.banned === 1,
    twoFaEnabled: row.two_fa_enabled === 1,
    sessionId: row.session_id,
  };
}

export function sessionState(resolved: ResolvedSession): SessionState | null {
  const { row } = resolved;
  if (!row || resolved.status === 'none' || resolved.status === 'invalid') return null;
  return {
    userId: row.user_id,
    sessionId: row.session_id,
    twoFaPending: row.two_fa_pending === 1,
    twoFaVerifiedAt: row.two_fa_verified_at,
    banned: row.banned === 1,
  };
}

export function createPluginAuth(sessions: SessionService, accounts: Accounts, events: EventBus, abuse: Pick<AbuseScreen, 'afterSignIn'> | null = null): PluginAuth {
  return Object.freeze({
    async currentUser(request) {
      return sessionUser(await sessions.resolve(request));
    },
    hashPassword,
    verifyPassword,
    createUser: (input) => accounts.create(input),
    checkCredentials: (login, password) => accounts.checkCredentials(login, password),
    async startSession(request, reply, userId, options = {}) {
      // rotation: a login always gets a fresh session; the browser's previous one ends here
      await sessions.revokeToken(readCookie(request.headers.cookie, TOKEN_COOKIE));
      const created = await sessions.create({
        userId,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
        twoFaPending: options.twoFaPending === true,
      });
      setLoginCookies(request, reply, created.token, created.publicId, sessions.ttlSeconds);
      // flags the account for review when block_alts / block_vpn match; never refuses the sign-in
      await abuse?.afterSignIn(request, reply, userId);
      await events.emit('session.started', { userId, sessionId: created.sessionId, ip: request.ip ?? null });
    },
    lookupUserId: (login) => accounts.lookupUserId(login),
    userPermissions: (userId) => accounts.permissionsOf(userId),
    async session(request) {
      return sessionState(await sessions.resolve(request));
    },
    async rotateSession(request, reply, options = {}) {
      const current = sessionState(await sessions.resolve(request));
      if (!current) throw httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');
      const created = await sessions.create({
        userId: current.userId,
        ip: request.ip ?? null,
        userAgent: request.headers['user-agent'] ?? null,
        twoFaPending: options.twoFaVerified ? false : current.twoFaPending,
        twoFaVerifiedAt: options.twoFaVerified ? new Date().toISOString() : current.twoFaVerifiedAt,
      });
      await sessions.revokeToken(readCookie(request.headers.cookie, TOKEN_COOKIE));
      setLoginCookies(request, reply, created.token, created.publicId, sessions.ttlSeconds);
    },
    async markTwoFaVerified(request) {
      const current = sessionState(await sessions.resolve(request));
      if (!current) throw httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');
      await sessions.markTwoFaVerified(current.sessionId);
    },
    sessionLive: (sessionId) => sessions.isLive(sessionId),
    listSessions: (userId) => sessions.sessionsOf(userId),
    sessionsFromAddress: (userId, ip) => sessions.countFromAddress(userId, ip),
    async findSession(userId, publicId) {
      return (await sessions.sessionsOf(userId, { publicId, includeExpired: true }))[0] ?? null;
    },
    revokeSession: (userId, sessionId) => sessions.revokeOne(userId, sessionId),
    revokeSessions: (userId, exceptSessionId = null) => sessions.revokeAllOf(userId, exceptSessionId),
    checkPassword: (userId, password) => accounts.checkPassword(userId, password),
    async setPassword(userId, password) {
      await accounts.setPassword(userId, password);
      await events.emit('user.credentials_changed', { userId });
    },
    deleteUser: (userId, beforeDelete) => accounts.deleteUser(userId, beforeDelete),
    async endSession(request, reply) {
      const ended = await sessions.revokeToken(readCookie(request.headers.cookie, TOKEN_COOKIE));
      clearLoginCookies(request, reply);
      if (ended) await events.emit('session.ended', ended);
    },
  } satisfies PluginAuth);
}
