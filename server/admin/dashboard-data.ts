// What the admin dashboard's components show (server/admin/dashboard.ts serves them), read from the
// database on each request: nothing is cached or estimated, so every figure is the real one.
import { sql, type Kysely, type SqlBool } from 'kysely';
import { likeLiteral, type AuditDetails, type CoreDatabase } from '../../sdk/server';
import { parseDetails } from '../audit/audit-log';

export interface UserRef {
  uuid: string;
  username: string;
}

export interface DashboardAuditEntry {
  id: number;
  action: string;
  actor: UserRef | null;
  target: UserRef | null;
  details: AuditDetails;
  ip: string | null;
  created_at: string;
}

/**
 * Audit actions that are warnings: a failure, a refusal, a banned account knocking, an account
 * flagged for review. The naming rule of the audit log (auth.login_failed, auth.login_banned,
 * auth.2fa_disable_refused, …) — a new event that follows it shows up without a change here.
 */
export const WARNING_ACTION_SUFFIXES = ['_failed', '_banned', '_refused', '_flagged'] as const;

/** `action like '%!_failed' escape '!'`, or'd for every suffix: '_' must match itself, not any character. */
function isWarning() {
  return sql<SqlBool>`(${sql.join(
    WARNING_ACTION_SUFFIXES.map((suffix) => sql`${sql.ref('action')} like ${`%${likeLiteral(suffix)}`} escape '!'`),
    sql` or `,
  )})`;
}

async function userRefs(db: Kysely<CoreDatabase>, ids: readonly (number | null)[]): Promise<Map<number, UserRef>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'uuid', 'username']).where('id', 'in', wanted).execute();
  return new Map(rows.map((r) => [r.id, { uuid: r.uuid, username: r.username }]));
}

/** The newest audit entries of every account, newest first; `warningsOnly` keeps the warnings. */
export async function latestAuditEntries(db: Kysely<CoreDatabase>, limit: number, warningsOnly: boolean): Promise<DashboardAuditEntry[]> {
  let query = db.selectFrom('audit_log').select(['id', 'action', 'actor_user_id', 'target_user_id', 'details', 'ip', 'created_at']);
  if (warningsOnly) query = query.where(isWarning());
  const rows = await query.orderBy('id', 'desc').limit(limit).execute();
  const refs = await userRefs(
    db,
    rows.flatMap((r) => [r.actor_user_id, r.target_user_id]),
  );
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

/** How many warnings of each action were recorded since `since`, most frequent first. */
export async function warningCounts(db: Kysely<CoreDatabase>, since: Date): Promise<{ action: string; count: number }[]> {
  const rows = await db
    .selectFrom('audit_log')
    .select((eb) => ['action', eb.fn.countAll<number>().as('n')])
    .where(isWarning())
    .where('created_at', '>=', since.toISOString())
    .groupBy('action')
    .execute();
  return rows.map((r) => ({ action: r.action, count: Number(r.n) })).sort((a, b) => b.count - a.count || a.action.localeCompare(b.action));
}

export interface DailyPoint {
  /** YYYY-MM-DD (UTC) */
  date: string;
  signups: number;
  logins: number;
}

export interface Analytics {
  days: number;
  series: DailyPoint[];
  totals: { signups: number; logins: number; active_users: number; accounts: number };
}

const DAY_MS = 86_400_000;
/** the UTC day of an ISO timestamp; the columns hold ISO-8601 text on every dialect */
const day = sql<string>`substr(created_at, 1, 10)`;

/** Sign-ups (accounts created) and logins (auth.login audit entries) per UTC day, the last `days` days with today. */
export async function analytics(db: Kysely<CoreDatabase>, days: number, now = new Date()): Promise<Analytics> {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const dates = Array.from({ length: days }, (_, i) => new Date(today - (days - 1 - i) * DAY_MS).toISOString().slice(0, 10));
  const from = `${dates[0]}T00:00:00.000Z`;

  const [signups, logins, active, accounts] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', from)
      .groupBy(day)
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('n')])
      .where('action', '=', 'auth.login')
      .where('created_at', '>=', from)
      .groupBy(day)
      .execute(),
    db
      .selectFrom('audit_log')
      .select((eb) => eb.fn.count<number>('actor_user_id').distinct().as('n'))
      .where('action', '=', 'auth.login')
      .where('created_at', '>=', from)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const byDay = (rows: { day: string; n: number }[]) => new Map(rows.map((r) => [r.day, Number(r.n)]));
  const signupsByDay = byDay(signups);
  const loginsByDay = byDay(logins);
  const series = dates.map((date) => ({ date, signups: signupsByDay.get(date) ?? 0, logins: loginsByDay.get(date) ?? 0 }));
  return {
    days,
    series,
    totals: {
      signups: series.reduce((sum, p) => sum + p.signups, 0),
      logins: series.reduce((sum, p) => sum + p.logins, 0),
      active_users: Number(active.n),
      accounts: Number(accounts.n),
    },
  };
}

export interface AccountCounts {
  total: number;
  banned: number;
  unverified: number;
  two_fa: number;
  /** sessions neither revoked nor expired */
  active_sessions: number;
}

export async function accountCounts(db: Kysely<CoreDatabase>, now = new Date()): Promise<AccountCounts> {
  const [users, sessions] = await Promise.all([
    db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number>().as('total'),
        eb.fn.sum<number>(sql`case when banned = 1 then 1 else 0 end`).as('banned'),
        eb.fn.sum<number>(sql`case when verified = 1 then 0 else 1 end`).as('unverified'),
        eb.fn.sum<number>(sql`case when two_fa_enabled = 1 then 1 else 0 end`).as('two_fa'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now.toISOString())
      .executeTakeFirstOrThrow(),
  ]);
  // SUM over no rows is NULL, and MySQL answers SUM as a decimal string
  return {
    total: Number(users.total),
    banned: Number(users.banned ?? 0),
    unverified: Number(users.unverified ?? 0),
    two_fa: Number(users.two_fa ?? 0),
    active_sessions: Number(sessions.n),
  };
}

/** The accounts holding a support PIN (6 digits; not unique, so possibly several). */
export async function accountsBySupportPin(db: Kysely<CoreDatabase>, pin: string) {
  return db
    .selectFrom('users')
    .select(['uuid', 'username', 'first_name', 'last_name', 'email', 'role_id', 'banned', 'created_at'])
    .where('support_pin', '=', pin)
    .orderBy('id')
    .limit(10)
    .execute();
}
