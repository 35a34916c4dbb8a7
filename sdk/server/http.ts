// Route options and request helpers: how a plugin's route says who may call it (checked by the host
// before the handler runs) and what it answers.
import type { FastifyRequest } from 'fastify';
// routes declared with `{ websocket: true }` (GET only; the handler receives a PluginWebSocket)
import type {} from '@fastify/websocket';
import type { UploadRouteOption } from './files';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid, fully signed-in session (401 INVALID_SESSION / TW0_FA_BLOCKED). */
    auth?: boolean;
    /** The route needs this permission (implies auth; spec §6: admin.root passes every check). */
    permission?: string;
    /**
     * A named rate-limit policy checked after the body is validated (per client IP and, where the
     * policy says so, per account): 429 RATE_LIMITED with Retry-After when exceeded.
     */
    rateLimit?: RateLimitPolicyName;
    /** false exempts the route from the app-wide per-IP request limit (the session poll). */
    appRateLimit?: boolean;
    /**
     * true lets a session that still waits for its 2FA code reach the route (the 2FA verify and
     * logout routes). Every other /api route answers such a session 401 TW0_FA_BLOCKED (spec §4).
     */
    allowTwoFaPending?: boolean;
    /**
     * A boolean application setting (a spec §3 feature flag, e.g. code_redemption_enabled) that must
     * be on: otherwise 403 FEATURE_DISABLED before anything else of the route runs. Declare the same
     * `flag` on the plugin's client routes and nav items so the browser hides them too.
     */
    flag?: string;
    /**
     * The route takes a multipart/form-data upload, read with `ctx.files.fromRequest(request)` under
     * these limits (fixed, or read per request by a function). With a body schema the route takes
     * JSON or the form (its text fields checked by that schema); without one, only the form. Every
     * route without it answers 415 to a multipart body. See UploadRouteConfig.
     */
    upload?: UploadRouteOption;
  }
}

/**
 * A rate-limit policy's name: one the core defines (auth.login, auth.register, auth.forgot, auth.2fa,
 * auth.verify, auth.password, people.lookup) or one a plugin declares in `rateLimitPolicies`. A route
 * naming a policy nobody declared fails to register.
 */
export type RateLimitPolicyName = string;

/** A named rate limit (route option `config: { rateLimit }`): its limits are settings an administrator tunes. */
export interface RateLimitPolicy {
  /** each scope counts every attempt: per client IP, or per account (needs `account`); `setting` holds its limit per window */
  readonly scopes: readonly { readonly by: 'ip' | 'account'; readonly setting: string }[];
  /** the account a request is about: a body field (a login name, resolved to its account) or the session's user */
  readonly account?: { readonly bodyField: string } | { readonly session: true };
  /** the budget of a browser that has signed in to the account before: counted instead of `scopes` */
  readonly knownDevice?: { readonly setting: string };
}

/** The socket a `{ websocket: true }` route's handler receives (the ws library's WebSocket). */
export type PluginWebSocket = import('ws').WebSocket;

/**
 * True for an API caller (the sdk's http client sends Accept: application/json), false for a browser
 * that followed a link or a redirect (an e-mail link, a provider sending the user back): a route
 * both reach answers the first with JSON and sends the second to a page.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}
