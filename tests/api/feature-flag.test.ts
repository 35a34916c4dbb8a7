// Route option `config: { flag }`: a feature switched off answers 403 FEATURE_DISABLED before the
// session is even looked at, and works again the moment the setting is back on; an undeclared flag
// fails at start-up rather than hiding a route for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { featureFlagGuardFor } from '../../server/settings/feature-flag-guard';
import { register, startPanel, testDialects, type TestPanel } from './harness';

describe.each(testDialects())('feature flags on routes (%s)', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('answers FEATURE_DISABLED while the flag is off, the route itself when on', async () => {
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      const hook = featureFlagGuardFor(panel.services.settings, route);
      if (hook) route.onRequest = [hook];
    });
    app.get('/thing', { config: { flag: 'store_enabled' } }, async () => ({ ok: true }));
    await panel.services.settings.set('store_enabled', false);
    const off = await app.inject({ url: '/thing' });
    expect(off.statusCode).toBe(403);
    expect(off.json()).toEqual({ error: { code: 'FEATURE_DISABLED', message: 'This feature is turned off on this panel.' } });
    await panel.services.settings.set('store_enabled', true);
    expect((await app.inject({ url: '/thing' })).json()).toEqual({ ok: true });
    await app.close();
  });

  it('refuses a route whose flag is not a declared boolean setting', async () => {
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      featureFlagGuardFor(panel.services.settings, route);
    });
    expect(() => app.get('/typo', { config: { flag: 'stor_enabled' } }, async () => ({}))).toThrow(/"stor_enabled" is not a declared boolean setting/);
    expect(() => app.get('/number', { config: { flag: 'server_renew_cost' } }, async () => ({}))).toThrow(/not a declared boolean setting/);
    await app.close();
  });

  it('is wired into the panel: the flag check runs before the session check', async () => {
    const { cookie } = await register(panel.app);
    expect(cookie).toBeTruthy();
    const flagged = panel.services.routes.list().filter((r) => r.flag !== null && r.method !== 'HEAD');
    // the economy plugins declare theirs (store, redeem, gifts, referrals, links, leaderboard, profiles…)
    expect(new Set(flagged.map((r) => r.flag)).size).toBeGreaterThanOrEqual(6);
    // every flagged route of the enabled plugins answers FEATURE_DISABLED while its flag is off
    for (const route of flagged) {
      const flag = String(route.flag);
      const before = await panel.services.settings.get(flag);
      await panel.services.settings.set(flag, false);
      const res = await panel.app.inject({ method: route.method as 'GET', url: route.url.replace(/:(\w+)/g, 'x') });
      expect(res.statusCode, `${route.method} ${route.url}`).toBe(403);
      expect(res.json().error.code).toBe('FEATURE_DISABLED');
      await panel.services.settings.set(flag, before);
    }
  });
});
