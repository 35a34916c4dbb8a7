// spec §3 early_supporters_enabled (with early_supporters_amount, the reference's 100): the first
// accounts of the panel are its early supporters, and the panel says so wherever it shows a person
// (a profile, the leaderboard). "The first N" are the N oldest accounts that still exist (lowest ids),
// so the rule needs nothing stored and every plugin that shows people answers alike.
import type { Kysely } from 'kysely';
import type { PluginReadableDatabase } from './database';
import type { PluginSettings } from './settings';

export const EARLY_SUPPORTER_SETTINGS = Object.freeze({ enabled: 'early_supporters_enabled', amount: 'early_supporters_amount' });

/**
 * Which of `userIds` are early supporters: none while the feature is off. One indexed query (the id
 * of the N-th account) however many ids are asked about.
 * @example const early = await earlySupporters(ctx, rows.map((r) => r.id));
 */
export async function earlySupporters(ctx: { db: Kysely<PluginReadableDatabase>; settings: Pick<PluginSettings, 'getMany'> }, userIds: readonly number[]): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const values = await ctx.settings.getMany([EARLY_SUPPORTER_SETTINGS.enabled, EARLY_SUPPORTER_SETTINGS.amount]);
  const amount = Number(values[EARLY_SUPPORTER_SETTINGS.amount]);
  if (values[EARLY_SUPPORTER_SETTINGS.enabled] !== true || !Number.isSafeInteger(amount) || amount < 1) return new Set();
  const last = await ctx.db
    .selectFrom('user_public')
    .select('id')
    .orderBy('id', 'asc')
    .limit(1)
    .offset(amount - 1)
    .executeTakeFirst();
  // fewer accounts than places: every account is one of the first
  const cutoff = last ? Number(last.id) : Number.POSITIVE_INFINITY;
  return new Set(userIds.filter((id) => id <= cutoff));
}
