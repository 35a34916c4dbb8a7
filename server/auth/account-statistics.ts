// ctx.accountStats: figures over every account (how many, banned, unverified, with 2FA, signed in;
// sign-ups per day; who holds a support PIN), read from the database at each call.
import { sql, type Kysely } from 'kysely';
import type { AccountCounts, AccountStatistics, CoreDatabase, SupportPinAccount } from '../../sdk/server';
import type { RoleDirectory } from './roles';

/** the UTC day of an ISO timestamp; the column holds ISO-8601 text on every dialect */
const day = sql<string>`substr(created_at, 1, 10)`;

export class AccountFigures implements AccountStatistics {
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly roles: RoleDirectory,
  ) {}

  async counts(now = new Date()): Promise<AccountCounts> {
    const [users, sessions] = await Promise.all([
      this.db
        .selectFrom('users')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.sum<number>(sql`case when banned = 1 then 1 else 0 end`).as('banned'),
          eb.fn.sum<number>(sql`case when verified = 1 then 0 else 1 end`).as('unverified'),
          eb.fn.sum<number>(sql`case when two_fa_enabled = 1 then 1 else 0 end`).as('two_fa'),
        ])
        .executeTakeFirstOrThrow(),
      this.db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('revoked_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirstOrThrow(),
    ]);
    // SUM over no rows is NULL, and MySQL answers SUM as a decimal string
    return {
      total: Number(users.total),
      banned: Number(users.banned ?? 0),
      unverified: Number(users.unverified ?? 0),
      two_fa: Number(users.two_fa ?? 0),
      active_sessions: Number(sessions.n),
    };
  }

  async roleCount(): Promise<number> {
    const row = await this.db
      .selectFrom('roles')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async createdPerDay(since: Date): Promise<{ day: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('users')
      .select((eb) => [day.as('day'), eb.fn.countAll<number>().as('n')])
      .where('created_at', '>=', since.toISOString())
      .groupBy(day)
      .execute();
    return rows.map((r) => ({ day: r.day, count: Number(r.n) }));
  }

  async bySupportPin(pin: string): Promise<SupportPinAccount[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['uuid', 'username', 'first_name', 'last_name', 'email', 'role_id', 'banned', 'created_at'])
      .where('support_pin', '=', pin)
      .orderBy('id')
      .limit(10)
      .execute();
    return rows.map((r) => ({
      uuid: r.uuid,
      username: r.username,
      first_name: r.first_name,
      last_name: r.last_name,
      email: r.email,
      role: r.role_id,
      role_name: this.roles.get(r.role_id).realName,
      banned: r.banned === 1,
      created_at: r.created_at,
    }));
  }
}
