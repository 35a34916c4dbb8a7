// The queries behind profiles and the name search, on the core's read-only user_public view (an
// account's public fields with its role badge). Banned accounts are neither shown nor found.
import { sql } from 'kysely';
import { likeLiteral, type ServerPluginContext } from '@orepanel/sdk/server';
import { NAME_SEARCH, type PersonMatch, type PersonRole } from '../shared/people';

/** the counters other plugins publish (ctx.counters) that a profile shows, read from the core table in one query */
const PROFILE_COUNTERS = ['referrals', 'servers'] as const;

function roleOf(row: { role_name: string | null; role_color: string | null }): PersonRole {
  // a role deleted under a user: no badge (an empty name shows none)
  return { name: row.role_name ?? '', color: row.role_color ?? '' };
}

/** `text` as a LIKE pattern that matches it literally (escape character: !). */
export interface ProfileRow {
  id: number;
  uuid: string;
  username: string;
  avatar: string | null;
  background: string | null;
  role: PersonRole;
  memberSince: string;
  minutesAfk: number;
  counters: Record<(typeof PROFILE_COUNTERS)[number], number>;
}

export class People {
  constructor(private readonly db: ServerPluginContext['db']) {}

  /** A user who is not banned, with their role and public numbers; null when there is none. */
  async profile(uuid: string): Promise<ProfileRow | null> {
    const row = await this.db
      .selectFrom('user_public as u')
      .select(['u.id', 'u.uuid', 'u.username', 'u.avatar', 'u.background', 'u.created_at', 'u.minutes_afk', 'u.role_name', 'u.role_color'])
      .where('u.uuid', '=', uuid)
      .where('u.banned', '=', 0)
      .executeTakeFirst();
    if (!row) return null;
    const counters = await this.db
      .selectFrom('user_counters')
      .select(['name', 'value'])
      .where('user_id', '=', row.id)
      .where('name', 'in', [...PROFILE_COUNTERS])
      .execute();
    const count = (name: string) => Math.max(0, Number(counters.find((c) => c.name === name)?.value ?? 0));
    return {
      id: row.id,
      uuid: row.uuid,
      username: row.username,
      avatar: row.avatar,
      background: row.background,
      role: roleOf(row),
      memberSince: row.created_at,
      minutesAfk: Number(row.minutes_afk),
      counters: { referrals: count('referrals'), servers: count('servers') },
    };
  }

  /**
   * Users whose name contains `text` (any case), names that start with it first, then by name; at
   * most NAME_SEARCH.maxResults. `text` must already be trimmed and long enough.
   */
  async searchByName(text: string): Promise<PersonMatch[]> {
    const needle = likeLiteral(text.toLowerCase());
    const rows = await this.db
      .selectFrom('user_public as u')
      .select(['u.uuid', 'u.username', 'u.avatar', 'u.role_name', 'u.role_color'])
      .where('u.banned', '=', 0)
      .where(sql<boolean>`u.username_lower like ${`%${needle}%`} escape '!'`)
      .orderBy(sql`case when u.username_lower like ${`${needle}%`} escape '!' then 0 else 1 end`)
      .orderBy('u.username_lower')
      .limit(NAME_SEARCH.maxResults)
      .execute();
    return rows.map((row) => ({ uuid: row.uuid, username: row.username, avatar: row.avatar, role: roleOf(row) }));
  }
}
