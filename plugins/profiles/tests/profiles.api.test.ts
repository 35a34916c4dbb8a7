// The profiles plugin's GET /api/user/profile/{uuid} on every dialect: what a public profile shows
// (name, pictures, role, member since, AFK minutes, referrals, servers) and what it never shows
// (e-mail, real names, coins), banned and unknown users alike answered 404, the
// allow_public_profiles flag, and the skin address built from the administrator's template only for
// names that can be Minecraft names.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

describe.each(testDialects())('profiles API on %s', (dialect) => {
  let panel: TestPanel;
  let viewer: SignedInUser;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    viewer = await userWithRole(panel, 1);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  const profile = (uuid: string, who: SignedInUser | null = viewer) =>
    panel.app.inject({ method: 'GET', url: `/api/user/profile/${uuid}`, headers: who ? { cookie: who.cookie } : {} });
  const withName = async (username: string) => {
    const { response } = await register(panel.app, { username });
    const uuid = (response.json() as { user: { uuid: string } }).user.uuid;
    const row = await db().selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { id: row.id, uuid, username };
  };

  it('needs a session, a well-formed uuid and the flag', async () => {
    expect((await profile(viewer.uuid, null)).statusCode).toBe(401);
    const bad = await profile('not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'uuid' });
    await panel.services.settings.set('allow_public_profiles', false);
    try {
      const off = await profile(viewer.uuid);
      expect(off.statusCode).toBe(403);
      expect(off.json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('allow_public_profiles', true);
    }
  });

  it('says whether the user is an early supporter: one of the first early_supporters_amount accounts, only while the feature is on', async () => {
    const later = await withName(`later_${Date.now().toString(36)}`);
    const first = await db().selectFrom('users').select(['id', 'uuid']).orderBy('id', 'asc').executeTakeFirstOrThrow();
    const early = async (uuid: string) => (await profile(uuid)).json().early_supporter as boolean;
    expect(await early(first.uuid)).toBe(false);
    await panel.services.settings.set('early_supporters_enabled', true);
    try {
      await panel.services.settings.set('early_supporters_amount', 1);
      expect(await early(first.uuid)).toBe(true);
      expect(await early(later.uuid)).toBe(false);
      // more places than accounts: every account is one of the first
      await panel.services.settings.set('early_supporters_amount', 1_000_000);
      expect(await early(later.uuid)).toBe(true);
    } finally {
      await panel.services.settings.set('early_supporters_enabled', false);
      await panel.services.settings.set('early_supporters_amount', 100);
    }
  });

  it('shows the public part of a profile and nothing private', async () => {
    const owner = await userWithRole(panel, 2);
    await db()
      .updateTable('users')
      .set({ avatar: 'https://cdn.example.com/a.png', background: 'https://cdn.example.com/bg.jpg', minutes_afk: 321, first_name: 'Secretfirst', last_name: 'Secretlast' })
      .where('id', '=', owner.id)
      .execute();
    await db().updateTable('roles').set({ color: '#12ab34' }).where('id', '=', 2).execute();
    await panel.services.wallet.credit({ userId: owner.id, amount: 987_654, kind: 'test.credit', idempotencyKey: `profiles:${dialect}:${owner.id}` });
    await panel.services.counters.add(owner.id, 'referrals', 4);
    await panel.services.counters.add(owner.id, 'servers', 2);
    const created = await db().selectFrom('users').select('created_at').where('id', '=', owner.id).executeTakeFirstOrThrow();

    const res = await profile(owner.uuid);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      uuid: owner.uuid,
      username: owner.username,
      avatar: 'https://cdn.example.com/a.png',
      background: 'https://cdn.example.com/bg.jpg',
      role: { name: 'VIP', color: '#12ab34' },
      member_since: created.created_at,
      stats: { minutes_afk: 321, referrals: 4, servers: 2 },
      skin_url: null,
      self: false,
      early_supporter: false,
    });
    for (const secret of [owner.email, 'Secretfirst', 'Secretlast', '987654']) expect(res.body).not.toContain(secret);
    expect(res.headers['cache-control']).toContain('no-store');
  });

  it('tells the owner it is their own profile, whatever the case of the uuid', async () => {
    const res = await profile(viewer.uuid.toUpperCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ uuid: viewer.uuid, self: true, stats: { minutes_afk: 0, referrals: 0, servers: 0 } });
  });

  it('answers 404 for an unknown user and for a banned one', async () => {
    const unknown = await profile('00000000-0000-4000-8000-00000000abcd');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('USER_NOT_FOUND');
    const banned = await userWithRole(panel, 1);
    expect((await profile(banned.uuid)).statusCode).toBe(200);
    await db().updateTable('users').set({ banned: 1, ban_reason: 'spam' }).where('id', '=', banned.id).execute();
    const hidden = await profile(banned.uuid);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().error.code).toBe('USER_NOT_FOUND');
    expect(hidden.body).not.toContain('spam');
  });

  it('builds the skin address from the template for Minecraft names only, else the bundled skin (null)', async () => {
    const steve = await withName(`St_${Date.now().toString(36).slice(-8)}`);
    const dotted = await withName(`st.eve${Date.now().toString(36).slice(-6)}`);
    const skin = async (uuid: string) => (await profile(uuid)).json().skin_url as string | null;
    expect(await skin(steve.uuid)).toBeNull();
    await panel.services.settings.set('profile_skin_url_template', 'https://skins.example.com/skin/{username}.png');
    try {
      expect(await skin(steve.uuid)).toBe(`https://skins.example.com/skin/${steve.username}.png`);
      // not a possible Minecraft name (dots): the bundled skin rather than someone else's
      expect(await skin(dotted.uuid)).toBeNull();
      // a template without the placeholder would give everyone the same skin: ignored
      await panel.services.settings.set('profile_skin_url_template', 'https://skins.example.com/steve.png');
      expect(await skin(steve.uuid)).toBeNull();
    } finally {
      await panel.services.settings.set('profile_skin_url_template', '');
    }
    await expect(panel.services.settings.set('profile_skin_url_template', 'javascript:alert(1)//{username}')).rejects.toMatchObject({ statusCode: 400 });
  });
});
