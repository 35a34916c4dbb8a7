// The audit log: an append-only table of security events (logins, failed logins, logouts,
// registrations, session revocations; later password changes and 2FA) and every administrator
// action. Users read their own (GET /api/user/session/activities), administrators a user's
// (GET /api/admin/users/:uuid/activity).
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuditDetails, AuditEntry, CoreDatabase, PluginAudit } from '../../sdk/server';
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
}
