// GET /api/user/session — spec §3/§7: success, error_code, user_info, billing, stats, permissions.
// The hot path of the panel (every page polls it each 60 s): one compiled lookup, a response schema
// for fast serialisation, nothing else.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { storedCount } from '../../sdk/stored-values';
import { clearLoginCookies, readCookie, TOKEN_COOKIE } from '../auth/cookies';
import { SESSION_MESSAGES } from '../auth/route-guard';
import type { ResolvedSession, SessionService } from '../auth/sessions';
import type { SettingsStore } from '../settings/store';
import type { SessionCounters, UserCounters } from '../wallet/counters';
import { nullableString, userProfileProperties } from '../auth/user-profile-schema';

const sessionResponse = {
  type: 'object',
  required: ['success', 'error_code', 'user_info', 'billing', 'stats', 'permissions'],
  properties: {
    success: { type: 'boolean' },
    error_code: nullableString,
    message: { type: 'string' },
    user_info: {
      type: ['object', 'null'],
      properties: {
        ...userProfileProperties,
        // the force_2fa setting is on and this account has no 2FA yet: the client sends it to /auth/2fa/setup
        two_fa_required: { type: 'boolean' },
        created_at: { type: 'string' },
      },
    },
    billing: {
      type: ['object', 'null'],
      properties: {
        coins: { type: 'integer' },
        ram: { type: 'integer' },
        disk: { type: 'integer' },
        cpu: { type: 'integer' },
        ports: { type: 'integer' },
        databases: { type: 'integer' },
        backups: { type: 'integer' },
        server_slots: { type: 'integer' },
      },
    },
    stats: {
      type: ['object', 'null'],
      // minutes_afk is the account's own; the others are the counters plugins declare (servers, referrals…)
      properties: { minutes_afk: { type: 'integer' } },
      additionalProperties: { type: 'integer' },
    },
    permissions: { type: 'array', items: { type: 'string' } },
  },
} as const;

type FailureCode = 'INVALID_SESSION' | 'TW0_FA_BLOCKED' | 'USER_BANNED';

function failure(code: FailureCode) {
  return { success: false, error_code: code, message: SESSION_MESSAGES[code], user_info: null, billing: null, stats: null, permissions: [] };
}

const BILLING_KEYS = ['coins', 'ram', 'disk', 'cpu', 'ports', 'databases', 'backups', 'server_slots'] as const;
type SessionRow = NonNullable<ResolvedSession['row']>;

/**
 * Stored counts of the account, each checked: one the database holds as no whole number (a hand
 * edit, SQLite's REAL Infinity) is shown as 0 and logged — the account's pages keep working instead
 * of every session answer failing until the row is mended.
 */
function countsOf<K extends keyof SessionRow>(row: SessionRow, keys: readonly K[], log: FastifyBaseLogger): Record<K, number> {
  const out = {} as Record<K, number>;
  const broken: K[] = [];
  for (const key of keys) {
    const value = storedCount(row[key]);
    if (value === null) broken.push(key);
    out[key] = value ?? 0;
  }
  if (broken.length > 0) log.warn({ userId: row.user_id, fields: broken }, 'session: the account holds unreadable counts; shown as 0 until mended');
  return out;
}

function success(resolved: ResolvedSession, force2fa: boolean, counters: SessionCounters, log: FastifyBaseLogger) {
  const row = resolved.row!;
  const role = resolved.role!;
  return {
    success: true,
    error_code: null,
    user_info: {
      uuid: row.uuid,
      username: row.username,
      email: row.email,
      first_name: row.first_name,
      last_name: row.last_name,
      avatar: row.avatar,
      background: row.background,
      role: row.role_id,
      role_name: role.realName,
      verified: row.verified === 1,
      two_fa_enabled: row.two_fa_enabled === 1,
      two_fa_required: force2fa && row.two_fa_enabled !== 1,
      created_at: row.created_at,
    },
    billing: countsOf(row, BILLING_KEYS, log),
    // the counters plugins publish (ctx.counters) and declare in plugin.json `stats`
    stats: { ...counters, minutes_afk: countsOf(row, ['minutes_afk'], log).minutes_afk },
    permissions: role.permissions,
  };
}

/** Writes the answer for a resolved session (sync: the SQLite lookup needs no promise). */
function answer(
  request: FastifyRequest,
  reply: FastifyReply,
  resolved: ResolvedSession,
  force2fa: boolean,
  counters: UserCounters,
  statNames: readonly string[],
): FastifyReply | Promise<FastifyReply> {
  switch (resolved.status) {
    case 'ok': {
      const stats = counters.sessionCounters(resolved.row!.user_id, statNames);
      if (stats instanceof Promise) return stats.then((s) => reply.send(success(resolved, force2fa, s, request.log)));
      return reply.send(success(resolved, force2fa, stats, request.log));
    }
    case 'none':
      return reply.code(401).send(failure('INVALID_SESSION'));
    case 'invalid':
      // the browser holds a dead token: drop both cookies
      clearLoginCookies(request, reply);
      return reply.code(401).send(failure('INVALID_SESSION'));
    case 'two_fa_pending':
      return reply.code(401).send(failure('TW0_FA_BLOCKED'));
    case 'banned':
      return reply.code(403).send(failure('USER_BANNED'));
  }
}

/** `statNames`: the counters the session reports under `stats`, besides the account's minutes_afk. */
export function sessionRoutes(app: FastifyInstance, sessions: SessionService, settings: SettingsStore, counters: UserCounters, statNames: () => readonly string[]): void {
  app.get(
    '/api/user/session',
    {
      // the kernel polls this every 60 s (spec §9) from every tab; it is the cheapest answer we
      // have, so it stays out of the app-wide per-IP request limit
      config: { appRateLimit: false },
      schema: { response: { 200: sessionResponse, 401: sessionResponse, 403: sessionResponse } },
    },
    (request, reply) => {
      reply.header('cache-control', 'no-store');
      const resolved = sessions.resolveToken(readCookie(request.headers.cookie, TOKEN_COOKIE), request);
      // the in-process settings copy answers without waiting almost always
      const force2fa = settings.peek('force_2fa');
      if (resolved instanceof Promise || force2fa === undefined) {
        return Promise.all([resolved, force2fa ?? settings.get('force_2fa')]).then(([r, force]) => answer(request, reply, r, force === true, counters, statNames()));
      }
      return answer(request, reply, resolved, force2fa === true, counters, statNames());
    },
  );
}
