// /lookup's API on every dialect: GET /api/user/search?query= finds users by any part of their name,
// in any case, names that start with the text first, at most 10, never a banned one, with LIKE's
// wildcards taken literally; refuses fewer than 3 characters; is rate limited per account; is part of
// public profiles. And the support-PIN lookup the page offers staff (the admin API's) answers only
// holders of its permission.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, roleWith, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

interface Match {
  uuid: string;
  username: string;
  avatar: string | null;
  role: { name: string; color: string };
}

describe.each(testDialects())('lookup API on %s', (dialect) => {
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
  const search = (query: string | null, who: SignedInUser | null = viewer) =>
    panel.app.inject({ method: 'GET', url: '/api/user/search', query: query === null ? {} : { query }, headers: who ? { cookie: who.cookie } : {} });
  const found = async (query: string): Promise<string[]> => {
    const res = await search(query);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as Match[]).map((m) => m.username);
  };
  const account = async (username: string) => {
    const { response, body } = await register(panel.app, { username });
    const uuid = (response.json() as { user: { uuid: string } }).user.uuid;
    const row = await db().selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { id: row.id, uuid, username, email: body.email };
  };
  /** a word no other test's usernames contain */
  const word = () => `q${randomBytes(3).toString('hex')}`;

  it('needs a session and the public-profiles flag', async () => {
    expect((await search('abc', null)).statusCode).toBe(401);
    await panel.services.settings.set('allow_public_profiles', false);
    try {
      const off = await search('abc');
      expect(off.statusCode).toBe(403);
      expect(off.json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('allow_public_profiles', true);
    }
  });

  it('refuses fewer than 3 characters (after trimming) and a missing query', async () => {
    for (const query of ['', 'ab', '  ab  ']) {
      const res = await search(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'QUERY_TOO_SHORT', field: 'query' });
    }
    const missing = await search(null);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field: 'query' });
    expect((await search('x'.repeat(200))).statusCode).toBe(400);
  });

  it('matches any part of the name in any case, names starting with it first, then by name', async () => {
    const w = word();
    await account(`zz_${w}_late`);
    await account(`${w.toUpperCase()}_second`);
    await account(`${w}_first`);
    await account(`aa${w}`);
    expect(await found(w)).toEqual([`${w}_first`, `${w.toUpperCase()}_second`, `aa${w}`, `zz_${w}_late`]);
    expect(await found(`  ${w.toUpperCase()}_SEC `)).toEqual([`${w.toUpperCase()}_second`]);
  });

  it('answers at most 10 users, never a banned one, with no e-mail', async () => {
    const w = word();
    const made = [];
    for (let i = 0; i < 12; i++) made.push(await account(`${w}${String(i).padStart(2, '0')}`));
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', made[0].id).execute();
    const res = await search(w);
    const data = res.json().data as Match[];
    expect(data.map((m) => m.username)).toEqual(made.slice(1, 11).map((m) => m.username));
    expect(data[0]).toEqual({ uuid: made[1].uuid, username: made[1].username, avatar: null, role: { name: 'Default', color: expect.any(String) } });
    for (const m of made) expect(res.body).not.toContain(m.email);
  });

  it('takes % and _ literally', async () => {
    const w = word();
    await account(`${w}_x`);
    await account(`${w}yx`);
    expect(await found(`${w}_`)).toEqual([`${w}_x`]);
    expect(await found(`${w}%`)).toEqual([]);
  });

  it('is rate limited per account (people.lookup), whatever the answers were', async () => {
    const searcher = await userWithRole(panel, 1);
    const other = await userWithRole(panel, 1);
    await panel.services.settings.set('rate_limit_lookup_per_account', 3);
    try {
      for (const query of ['abc', 'ab', 'abd']) expect((await search(query, searcher)).statusCode).not.toBe(429);
      const limited = await search('abe', searcher);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // another account is not held back by this one
      expect((await search('abc', other)).statusCode).toBe(200);
    } finally {
      await panel.services.settings.set('rate_limit_lookup_per_account', 1_000_000);
    }
  });

  it('finds an account by support PIN for staff holding the support permission only', async () => {
    const holder = await account(word());
    await db().updateTable('users').set({ support_pin: '271828' }).where('id', '=', holder.id).execute();
    const url = '/api/admin/dashboard/support/pins/271828';
    const denied = await panel.app.inject({ method: 'GET', url, headers: { cookie: viewer.cookie } });
    expect(denied.statusCode).toBe(403);
    const staffRole = await roleWith(panel, ['admin.dashboard.components.support.view']);
    const staff = await userWithRole(panel, staffRole);
    const res = await panel.app.inject({ method: 'GET', url, headers: { cookie: staff.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().users).toEqual([expect.objectContaining({ uuid: holder.uuid, username: holder.username, email: holder.email, banned: false })]);
  });
});
