// spec §4 / reference behaviour: after a login with 2FA on, the session is "2FA blocked" — every API
// call answers 401 TW0_FA_BLOCKED until a code is verified. The route guard does this for routes
// with `auth`/`permission`; this gate does it for every other /api route (core and plugin alike)
// that carries a session cookie. Exempt: routes that opt in with `allowTwoFaPending` (2FA verify,
// logout), GET /api/user/session (it answers TW0_FA_BLOCKED in its own shape), and /api/system/*
// — the public boot data every anonymous visitor gets, which the browser needs to load the plugins
// that render /auth/2fa/verify; it holds nothing about the user.
import type { onRequestHookHandler, RouteOptions } from 'fastify';
import { errorBody, sendError } from '../http/errors';
import { readCookie, TOKEN_COOKIE } from './cookies';
import { SESSION_MESSAGES } from './route-guard';
import type { SessionService } from './sessions';

function exempt(route: RouteOptions): boolean {
  if (route.config?.allowTwoFaPending === true) return true;
  // the route guard answers for these (with the same code)
  if (route.config?.auth === true || route.config?.permission) return true;
  return route.url === '/api/user/session' || route.url.startsWith('/api/system/');
}

export function twoFaGateFor(sessions: SessionService, route: RouteOptions): onRequestHookHandler | null {
  const api = route.url === '/api' || route.url.startsWith('/api/');
  if (!api || exempt(route)) return null;
  return async (request, reply) => {
    // no cookie, nothing to look up: anonymous calls pay nothing
    if (!readCookie(request.headers.cookie, TOKEN_COOKIE)) return;
    const resolved = await sessions.resolve(request);
    if (resolved.status === 'two_fa_pending') return sendError(reply, 401, errorBody('TW0_FA_BLOCKED', SESSION_MESSAGES.TW0_FA_BLOCKED));
  };
}
