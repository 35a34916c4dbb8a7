// ctx.audit: security events and administrator actions.
import type { FastifyRequest } from 'fastify';

export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEntry {
  /** dot-separated, e.g. auth.login_failed */
  action: string;
  /** default: the request's signed-in user, if any */
  actorUserId?: number | null;
  targetUserId?: number | null;
  details?: AuditDetails;
}

/** An account an audit entry names, as it is now. */
export interface AuditAccountRef {
  uuid: string;
  username: string;
}

/** A recorded entry, its accounts resolved (null: none, or the account was deleted since). */
export interface RecordedAuditEntry {
  id: number;
  action: string;
  actor: AuditAccountRef | null;
  target: AuditAccountRef | null;
  details: AuditDetails;
  ip: string | null;
  created_at: string;
}

/**
 * Audit actions that are warnings — a failure, a refusal, a banned account knocking, an account
 * flagged for review: the naming rule of the audit log (auth.login_failed, auth.login_banned,
 * auth.2fa_disable_refused, …), so a new event that follows it counts without a change anywhere.
 */
export const WARNING_ACTION_SUFFIXES = ['_failed', '_banned', '_refused', '_flagged'] as const;

/** The audit log: security events and administrator actions, shown in /account and to admins. */
export interface PluginAudit {
  /** Appends an entry; the client IP comes from the request (trusted proxies only). */
  record(request: FastifyRequest | null, entry: AuditEntry): Promise<void>;
  /** The newest entries of every account, newest first; `warningsOnly` keeps the warnings (WARNING_ACTION_SUFFIXES). */
  latest(limit: number, options?: { warningsOnly?: boolean }): Promise<RecordedAuditEntry[]>;
  /** How many warnings of each action were recorded since `since`, most frequent first. */
  warningCounts(since: Date): Promise<{ action: string; count: number }[]>;
  /** How many entries of `action` were recorded on each UTC day (YYYY-MM-DD) since `since`; days without any are left out. */
  countPerDay(action: string, since: Date): Promise<{ day: string; count: number }[]>;
  /** How many different accounts recorded `action` since `since`. */
  distinctActors(action: string, since: Date): Promise<number>;
}
