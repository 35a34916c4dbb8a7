// Route options `config: { auth: true }` and `config: { permission: 'x.y' }` (sdk/server.ts): a
// root onRoute hook gives each such route an onRequest check, so handlers never check themselves
// and routes without the options pay nothing.
import type { onRequestHookHandler, RouteOptions } from 'fastify';
import { hasPermission } from '../../sdk/manifest';
import { errorBody, sendError } from '../http/errors';
import type { SessionService } from './sessions';

export const SESSION_MESSAGES = {
  INVALID_SESSION: 'Your session has expired or is invalid.',
  TW0_FA_BLOCKED: 'Two-factor authentication is required to continue.',
  USER_BANNED: 'This account has been banned.',
} as const;

function guard(sessions: SessionService, permission: string | null): onRequestHookHandler {
  return async (request, reply) => {
    const resolved = await sessions.resolve(request);
    switch (resolved.status) {
      case 'none':
      case 'invalid':
        return sendError(reply, 401, errorBody('INVALID_SESSION', SESSION_MESSAGES.INVALID_SESSION));
      case 'two_fa_pending':
        return sendError(reply, 401, errorBody('TW0_FA_BLOCKED', SESSION_MESSAGES.TW0_FA_BLOCKED));
      case 'banned':
        return sendError(reply, 403, errorBody('USER_BANNED', SESSION_MESSAGES.USER_BANNED));
      case 'ok':
        // spec §6: the holder of admin.root passes every check
        if (permission && !hasPermission(resolved.role?.permissions ?? [], permission)) {
          return sendError(reply, 403, errorBody('PERMISSION_DENIED', 'You do not have permission to access this resource.'));
        }
    }
  };
}

/** The session/permission check a route's options ask for, or null when it asks for none. */
export function routeGuardFor(sessions: SessionService, route: RouteOptions): onRequestHookHandler | null {
  const permission = route.config?.permission ?? null;
  return route.config?.auth || permission ? guard(sessions, permission) : null;
}
