// Test set-up shared by the plugin authors' kit (./server.ts) and the core's API test harness
// (tests/api/harness.ts): one definition of "a role holding exactly these permissions" and of the
// relaxed rate limits, so both kinds of test see the same panel.
import { randomBytes } from 'node:crypto';
import type { PanelServices } from '../../server/app';
import { RATE_LIMIT_SETTINGS } from '../../server/security/rate-limit-policies';

/**
 * Raises every rate limit far above what a test sends from 127.0.0.1, so tests of other rules are not
 * throttled (the window stays as it is).
 */
export async function relaxRateLimits(services: Pick<PanelServices, 'settings' | 'rateLimitPolicies'>): Promise<void> {
  const keys = new Set(services.rateLimitPolicies.settingKeys());
  for (const def of RATE_LIMIT_SETTINGS) {
    if (def.type === 'number' && def.key !== 'rate_limit_auth_window_seconds') keys.add(def.key);
  }
  // a plugin may cap its own limit lower
  for (const key of keys) await services.settings.set(key, Math.min(1_000_000, services.settings.definition(key)?.max ?? 1_000_000));
}

/** Creates a role holding exactly `permissions`; returns its id. */
export async function createTestRole(
  services: Pick<PanelServices, 'database' | 'roles'>,
  permissions: readonly string[],
  name = `r_${randomBytes(4).toString('hex')}`,
): Promise<number> {
  const db = services.database.db;
  await db.insertInto('roles').values({ name, real_name: name, color: '#123456' }).execute();
  const { id } = await db.selectFrom('roles').select('id').where('name', '=', name).executeTakeFirstOrThrow();
  if (permissions.length > 0)
    await db
      .insertInto('role_permissions')
      .values(permissions.map((permission) => ({ role_id: id, permission })))
      .execute();
  await services.roles.invalidate();
  return id;
}
