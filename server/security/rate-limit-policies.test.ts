// Plugins declare their own rate-limit policies; a route naming one nobody declared still fails to register.
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { SessionService } from '../auth/sessions';
import type { SettingsStore } from '../settings/store';
import { RateLimitPolicies, rateLimitHooks } from './rate-limit-policies';
import type { RateLimiter } from './rate-limiter';

const redeem = {
  'earn.redeem': {
    scopes: [
      { by: 'ip', setting: 'rate_limit_redeem_per_ip' },
      { by: 'account', setting: 'rate_limit_redeem_per_account' },
    ],
    account: { session: true },
  },
} as const;
const own = new Set(['rate_limit_redeem_per_ip', 'rate_limit_redeem_per_account']);

function hooks(policies: RateLimitPolicies) {
  const unused = {} as never;
  return rateLimitHooks(unused as RateLimiter, unused as SettingsStore, unused as SessionService, async () => null, { isKnown: async () => false }, policies);
}
const route = (rateLimit: string) => ({ url: '/api/x', method: 'POST', config: { rateLimit } }) as unknown as RouteOptions;

describe('rate-limit policies declared by plugins', () => {
  it('refuses a route naming a policy nobody declared, and accepts it once a plugin declares it', () => {
    const policies = new RateLimitPolicies();
    expect(() => hooks(policies).policy(route('earn.redeem'))).toThrow('unknown rate-limit policy "earn.redeem"');
    expect(policies.problem('earn-redeem', redeem, own)).toBeNull();
    policies.declare('earn-redeem', redeem);
    expect(hooks(policies).policy(route('earn.redeem'))).toBeTypeOf('function');
    expect(policies.settingKeys()).toEqual(expect.arrayContaining([...own, 'rate_limit_lookup_per_ip']));
  });

  it('keeps only the policy two plugins share; the sign-in ones are the auth plugin’s', () => {
    expect(hooks(new RateLimitPolicies()).policy(route('people.lookup'))).toBeTypeOf('function');
    for (const name of ['auth.login', 'auth.register', 'auth.forgot', 'auth.2fa', 'auth.verify', 'auth.password']) {
      expect(() => hooks(new RateLimitPolicies()).policy(route(name)), name).toThrow(`unknown rate-limit policy "${name}"`);
    }
  });

  it("refuses a name the core or another plugin holds, a limit that is not the plugin's own number setting, and a per-account scope without an account", () => {
    const policies = new RateLimitPolicies();
    policies.declare('earn-redeem', redeem);
    expect(policies.problem('other', redeem, own)).toBe('its rate-limit policy "earn.redeem" is already declared by plugin "earn-redeem"');
    expect(policies.problem('earn-redeem', redeem, own)).toBeNull();
    expect(policies.problem('other', { 'people.lookup': redeem['earn.redeem'] }, own)).toBe('its rate-limit policy "people.lookup" is already declared by the core');
    expect(policies.problem('other', { 'other.x': redeem['earn.redeem'] }, new Set(['rate_limit_redeem_per_ip']))).toBe(
      'its rate-limit policy "other.x" names "rate_limit_redeem_per_account", which is not a number setting of its plugin.json',
    );
    expect(policies.problem('other', { 'other.x': { scopes: [{ by: 'account', setting: 'rate_limit_redeem_per_ip' }] } }, own)).toBe(
      'its rate-limit policy "other.x" counts per account but names no account',
    );
    expect(policies.problem('other', { 'other.x': { scopes: [] } }, own)).toBe('its rate-limit policy "other.x" has no scopes');
  });
});
