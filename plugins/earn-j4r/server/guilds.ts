// The guilds an administrator lists for join-for-rewards (j4r_guilds). A guild's Discord id is set
// when it is added and never changes: rewards name it, so changing it would open the guild to a
// second round of payments.
import type { Selectable } from 'kysely';
import { insertUnlessTaken, type DatabaseDialect, type HttpError } from '@orepanel/sdk/server';
import type { J4rDb, J4rGuildsTable } from './tables';

export interface GuildRow {
  id: number;
  guild_id: string;
  name: string;
  invite_url: string;
  icon_url: string | null;
  coins: number;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface NewGuild {
  guild_id: string;
  name: string;
  invite_url: string;
  icon_url: string | null;
  coins: number;
  enabled: boolean;
}

export type GuildChanges = Partial<Omit<NewGuild, 'guild_id'>>;

function rowOf(row: Selectable<J4rGuildsTable>): GuildRow {
  return { ...row, coins: Number(row.coins), enabled: Number(row.enabled) === 1 };
}

export class J4rGuilds {
  constructor(
    private readonly db: J4rDb,
    private readonly dialect: DatabaseDialect,
    private readonly httpError: (status: number, code: string, message: string, field?: string) => HttpError,
  ) {}

  private notFound(): HttpError {
    return this.httpError(404, 'J4R_GUILD_NOT_FOUND', 'That server is not on the join-for-rewards list.');
  }

  /** Every guild, in the order they were added. */
  async list(): Promise<GuildRow[]> {
    return (await this.db.selectFrom('j4r_guilds').selectAll().orderBy('id').execute()).map(rowOf);
  }

  /** The guilds users are offered (and paid for). */
  async listEnabled(): Promise<GuildRow[]> {
    return (await this.db.selectFrom('j4r_guilds').selectAll().where('enabled', '=', 1).orderBy('id').execute()).map(rowOf);
  }

  async get(id: number): Promise<GuildRow> {
    const row = await this.db.selectFrom('j4r_guilds').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) throw this.notFound();
    return rowOf(row);
  }

  /** How many users each guild has paid, by Discord guild id. */
  async claimCounts(): Promise<Map<string, number>> {
    const rows = await this.db
      .selectFrom('j4r_rewards')
      .select(['guild_id', (eb) => eb.fn.countAll<number | string>().as('n')])
      .groupBy('guild_id')
      .execute();
    return new Map(rows.map((r) => [r.guild_id, Number(r.n)]));
  }

  /** Adds a guild; 409 J4R_GUILD_EXISTS (field guild_id) when its Discord id is listed already. */
  async create(input: NewGuild): Promise<GuildRow> {
    const now = new Date().toISOString();
    const result = await insertUnlessTaken(
      this.dialect,
      this.db.insertInto('j4r_guilds').values({ ...input, enabled: input.enabled ? 1 : 0, created_at: now, updated_at: now }),
    ).executeTakeFirst();
    if (Number(result.numInsertedOrUpdatedRows ?? 0) !== 1) {
      throw this.httpError(409, 'J4R_GUILD_EXISTS', 'That Discord server is on the list already.', 'guild_id');
    }
    const row = await this.db.selectFrom('j4r_guilds').selectAll().where('guild_id', '=', input.guild_id).executeTakeFirstOrThrow();
    return rowOf(row);
  }

  async update(id: number, changes: GuildChanges): Promise<GuildRow> {
    const { enabled, ...rest } = changes;
    await this.db
      .updateTable('j4r_guilds')
      .set({ ...rest, ...(enabled === undefined ? {} : { enabled: enabled ? 1 : 0 }), updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
    // (MySQL counts changed rows, not matched ones: whether the guild exists is asked, not counted)
    return this.get(id);
  }

  /** Removes a guild from the list (what it paid stays paid, and is never paid again). */
  async delete(id: number): Promise<GuildRow> {
    const row = await this.get(id);
    const result = await this.db.deleteFrom('j4r_guilds').where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) !== 1) throw this.notFound();
    return row;
  }
}
