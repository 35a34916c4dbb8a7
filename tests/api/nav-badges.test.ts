// GET /api/user/nav-badges (issue 11's unread counts, generic): the counts of the badges on the
// sidebar items the signed-in user can see — an item hidden by its permission, its route's
// permission or admin role, or a switched-off flag, is not counted; a disabled plugin's badges are
// gone; a provider that fails or answers no whole number is left out, and the rest still answer.
// A plugin may give only the badges its plugin.json names.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_PLUGINS, ROOT, roleWith, setRolePermissions, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const BADGE_PLUGINS = join(ROOT, 'tests', 'fixtures', 'badge-plugins');
const URL = '/api/user/nav-badges';

describe.each(testDialects())('nav badges on %s', (dialect) => {
  let panel: TestPanel;
  let app: FastifyInstance;
  let customer: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, { pluginDirs: [REPO_PLUGINS, BADGE_PLUGINS] });
    app = panel.app;
    customer = await userWithRole(panel, 1);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const badgesOf = async (user: SignedInUser) => {
    const res = await app.inject({ url: URL, headers: { cookie: user.cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const fixtures: Record<string, number> = {};
    // the repository's own plugins may add badges of their own: only the fixture's are looked at
    for (const [key, count] of Object.entries((res.json() as { badges: Record<string, number> }).badges)) if (key.startsWith('fx-badges.')) fixtures[key] = count;
    return fixtures;
  };

  it('answers only a signed-in user', async () => {
    const res = await app.inject({ url: URL });
    expect(res.statusCode).toBe(401);
  });

  it("counts the badges of the items a customer sees, each with this user's count; a failing or odd provider is left out", async () => {
    expect(await badgesOf(customer)).toEqual({ 'fx-badges.inbox': customer.id, 'fx-badges.flagged': 3 });
  });

  it('counts an item behind a permission for the holder only, and 0 is a count', async () => {
    const holder = await userWithRole(panel, await roleWith(panel, ['user.fx_badges.held']));
    expect(await badgesOf(holder)).toEqual({ 'fx-badges.inbox': holder.id, 'fx-badges.flagged': 3, 'fx-badges.held': 0 });
  });

  it("counts an admin route's item only for an admin role (2–8) holding its permission", async () => {
    // a role made by roleWith is numbered after the eight spec roles: not admin-type, so the route
    // would refuse its holder even with the permission — no count
    const notAdmin = await userWithRole(panel, await roleWith(panel, ['admin.fx_badges.desk']));
    expect(await badgesOf(notAdmin)).not.toHaveProperty(['fx-badges.desk']);
    await setRolePermissions(panel, 3, ['admin.fx_badges.desk']);
    const staff = await userWithRole(panel, 3);
    expect(await badgesOf(staff)).toMatchObject({ 'fx-badges.desk': 7 });
    await setRolePermissions(panel, 4, []);
    expect(await badgesOf(await userWithRole(panel, 4))).not.toHaveProperty(['fx-badges.desk']);
    expect(await badgesOf(await userWithRole(panel, 8))).toMatchObject({ 'fx-badges.desk': 7, 'fx-badges.held': 0 });
  });

  it('drops the badge of an item whose flag is off', async () => {
    await panel.services.settings.set('fx_badges_flagged', false);
    try {
      expect(await badgesOf(customer)).toEqual({ 'fx-badges.inbox': customer.id });
    } finally {
      await panel.services.settings.set('fx_badges_flagged', true);
    }
  });

  it("drops a disabled plugin's badges, and brings them back when it is enabled", async () => {
    await panel.services.plugins.setEnabled('fx-badges', false);
    try {
      expect(await badgesOf(customer)).toEqual({});
    } finally {
      await panel.services.plugins.setEnabled('fx-badges', true);
    }
    expect(await badgesOf(customer)).toEqual({ 'fx-badges.inbox': customer.id, 'fx-badges.flagged': 3 });
  });

  it('refuses a plugin that gives a badge its plugin.json does not name', () => {
    expect(panel.services.plugins.refused.find((r) => r.id === 'fx-badge-undeclared')?.reason).toBe(
      'its register() failed: plugin "fx-badge-undeclared" gives nav badge "unnamed" but no nav item of its plugin.json names it',
    );
  });
});
