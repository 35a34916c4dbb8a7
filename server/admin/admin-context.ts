// What the admin API's modules share: the services they use, who is asking, and the rule that an
// administrator cannot hand out, take away or act on permissions they do not hold themselves
// (otherwise admin.roles.edit or admin.users.edit would be a way to become admin.root).
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { hasPermission } from '../../sdk/manifest';
import { httpError, type PluginWallet } from '../../sdk/server';
import { ROOT_PERMISSION } from '../../sdk/types';
import type { RoleDirectory } from '../auth/roles';
import type { SessionService } from '../auth/sessions';
import type { AuditLog } from '../audit/audit-log';
import type { Database } from '../db/connect';
import type { EventBus } from '../events';
import type { PluginHost } from '../plugins/host';
import type { SettingsStore } from '../settings/store';

export interface AdminServices {
  database: Database;
  sessions: SessionService;
  roles: RoleDirectory;
  settings: SettingsStore;
  plugins: PluginHost;
  audit: AuditLog;
  wallet: PluginWallet;
  /** user.deleting, before an administrator deletes an account */
  events: EventBus;
  log: FastifyBaseLogger;
}

export interface Actor {
  userId: number;
  roleId: number;
  permissions: readonly string[];
}

/** The signed-in administrator behind a request that passed its permission guard. */
export async function actorOf(sessions: SessionService, request: FastifyRequest): Promise<Actor> {
  const resolved = await sessions.resolve(request);
  if (resolved.status !== 'ok' || !resolved.row || !resolved.role) {
    // unreachable behind the route guard; kept so a mis-declared route fails closed
    throw httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');
  }
  return { userId: resolved.row.user_id, roleId: resolved.row.role_id, permissions: resolved.role.permissions };
}

/** True when `actor` holds every one of `permissions` (admin.root holds all). */
export function holdsAll(actor: Actor, permissions: readonly string[]): boolean {
  if (actor.permissions.includes(ROOT_PERMISSION)) return true;
  return permissions.every((p) => p !== ROOT_PERMISSION && hasPermission(actor.permissions, p));
}

export function escalationError(message: string) {
  return httpError(403, 'PERMISSION_ESCALATION', message);
}

/** An administrator may only act on an account whose role's permissions they hold themselves. */
export function mayActOnRole(roles: RoleDirectory, actor: Actor, targetRoleId: number): void {
  if (!holdsAll(actor, roles.get(targetRoleId).permissions)) {
    throw escalationError('You cannot change an account that holds permissions you do not have.');
  }
}
