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

/** The audit log: security events and administrator actions, shown in /account and to admins. */
export interface PluginAudit {
  /** Appends an entry; the client IP comes from the request (trusted proxies only). */
  record(request: FastifyRequest | null, entry: AuditEntry): Promise<void>;
}
