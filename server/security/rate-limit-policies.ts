// Where the limits apply. The app-wide limit counts every /api request per client IP (reference:
// 100 a minute); the named policies (route option `config: { rateLimit }`) guard routes per client
// IP and per account, checked after the body is validated so the account name is known. A policy is
// declared by the plugin whose routes name it (the auth plugin's auth.login, auth.register,
// auth.forgot, auth.2fa and auth.verify; the account plugin's auth.password; earn-redeem's
// earn.redeem), its limits being that plugin's settings; the core keeps the mechanism, the app-wide
// limit, the window every policy counts in, and people.lookup, which two plugins share (the /lookup
// search of profiles and the admin dashboard's user search). Every number is a setting an
// administrator can tune. The client IP is request.ip: Fastify takes X-Forwarded-For into account
// only behind a proxy TRUST_PROXY names.
//
// Lockout without locking out the owner: a login from a browser that has signed in to the account
// before (its op_device cookie is one of the account's known devices) is counted on that browser's
// own budget only. Strangers (no cookie, or one the account never saw) share the per-account and
// per-IP budgets, so burning those from anywhere slows every stranger but never the owner's browser,
// and the owner's own typos never use up the strangers' budget.
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, RouteOptions } from 'fastify';
import type { RateLimitPolicy } from '../../sdk/server';
import type { ManifestSetting } from '../../sdk/types';
import type { SessionService } from '../auth/sessions';
import type { SettingsStore } from '../settings/store';
import { hashDevice, readDeviceCookie } from './alt-detection';
import type { KnownDevices } from './known-devices';
import type { RateLimitDecision, RateLimiter } from './rate-limiter';

const limit = (key: string, def: number, label: string, max = 1_000_000): ManifestSetting => ({
  key,
  type: 'number',
  default: def,
  public: false,
  secret: false,
  label,
  min: 1,
  max,
});

export const RATE_LIMIT_SETTINGS: readonly ManifestSetting[] = [
  { key: 'rate_limit_enabled', type: 'boolean', default: true, public: false, secret: false, label: 'Limit API requests per IP address' },
  limit('rate_limit_per_minute', 100, 'API requests per minute per IP address'),
  limit('rate_limit_auth_window_seconds', 900, 'Window of the sign-in, redeem-code and user-lookup limits (seconds)', 7 * 86_400),
  limit('rate_limit_lookup_per_ip', 120, 'User lookups (/lookup) per IP address per window'),
  limit('rate_limit_lookup_per_account', 60, 'User lookups (/lookup) per account per window'),
];

type Policy = RateLimitPolicy;

/** The core's own policies: those more than one plugin names. */
const CORE_POLICIES: Readonly<Record<string, Policy>> = {
  // finding other users (profiles' /lookup search, the admin dashboard's user search): nobody walks
  // the whole user list through it
  'people.lookup': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_lookup_per_ip' },
      { by: 'account', setting: 'rate_limit_lookup_per_account' },
    ],
    account: { session: true },
  },
};

/**
 * Every declared policy by name: the core's, then each plugin's (ServerPluginDefinition
 * `rateLimitPolicies`), declared by the plugin host before the plugin's routes register, so a route
 * naming a policy nobody declared still fails to register.
 */
export class RateLimitPolicies {
  private readonly byName = new Map<string, { owner: string; policy: Policy }>();

  constructor() {
    this.declare('core', CORE_POLICIES);
  }

  /**
   * Why `owner` cannot declare `policies`, or null. `numberSettings`: the keys of the owner's own
   * number settings — a policy's limits are settings of the plugin that declares it.
   */
  problem(owner: string, policies: Readonly<Record<string, Policy>>, numberSettings: ReadonlySet<string>): string | null {
    for (const [name, policy] of Object.entries(policies)) {
      const holder = this.byName.get(name);
      if (holder && holder.owner !== owner) return `its rate-limit policy "${name}" is already declared by ${holder.owner === 'core' ? 'the core' : `plugin "${holder.owner}"`}`;
      if (!Array.isArray(policy?.scopes) || policy.scopes.length === 0) return `its rate-limit policy "${name}" has no scopes`;
      const keys = [...policy.scopes.map((s) => s.setting), ...(policy.knownDevice ? [policy.knownDevice.setting] : [])];
      const missing = keys.find((key) => !numberSettings.has(key));
      if (missing !== undefined) return `its rate-limit policy "${name}" names "${missing}", which is not a number setting of its plugin.json`;
      if (policy.scopes.some((s) => s.by === 'account') && !policy.account) return `its rate-limit policy "${name}" counts per account but names no account`;
    }
    return null;
  }

  /** Declares (or, for the same owner, declares again) `owner`'s policies; check problem() first. */
  declare(owner: string, policies: Readonly<Record<string, Policy>>): void {
    for (const [name, policy] of Object.entries(policies)) this.byName.set(name, { owner, policy });
  }

  /** Forgets `owner`'s policies (a removed plugin, or one whose update declares its own again). */
  forget(owner: string): void {
    for (const [name, entry] of this.byName) if (entry.owner === owner) this.byName.delete(name);
  }

  get(name: string): Policy | undefined {
    return this.byName.get(name)?.policy;
  }

  /** The settings holding the declared policies' limits (the test kits relax them all). */
  settingKeys(): string[] {
    return [...this.byName.values()].flatMap(({ policy }) => [...policy.scopes.map((s) => s.setting), ...(policy.knownDevice ? [policy.knownDevice.setting] : [])]);
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many requests. Please wait before trying again.';

function refuse(reply: FastifyReply, decision: RateLimitDecision): FastifyReply {
  return reply
    .code(429)
    .header('retry-after', String(decision.retryAfterSeconds))
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: { code: 'RATE_LIMITED', message: RATE_LIMITED_MESSAGE, retry_after: decision.retryAfterSeconds } }));
}

/** Account names are hashed into the keys, so the store never holds e-mail addresses. */
function accountKey(name: string): string {
  return createHash('sha256').update(name.trim().toLowerCase()).digest('base64url').slice(0, 32);
}

export interface RateLimitHooks {
  /** onRequest: the app-wide per-IP limit, for /api routes that do not opt out */
  appWide(route: RouteOptions): onRequestHookHandler | null;
  /** preHandler: the route's named policy, if it has one */
  policy(route: RouteOptions): preHandlerHookHandler | null;
}

interface Account {
  /** the part of a counter's key naming the account */
  key: string;
  /** the account's id; null for a login name that matches none */
  userId: number | null;
}

/**
 * `resolveAccount` maps a login name (username or e-mail) to its account, so both spellings of one
 * account share a budget; an unknown name counts under its own (hashed) spelling.
 */
export function rateLimitHooks(
  limiter: RateLimiter,
  settings: SettingsStore,
  sessions: SessionService,
  resolveAccount: (login: string) => Promise<number | null>,
  knownDevices: Pick<KnownDevices, 'isKnown'>,
  policies: Pick<RateLimitPolicies, 'get'>,
): RateLimitHooks {
  const appWideCheck: onRequestHookHandler = async (request, reply) => {
    const { rate_limit_enabled: enabled, rate_limit_per_minute: perMinute } = await settings.getMany(['rate_limit_enabled', 'rate_limit_per_minute']);
    if (enabled !== true) return;
    const decision = await limiter.consume(`app:ip:${request.ip}`, Number(perMinute), 60_000);
    if (!decision.allowed) return refuse(reply, decision);
  };

  const accountOf = async (request: FastifyRequest, policy: Policy): Promise<Account | null> => {
    if (!policy.account) return null;
    if ('bodyField' in policy.account) {
      const value = (request.body as Record<string, unknown> | undefined)?.[policy.account.bodyField];
      if (typeof value !== 'string' || value.trim() === '') return null;
      const id = await resolveAccount(value);
      return id === null ? { key: accountKey(value), userId: null } : { key: `user:${id}`, userId: id };
    }
    const resolved = await sessions.resolve(request);
    return resolved.row ? { key: `user:${resolved.row.user_id}`, userId: resolved.row.user_id } : null;
  };

  /** The hash of the request's op_device cookie when the account has signed in from that browser. */
  const knownDeviceOf = async (request: FastifyRequest, account: Account): Promise<string | null> => {
    const device = readDeviceCookie(request);
    if (!device || account.userId === null) return null;
    const hash = hashDevice(device);
    return (await knownDevices.isKnown(account.userId, hash)) ? hash : null;
  };

  return {
    appWide(route) {
      const api = route.url === '/api' || route.url.startsWith('/api/');
      return api && route.config?.appRateLimit !== false ? appWideCheck : null;
    },
    policy(route) {
      const name = route.config?.rateLimit;
      if (!name) return null;
      const policy = policies.get(name);
      if (!policy) throw new Error(`route ${route.url} names an unknown rate-limit policy "${name}" (neither the core nor a plugin declares it)`);
      const settingKeys = ['rate_limit_auth_window_seconds', ...policy.scopes.map((s) => s.setting), ...(policy.knownDevice ? [policy.knownDevice.setting] : [])];
      return async (request, reply) => {
        const values = await settings.getMany(settingKeys);
        const windowMs = Number(values.rate_limit_auth_window_seconds) * 1000;
        const account = await accountOf(request, policy);
        const device = policy.knownDevice && account ? await knownDeviceOf(request, account) : null;
        if (policy.knownDevice && account && device) {
          const decision = await limiter.consume(`${name}:dev:${account.key}:${device}`, Number(values[policy.knownDevice.setting]), windowMs);
          return decision.allowed ? undefined : refuse(reply, decision);
        }
        // every scope counts the attempt, so a refused one still uses up the other scopes' budgets
        let refused: RateLimitDecision | null = null;
        for (const scope of policy.scopes) {
          const subject = scope.by === 'ip' ? `ip:${request.ip}` : account ? `acct:${account.key}` : null;
          if (!subject) continue;
          const decision = await limiter.consume(`${name}:${subject}`, Number(values[scope.setting]), windowMs);
          if (!decision.allowed && (!refused || decision.retryAfterSeconds > refused.retryAfterSeconds)) refused = decision;
        }
        if (refused) return refuse(reply, refused);
      };
    },
  };
}
