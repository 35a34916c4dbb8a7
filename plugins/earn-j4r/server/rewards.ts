// Paying for joined guilds. Each guild is its own wallet credit with the idempotency key
// j4r:<guild id>:<user id> and, in the same transaction, a reward row unique per (user, guild) and
// per (Discord account, guild): a check run twice, or twice at once, pays a guild once; a Discord
// account moved to another panel account earns nothing there for the guilds it was paid for already.
import { insertUnlessTaken, isHttpError, type ServerPluginContext } from '@orepanel/sdk/server';
import type { GuildRow, J4rGuilds } from './guilds';
import type { J4rDb, J4rTables } from './tables';

/** paid: now; already_paid: earlier, to this user; not_joined: the user is not a member; claimed_elsewhere: the Discord account earned it on another panel account */
export type GuildOutcome = 'paid' | 'already_paid' | 'not_joined' | 'claimed_elsewhere';

export interface GuildCheck {
  guild_id: string;
  name: string;
  /** paid now or earlier: what was paid; otherwise what joining pays */
  coins: number;
  status: GuildOutcome;
}

export interface UserReward {
  coins: number;
  created_at: string;
}

export const REWARD_KIND = 'j4r.reward';

/** thrown inside the wallet's transaction to undo the credit: the reward row could not be added */
class RewardTaken extends Error {}

export class J4rRewards {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: J4rDb,
    private readonly guilds: J4rGuilds,
  ) {}

  /** The user's rewards by Discord guild id. */
  async of(userId: number): Promise<Map<string, UserReward>> {
    const rows = await this.db.selectFrom('j4r_rewards').select(['guild_id', 'coins', 'created_at']).where('user_id', '=', userId).execute();
    return new Map(rows.map((r) => [r.guild_id, { coins: Number(r.coins), created_at: r.created_at }]));
  }

  /**
   * Guilds the Discord account earned on other panel accounts. Rows of this user are left out: they
   * are read separately (and maybe earlier), and a check paying at the same moment must read as
   * already_paid, never as claimed_elsewhere.
   */
  private async earnedElsewhere(userId: number, discordUserId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('j4r_rewards').select('guild_id').where('discord_user_id', '=', discordUserId).where('user_id', '<>', userId).execute();
    return new Set(rows.map((r) => r.guild_id));
  }

  /** After losing a race for a guild with no row of this user visible: did another panel account take it with this Discord account? */
  private async claimedByOther(guildId: string, userId: number, discordUserId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('j4r_rewards')
      .select('user_id')
      .where('guild_id', '=', guildId)
      .where('discord_user_id', '=', discordUserId)
      .where('user_id', '<>', userId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Pays every listed guild the user has joined and was not paid for; one outcome per listed guild. */
  async payJoined(userId: number, discordUserId: string, joined: ReadonlySet<string>): Promise<GuildCheck[]> {
    const [guilds, mine, account] = await Promise.all([this.guilds.listEnabled(), this.of(userId), this.earnedElsewhere(userId, discordUserId)]);
    const out: GuildCheck[] = [];
    // one guild after another: each is a transaction of its own, and a failure leaves the earlier ones paid
    for (const guild of guilds) {
      const earlier = mine.get(guild.guild_id);
      if (earlier) out.push({ guild_id: guild.guild_id, name: guild.name, coins: earlier.coins, status: 'already_paid' });
      else if (!joined.has(guild.guild_id)) out.push({ guild_id: guild.guild_id, name: guild.name, coins: guild.coins, status: 'not_joined' });
      else if (account.has(guild.guild_id)) out.push({ guild_id: guild.guild_id, name: guild.name, coins: guild.coins, status: 'claimed_elsewhere' });
      else out.push(await this.pay(userId, discordUserId, guild));
    }
    return out;
  }

  private async pay(userId: number, discordUserId: string, guild: GuildRow): Promise<GuildCheck> {
    const check = (status: GuildOutcome, coins = guild.coins): GuildCheck => ({ guild_id: guild.guild_id, name: guild.name, coins, status });
    try {
      const { replayed, entry } = await this.ctx.wallet.credit({
        userId,
        amount: guild.coins,
        kind: REWARD_KIND,
        reference: guild.name,
        idempotencyKey: `j4r:${guild.guild_id}:${userId}`,
        effect: async (trx) => {
          const inserted = await insertUnlessTaken(
            this.ctx.dialect,
            trx.withTables<J4rTables>().insertInto('j4r_rewards').values({
              user_id: userId,
              guild_id: guild.guild_id,
              discord_user_id: discordUserId,
              coins: guild.coins,
              created_at: new Date().toISOString(),
            }),
          ).executeTakeFirst();
          if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) throw new RewardTaken();
        },
      });
      return replayed ? check('already_paid', entry.delta) : check('paid');
    } catch (error) {
      // a check running at the same time paid it: for this user (its key or its reward row) or, for
      // this Discord account, on another panel account
      const keyTaken = isHttpError(error) && error.code === 'IDEMPOTENCY_CONFLICT';
      if (!keyTaken && !(error instanceof RewardTaken)) throw error;
      const earlier = (await this.of(userId)).get(guild.guild_id);
      if (earlier) return check('already_paid', earlier.coins);
      // the key is this user's own: whoever used it paid this user
      if (keyTaken) return check('already_paid');
      return (await this.claimedByOther(guild.guild_id, userId, discordUserId)) ? check('claimed_elsewhere') : check('already_paid');
    }
  }
}
