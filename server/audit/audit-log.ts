// The audit log: an append-only table of security events (logins, failed logins, logouts,
// registrations, session revocations; later password changes and 2FA) and every administrator
// action. Users read their own (GET /api/user/session/activities), administrators a user's
// (GET /api/admin/users/:uuid/activity), plugins every account's (ctx.audit: an operator's dashboard).
import type { FastifyRequest } from 'fastify';
import { sql, type Kysely, type SqlBool } from 'kysely';
import {
  likeLiteral,
  WARNING_ACTION_SUFFIXES,
  type AuditAccountRef,
  type AuditDetails,
  type AuditEntry,
  type CoreDatabase,
  type PluginAudit,
  type RecordedAuditEntry,
} from '../../sdk/server';
import type { SessionService } from '../auth/sessions';

export interface AuditRow {
  id: number;
  action: string;
  actor_user_id: number | null;
  target_user_id: number | null;
  details: AuditDetails;
  ip: string | null;
  created_at: string;
}

export interface AuditPage {
  rows: AuditRow[];
  total: number;
}

/** Details are kept small: long strings are cut, so a row never grows without bound. */
const MAX_DETAIL_TEXT = 256;
const MAX_DETAILS_JSON = 4096;

function clampDetails(details: AuditDetails | undefined): string {
  const out: AuditDetails = {};
  for (const [key, value] of Object.entries(details ?? {})) {
    out[key.slice(0, 64)] = typeof value === 'string' ? value.slice(0, MAX_DETAIL_TEXT) : value;
  }
  const text = JSON.stringify(out);
  return text.length <= MAX_DETAILS_JSON ? text : JSON.stringify({ truncated: true });
}

/** The stored details text as an object ({} when it is not one). */
export function parseDetails(text: string): AuditDetails {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as AuditDetails) : {};
  } catch {
    return {};
  }
}

/** `action like '%!_failed' escape '!'`, or'd for every suffix: '_' must match itself, not any character. */
function isWarning() {
  return sql<SqlBool>`(${sql.join(
    WARNING_ACTION_SUFFIXES.map((suffix) => sql`${sql.ref('action')} like ${`%${likeLiteral(suffix)}`} escape '!'`),
    sql` or `,
  )})`;
}

/** the UTC day of an ISO timestamp; the column holds ISO-8601 text on every dialect */
const day = sql<string>`substr(created_at, 1, 10)`;

export class AuditLog implements PluginAudit {
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly sessions: SessionService,
  ) {}

  async record(request: FastifyRequest | null, entry: AuditEntry): Promise<void> {
    let actor = entry.actorUserId;
    if (actor === undefined) {
      const resolved = request ? await this.sessions.resolve(request) : null;
      actor = resolved?.status === 'ok' ? resolved.row!.user_id : null;
    }
    await this.db
      .insertInto('audit_log')
      .values({
        actor_user_id: actor,
        target_user_id: entry.targetUserId ?? null,
        action: entry.action.slice(0, 64),
        details: clampDetails(entry.details),
        ip: request?.ip ? request.ip.slice(0, 45) : null,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  /**
   * One page of the entries that concern `userId`: what was done to the account and what the
   * account did. Newest first.
   */
  async forUser(userId: number, page: number, perPage: number): Promise<AuditPage> {
    const concerns = this.db.selectFrom('audit_log').where((eb) => eb.or([eb('target_user_id', '=', userId), eb('actor_user_id', '=', userId)]));
    const [rows, count] = await Promise.all([
      concerns
        .select(['id', 'action', 'actor_user_id', 'target_user_id', 'details', 'ip', 'created_at'])
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset((page - 1) * perPage)
        .execute(),
      concerns.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map((r) => ({ ...r, details: parseDetails(r.details) })), total: Number(count.n) };
  }

  private async accountRefs(ids: readonly (number | null)[]): Promise<Map<number, AuditAccountRef>> {
    const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'uuid', 'username']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [r.id, { uuid: r.uuid, username: r.username }]));
  }

  async latest(limit: number, options: { warningsOnly?: boolean } = {}): Promise<RecordedAuditEntry[]> {
    let query = this.db.selectFrom('audit_log').select(['id', 'action', 'actor_user_id', 'target_user_id', 'details', 'ip', 'created_at']);
    if (options.warningsOnly) query = query.where(isWarning());
    const rows = await query.orderBy('id', 'desc').limit(limit).execute();
    const refs = await this.accountRefs(rows.flatMap((r) => [r.actor_user_id, r.target_user_id]));
    return rows.map((r) => ({
      id: r.id,
      action: r.action,
      // an account deleted since is named by no one rather than by a stale id
      actor: r.actor_user_id === null ? null : (refs.get(r.actor_user_id) ?? null),
      target: r.target_user_id === null ? null : (refs.get(r.target_user_id) ?? null),
      details: parseDetails(r.details),
      ip: r.ip,
      created_at: r.created_at,
    }));
  }

  async warningCounts(since: Date): Promise<{ action: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select((eb) => ['action', eb.fn.countAll<number>().as('n')])
      .where(isWarning())
      .where('created_at', '>=', since.toISOString())
      .groupBy('action')
      .execute();
    return rows.map((r) => ({ action: r.action, count: Number(r.n) })).sort((a, b) => b.count - a.count || a.action.localeCompare(b.action));
  }

  async countPerDay(action: string, since: Date): Promise<{ day: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('audit_log')
      .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('n')])
      .where('action', '=', action)
      .where('created_at', '>=', since.toISOString())
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }

  async distinctActors(action: string, since: Date): Promise<number> {
    const row = await this.db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.count<number>('actor_user_id').distinct().as('n'))
      .where('action', '=', action)
      .where('created_at', '>=', since.toISOString())
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
