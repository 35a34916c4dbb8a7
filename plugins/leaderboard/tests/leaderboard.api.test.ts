// The leaderboard plugin's API on every dialect: each board ranks the right number (coins through the
// wallet, AFK minutes, the published counters), highest first with ties to the earlier account,
// banned accounts left out of the list and of everyone's rank, the top N setting obeyed, and the
// signed-in user's own place given also outside the top. The rank indexes are used (SQLite's plan).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery } from 'kysely';
import { Rankings } from '../server/rankings';
import { LEADERBOARD_INDEXES } from '../server/indexes';
import { pluginView, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

interface Answer {
  type: string;
  limit: number;
  data: { rank: number; uuid: string; username: string; avatar: string | null; role: { name: string; color: string }; value: number; early_supporter: boolean }[];
  me: { rank: number | null; value: number };
}

describe.each(testDialects())('leaderboard API on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
  });

  const db = () => panel.services.database.db;
  let serial = 0;
  const board = async (type: string, who: SignedInUser | null) => {
    const res = await panel.app.inject({ method: 'GET', url: `/api/user/leaderboard/${type}`, headers: who ? { cookie: who.cookie } : {} });
    return res;
  };
  const ok = async (type: string, who: SignedInUser): Promise<Answer> => {
    const res = await board(type, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Answer;
  };
  const give = (who: SignedInUser, coins: number) =>
    panel.services.wallet.credit({ userId: who.id, amount: coins, kind: 'test.credit', idempotencyKey: `lb:${dialect}:${who.id}:${++serial}` });
  const ban = (who: SignedInUser) => db().updateTable('users').set({ banned: 1, ban_reason: 'cheating' }).where('id', '=', who.id).execute();
  const users = async (n: number) => {
    const out: SignedInUser[] = [];
    for (let i = 0; i < n; i++) out.push(await userWithRole(panel, 1));
    return out;
  };

  it('needs a session and a known board', async () => {
    expect((await board('coins', null)).statusCode).toBe(401);
    const [viewer] = await users(1);
    const res = await board('diamonds', viewer);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('VALIDATION_ERROR');
  });

  it('is off with leaderboard_enabled off (403 FEATURE_DISABLED), on again at once', async () => {
    const [viewer] = await users(1);
    await panel.services.settings.set('leaderboard_enabled', false);
    try {
      const res = await board('coins', viewer);
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('FEATURE_DISABLED');
    } finally {
      await panel.services.settings.set('leaderboard_enabled', true);
    }
    expect((await board('coins', viewer)).statusCode).toBe(200);
  });

  it('ranks coins highest first, ties to the earlier account, without banned users or empty wallets, top N only', async () => {
    const [first, tieEarly, tieLate, fourth, broke, cheater] = await users(6);
    await give(first, 500);
    await give(tieEarly, 300);
    await give(tieLate, 300);
    await give(fourth, 10);
    await give(cheater, 10_000);
    await ban(cheater);
    await panel.services.settings.set('leaderboard_limit', 3);
    try {
      const answer = await ok('coins', fourth);
      expect(answer.limit).toBe(3);
      expect(answer.data.map((r) => [r.rank, r.uuid, r.value])).toEqual([
        [1, first.uuid, 500],
        [2, tieEarly.uuid, 300],
        [3, tieLate.uuid, 300],
      ]);
      // outside the top 3, the banned richer account not counted ahead of them
      expect(answer.me).toEqual({ rank: 4, value: 10 });
      expect((await ok('coins', tieLate)).me).toEqual({ rank: 3, value: 300 });
      expect((await ok('coins', broke)).me).toEqual({ rank: null, value: 0 });
      expect(JSON.stringify(answer)).not.toContain(cheater.uuid);
    } finally {
      await panel.services.settings.set('leaderboard_limit', 15);
    }
  });

  it('marks the early supporters among the ranked users (the first early_supporters_amount accounts), only while the feature is on', async () => {
    const [older, newer] = await users(2);
    // the AFK board, put back afterwards: the other tests' coin ranks stay as they are
    const afk = (who: SignedInUser, minutes: number) => db().updateTable('users').set({ minutes_afk: minutes }).where('id', '=', who.id).execute();
    await afk(older, 9_000_001);
    await afk(newer, 9_000_000);
    const flags = async () => {
      const answer = await ok('minutes_afk', newer);
      const of = (who: SignedInUser) => answer.data.find((r) => r.uuid === who.uuid)?.early_supporter;
      return [of(older), of(newer)];
    };
    expect(await flags()).toEqual([false, false]);
    // the place of `older` among every account: it and all before it are early supporters
    const ahead = await db()
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '<=', older.id)
      .executeTakeFirstOrThrow();
    await panel.services.settings.set('early_supporters_enabled', true);
    try {
      await panel.services.settings.set('early_supporters_amount', Number(ahead.n));
      expect(await flags()).toEqual([true, false]);
    } finally {
      await panel.services.settings.set('early_supporters_enabled', false);
      await panel.services.settings.set('early_supporters_amount', 100);
      await afk(older, 0);
      await afk(newer, 0);
    }
  });

  it('shows each ranked user with their role (name and colour) and avatar, never their e-mail', async () => {
    const [vip] = await users(1);
    await db().updateTable('users').set({ role_id: 2, avatar: 'https://cdn.example.com/vip.png' }).where('id', '=', vip.id).execute();
    await db().updateTable('roles').set({ color: '#ffaa00' }).where('id', '=', 2).execute();
    await give(vip, 1_000_000);
    const answer = await ok('coins', vip);
    expect(answer.data[0]).toEqual({
      rank: 1,
      uuid: vip.uuid,
      username: vip.username,
      avatar: 'https://cdn.example.com/vip.png',
      role: { name: 'VIP', color: '#ffaa00' },
      value: 1_000_000,
      early_supporter: false,
    });
    expect(answer.me).toEqual({ rank: 1, value: 1_000_000 });
    expect(JSON.stringify(answer)).not.toContain(vip.email);
  });

  it('ranks AFK minutes from the users table', async () => {
    const [a, b, banned] = await users(3);
    const minutes = (who: SignedInUser, n: number) => db().updateTable('users').set({ minutes_afk: n }).where('id', '=', who.id).execute();
    await minutes(a, 90);
    await minutes(b, 120);
    await minutes(banned, 5000);
    await ban(banned);
    const answer = await ok('minutes_afk', a);
    expect(answer.data.map((r) => [r.uuid, r.value])).toEqual([
      [b.uuid, 120],
      [a.uuid, 90],
    ]);
    expect(answer.me).toEqual({ rank: 2, value: 90 });
  });

  it('ranks the published counters (referrals, links) and keeps servers empty until someone publishes it', async () => {
    const [a, b, c, banned] = await users(4);
    const counters = panel.services.counters;
    await counters.add(a.id, 'referrals', 2);
    await counters.add(b.id, 'referrals', 7);
    await counters.add(c.id, 'referrals', 2);
    await counters.add(banned.id, 'referrals', 50);
    await counters.add(c.id, 'links', 3);
    await ban(banned);
    const referrals = await ok('referrals', c);
    expect(referrals.data.map((r) => [r.rank, r.uuid, r.value])).toEqual([
      [1, b.uuid, 7],
      [2, a.uuid, 2],
      [3, c.uuid, 2],
    ]);
    expect(referrals.me).toEqual({ rank: 3, value: 2 });
    const links = await ok('links', a);
    expect(links.data.map((r) => [r.uuid, r.value])).toEqual([[c.uuid, 3]]);
    expect(links.me).toEqual({ rank: null, value: 0 });
    const servers = await ok('servers', a);
    expect(servers).toMatchObject({ type: 'servers', data: [], me: { rank: null, value: 0 } });
    // the moment the hosting plugin publishes the counter, the board fills
    await counters.add(a.id, 'servers', 1);
    expect((await ok('servers', a)).me).toEqual({ rank: 1, value: 1 });
  });

  it('refuses a top N outside 1–100 (the setting is validated)', async () => {
    await expect(panel.services.settings.set('leaderboard_limit', 0)).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    await expect(panel.services.settings.set('leaderboard_limit', 101)).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
  });

  // a query plan is dialect-specific: the check exists where EXPLAIN QUERY PLAN does
  if (dialect === 'sqlite')
    it('reads the top N and the rank counts through the indexes, with no full sort', async () => {
      const rankings = new Rankings(pluginView(panel));
      const explain = async (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
        const { sql: text, parameters } = query.compile();
        const plan = await db().executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
        return plan.rows.map((r) => r.detail).join(' | ');
      };
      for (const [index, type] of [
        [LEADERBOARD_INDEXES[0].name, 'coins'],
        [LEADERBOARD_INDEXES[1].name, 'minutes_afk'],
        ['user_counters_rank_index', 'referrals'],
      ] as const) {
        const top = await explain(rankings.topQuery(type, 15));
        expect(top, type).toContain(index);
        expect(top, type).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
        // "how many are ahead of me" reads only the index range above my value
        const ahead = await explain(rankings.aheadQuery(type, 1, 100));
        expect(ahead, type).toContain(index);
        expect(ahead, type).toMatch(/=\? AND \w+>\?\)/);
      }
    });
});
