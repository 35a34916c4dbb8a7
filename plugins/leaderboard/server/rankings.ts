// The rankings behind /leaderboard. Each board is one indexed query for the top N (users joined with
// their role, so no per-row lookups) and, for the signed-in user, one count of the users ahead of
// them. The order is total and the same in both: highest value first, ties to the earlier account
// (lower id) — so "my rank" always agrees with the list. Banned accounts are left out of both.
//
// Accounts are read through the core's read-only user_public view (their public fields, role badge and
// ban flag). Counter boards read the core `user_counters` table directly instead of
// ctx.counters.top(): top() knows nothing of bans (a banned leader would push the list under N) and has
// no "rank of one user". Both are what the core lets every plugin read; no other table is touched.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import { BOARD_SOURCES, type BoardType, type RankedUser } from '../shared/boards';

interface RankedRow {
  id: number;
  uuid: string;
  username: string;
  avatar: string | null;
  role_name: string | null;
  role_color: string | null;
  value: number | string;
}

function toRanked(rows: readonly RankedRow[], early: ReadonlySet<number>): RankedUser[] {
  return rows.map((row, index) => ({
    rank: index + 1,
    uuid: row.uuid,
    username: row.username,
    avatar: row.avatar,
    // a role deleted under a user: no badge (the page shows none for an empty name)
    role: { name: row.role_name ?? '', color: row.role_color ?? '' },
    value: Number(row.value),
    early_supporter: early.has(Number(row.id)),
  }));
}

export class Rankings {
  constructor(private readonly db: ServerPluginContext['db']) {}

  /** The query for the top `limit` of a board (only values above 0: nobody is "first" with nothing). */
  topQuery(type: BoardType, limit: number) {
    const source = BOARD_SOURCES[type];
    if ('column' in source) {
      const column = `u.${source.column}` as const;
      return this.db
        .selectFrom('user_public as u')
        .select(['u.id', 'u.uuid', 'u.username', 'u.avatar', 'u.role_name', 'u.role_color', `${column} as value`])
        .where('u.banned', '=', 0)
        .where(column, '>', 0)
        .orderBy(column, 'desc')
        .orderBy('u.id', 'asc')
        .limit(limit);
    }
    return this.db
      .selectFrom('user_counters as c')
      .innerJoin('user_public as u', 'u.id', 'c.user_id')
      .select(['u.id', 'u.uuid', 'u.username', 'u.avatar', 'u.role_name', 'u.role_color', 'c.value as value'])
      .where('c.name', '=', source.counter)
      .where('c.value', '>', 0)
      .where('u.banned', '=', 0)
      .orderBy('c.value', 'desc')
      .orderBy('c.user_id', 'asc')
      .limit(limit);
  }

  /** The query counting the users ahead of (userId, value) on a board. */
  aheadQuery(type: BoardType, userId: number, value: number) {
    const source = BOARD_SOURCES[type];
    if ('column' in source) {
      const column = `u.${source.column}` as const;
      return (
        this.db
          .selectFrom('user_public as u')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('u.banned', '=', 0)
          // the redundant `>=` turns the count into a range scan of the index from `value` up
          .where(column, '>=', value)
          .where((eb) => eb.or([eb(column, '>', value), eb('u.id', '<', userId)]))
      );
    }
    // banned accounts are few: leaving them out with NOT EXISTS keeps the count on the counters'
    // index instead of joining every counted row to its user
    return this.db
      .selectFrom('user_counters as c')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('c.name', '=', source.counter)
      .where('c.value', '>=', value)
      .where((eb) => eb.or([eb('c.value', '>', value), eb('c.user_id', '<', userId)]))
      .where((eb) => eb.not(eb.exists(eb.selectFrom('user_public as b').select('b.id').whereRef('b.id', '=', 'c.user_id').where('b.banned', '=', 1))));
  }

  /** The top `limit`; `earlySupporters` tells which of them are among the panel's first accounts. */
  async top(type: BoardType, limit: number, earlySupporters: (ids: readonly number[]) => Promise<ReadonlySet<number>> = async () => new Set()): Promise<RankedUser[]> {
    const rows: RankedRow[] = await this.topQuery(type, limit).execute();
    return toRanked(rows, await earlySupporters(rows.map((row) => Number(row.id))));
  }

  /** The user's value on a board and their rank (null while the value is 0: not on the board). */
  async placeOf(type: BoardType, userId: number): Promise<{ rank: number | null; value: number }> {
    const value = Math.max(0, await this.valueOf(type, userId));
    if (value === 0) return { rank: null, value };
    const ahead = await this.aheadQuery(type, userId, value).executeTakeFirstOrThrow();
    return { rank: Number(ahead.n) + 1, value };
  }

  private async valueOf(type: BoardType, userId: number): Promise<number> {
    const source = BOARD_SOURCES[type];
    const row =
      'column' in source
        ? await this.db.selectFrom('user_public').select(`${source.column} as value`).where('id', '=', userId).executeTakeFirst()
        : await this.db.selectFrom('user_counters').select('value').where('user_id', '=', userId).where('name', '=', source.counter).executeTakeFirst();
    return Number(row?.value ?? 0);
  }
}
