// Login sessions: a random 32-byte token (base64url) in the op_session cookie, stored only as its
// SHA-256; a row per login (rotated at every login), revocable, expiring after SESSION_TTL_DAYS.
// resolve() is the hot path of GET /api/user/session: one compiled query (a prepared statement on
// SQLite), no per-request allocation beyond the answer.
import { createHash, randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type { FastifyRequest } from 'fastify';
import { CompiledQuery } from 'kysely';
import type { Kysely } from 'kysely';
import type { CoreDatabase, UserSession } from '../../sdk/server';
import type { Database } from '../db/connect';
import { readCookie, TOKEN_COOKIE } from './cookies';
import type { RoleDirectory, RoleInfo } from './roles';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
/** last_seen_at is written at most once a minute per session */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The columns the session endpoint needs, in one row. */
export interface SessionRow {
  session_id: number;
  user_id: number;
  expires_at: string;
  revoked_at: string | null;
  last_seen_at: string;
  two_fa_pending: number;
  two_fa_verified_at: string | null;
  /** the browser that signed in (its User-Agent), as stored */
  user_agent: string | null;
  uuid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  avatar: string | null;
  background: string | null;
  role_id: number;
  verified: number;
  two_fa_enabled: number;
  banned: number;
  created_at: string;
  coins: number;
  ram: number;
  disk: number;
  cpu: number;
  ports: number;
  databases: number;
  backups: number;
  server_slots: number;
  minutes_afk: number;
}

export type SessionStatus = 'none' | 'invalid' | 'two_fa_pending' | 'banned' | 'ok';

export interface ResolvedSession {
  status: SessionStatus;
  row: SessionRow | null;
  role: RoleInfo | null;
}

const NO_SESSION: ResolvedSession = Object.freeze({ status: 'none', row: null, role: null });
const INVALID_SESSION: ResolvedSession = Object.freeze({ status: 'invalid', row: null, role: null });

/**
 * The browser a User-Agent names, without its version numbers: a browser that updates itself keeps its
 * sessions; another browser, system or device does not pass for it.
 */
export function browserOf(userAgent: string | null | undefined): string {
  return (userAgent ?? '')
    .slice(0, 512)
    .replace(/[0-9._]+/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * spec §3 zero_trust_enabled: while it is on, a session is trusted only from the browser that signed
 * in — its token presented by another browser is taken for stolen: the session is revoked (the owner
 * signs in again) and the event reported. The reference's zero trust (MythicalDash's paid "Mythical
 * Zero") scans servers and blocks Tor through its own cloud; this is the part that fits a panel that
 * calls no one else's service.
 */
export interface ZeroTrustPolicy {
  enabled(): boolean;
  /** a session's token came from another browser; it is revoked already */
  onForeignBrowser(row: SessionRow, request: FastifyRequest): void;
}

export interface NewSession {
  token: string;
  publicId: string;
  sessionId: number;
  expiresAt: string;
}

export class SessionService {
  private readonly lookupSql: string;
  private readonly sqliteLookup: BetterSqlite3.Statement<[string], SessionRow> | null;
  private readonly sqliteTouch: BetterSqlite3.Statement<[string, number]> | null;
  /** one lookup per request, however many hooks and handlers ask */
  private readonly perRequest = new WeakMap<FastifyRequest, Promise<ResolvedSession> | ResolvedSession>();
  private readonly db: Kysely<CoreDatabase>;
  private zeroTrust: ZeroTrustPolicy | null = null;

  constructor(
    database: Database,
    private readonly roles: RoleDirectory,
    readonly ttlDays: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.db = database.db;
    const compiled = this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id as session_id',
        'sessions.user_id',
        'sessions.expires_at',
        'sessions.revoked_at',
        'sessions.last_seen_at',
        'sessions.two_fa_pending',
        'sessions.two_fa_verified_at',
        'sessions.user_agent',
        'users.uuid',
        'users.username',
        'users.email',
        'users.first_name',
        'users.last_name',
        'users.avatar',
        'users.background',
        'users.role_id',
        'users.verified',
        'users.two_fa_enabled',
        'users.banned',
        'users.created_at',
        'users.coins',
        'users.ram',
        'users.disk',
        'users.cpu',
        'users.ports',
        'users.databases',
        'users.backups',
        'users.server_slots',
        'users.minutes_afk',
      ])
      .where('sessions.token_hash', '=', '')
      .compile();
    this.lookupSql = compiled.sql;
    if (database.sqlite) {
      // Prepared once. better-sqlite3 is synchronous, so this read cannot interleave inside another
      // statement; it may see a concurrent Kysely transaction's uncommitted rows, which is harmless
      // for a read of one session.
      this.sqliteLookup = database.sqlite.prepare<[string], SessionRow>(compiled.sql);
      this.sqliteTouch = database.sqlite.prepare<[string, number]>('update sessions set last_seen_at = ? where id = ?');
    } else {
      this.sqliteLookup = null;
      this.sqliteTouch = null;
    }
  }

  /** Switches the zero-trust check on (app.ts, from the zero_trust_enabled setting). */
  enforceZeroTrust(policy: ZeroTrustPolicy): void {
    this.zeroTrust = policy;
  }

  /** Revokes a session whose token came from another browser (zero trust); false when it passes. */
  private foreignBrowser(row: SessionRow, request: FastifyRequest | undefined): boolean {
    if (!request || !this.zeroTrust?.enabled() || row.user_agent === null) return false;
    if (browserOf(row.user_agent) === browserOf(request.headers['user-agent'])) return false;
    const now = new Date().toISOString();
    this.db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', row.session_id).where('revoked_at', 'is', null).execute().catch(this.onError);
    // the answer says "invalid" at once; the row follows a moment later
    row.revoked_at = now;
    this.zeroTrust.onForeignBrowser(row, request);
    return true;
  }

  get ttlSeconds(): number {
    return this.ttlDays * 86_400;
  }

  private touch(row: SessionRow, now: number): void {
    if (now - Date.parse(row.last_seen_at) < TOUCH_INTERVAL_MS) return;
    const iso = new Date(now).toISOString();
    if (this.sqliteTouch) {
      try {
        this.sqliteTouch.run(iso, row.session_id);
      } catch (error) {
        this.onError(error);
      }
      return;
    }
    this.db.updateTable('sessions').set({ last_seen_at: iso }).where('id', '=', row.session_id).execute().catch(this.onError);
  }

  /** Judges a looked-up row: revoked, expired, from another browser (zero trust), waiting for 2FA, banned or fine. */
  private judge(row: SessionRow | undefined, request?: FastifyRequest): ResolvedSession {
    if (!row) return INVALID_SESSION;
    const now = Date.now();
    if (row.revoked_at !== null || Date.parse(row.expires_at) <= now) return INVALID_SESSION;
    if (this.foreignBrowser(row, request)) return INVALID_SESSION;
    this.touch(row, now);
    const role = this.roles.get(row.role_id);
    // spec §4: a session waiting for its TOTP check answers TW0_FA_BLOCKED to everything
    if (row.two_fa_pending) return { status: 'two_fa_pending', row, role };
    if (row.banned) return { status: 'banned', row, role };
    return { status: 'ok', row, role };
  }

  /**
   * The session a raw op_session token names, with its status. Synchronous on SQLite (a prepared
   * statement), a promise on the pooled dialects. `request`: the request that presented it (its
   * browser is checked while zero trust is on).
   */
  resolveToken(token: string | null, request?: FastifyRequest): ResolvedSession | Promise<ResolvedSession> {
    if (!token) return NO_SESSION;
    if (!TOKEN_SHAPE.test(token)) return INVALID_SESSION;
    const tokenHash = hashToken(token);
    if (this.sqliteLookup) return this.judge(this.sqliteLookup.get(tokenHash), request);
    return this.db.executeQuery<SessionRow>(CompiledQuery.raw(this.lookupSql, [tokenHash])).then((result) => this.judge(result.rows[0], request));
  }

  /** The request's session (looked up once per request). */
  resolve(request: FastifyRequest): Promise<ResolvedSession> | ResolvedSession {
    const known = this.perRequest.get(request);
    if (known) return known;
    const resolved = this.resolveToken(readCookie(request.headers.cookie, TOKEN_COOKIE), request);
    this.perRequest.set(request, resolved);
    return resolved;
  }

  async create(input: { userId: number; ip: string | null; userAgent: string | null; twoFaPending: boolean; twoFaVerifiedAt?: string | null }): Promise<NewSession> {
    const token = randomBytes(32).toString('base64url');
    const publicId = randomBytes(16).toString('base64url');
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.ttlSeconds * 1000).toISOString();
    await this.db
      .insertInto('sessions')
      .values({
        public_id: publicId,
        user_id: input.userId,
        token_hash: hashToken(token),
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: expiresAt,
        revoked_at: null,
        ip: input.ip ? input.ip.slice(0, 45) : null,
        user_agent: input.userAgent ? input.userAgent.slice(0, 512) : null,
        two_fa_pending: input.twoFaPending ? 1 : 0,
        two_fa_verified_at: input.twoFaVerifiedAt ?? null,
      })
      .execute();
    const created = await this.db.selectFrom('sessions').select('id').where('public_id', '=', publicId).executeTakeFirstOrThrow();
    return { token, publicId, sessionId: created.id, expiresAt };
  }

  /** Revokes every live session of a user, except `exceptSessionId`; returns how many ended. */
  async revokeAllOf(userId: number, exceptSessionId: number | null = null): Promise<number> {
    let query = this.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
    if (exceptSessionId !== null) query = query.where('id', '!=', exceptSessionId);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /**
   * Whether a session is still signed in: not revoked or expired (by the wall clock, as sessions are
   * stamped), not waiting for its 2FA code, and its user not banned. For long-lived connections (the
   * AFK socket) that check the session they were opened with.
   */
  async isLive(sessionId: number): Promise<boolean> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.revoked_at', 'sessions.expires_at', 'sessions.two_fa_pending', 'users.banned'])
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
    return !!row && row.revoked_at === null && Date.parse(row.expires_at) > Date.now() && !row.two_fa_pending && !row.banned;
  }

  /** A user's sessions that are not revoked (live ones only unless `includeExpired`), newest first; `publicId` narrows to one. */
  async sessionsOf(userId: number, options: { publicId?: string; includeExpired?: boolean } = {}): Promise<UserSession[]> {
    let query = this.db
      .selectFrom('sessions')
      .select(['id', 'public_id', 'created_at', 'last_seen_at', 'ip', 'user_agent'])
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (!options.includeExpired) query = query.where('expires_at', '>', new Date().toISOString());
    if (options.publicId !== undefined) query = query.where('public_id', '=', options.publicId);
    const rows = await query.orderBy('id', 'desc').execute();
    return rows.map((r) => ({ sessionId: r.id, publicId: r.public_id, createdAt: r.created_at, lastSeenAt: r.last_seen_at, ip: r.ip, userAgent: r.user_agent }));
  }

  /** How many sessions a user started from `ip`, ended ones too. */
  async countFromAddress(userId: number, ip: string): Promise<number> {
    const row = await this.db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('ip', '=', ip)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Revokes one live session of a user; false when it is not the user's or was revoked already. */
  async revokeOne(userId: number, sessionId: number): Promise<boolean> {
    const result = await this.db
      .updateTable('sessions')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records that a session just proved a TOTP code. */
  async markTwoFaVerified(sessionId: number, at: Date = new Date()): Promise<void> {
    await this.db.updateTable('sessions').set({ two_fa_verified_at: at.toISOString() }).where('id', '=', sessionId).execute();
  }

  /** Revokes the session a token names; returns its user and id when there was a live one. */
  async revokeToken(token: string | null): Promise<{ userId: number; sessionId: number } | null> {
    if (!token || !TOKEN_SHAPE.test(token)) return null;
    const tokenHash = hashToken(token);
    const row = await this.db.selectFrom('sessions').select(['id', 'user_id']).where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).executeTakeFirst();
    if (!row) return null;
    await this.db.updateTable('sessions').set({ revoked_at: new Date().toISOString() }).where('id', '=', row.id).execute();
    return { userId: row.user_id, sessionId: row.id };
  }
}
