// The leaderboard plugin's API (reference path): GET /api/user/leaderboard/{type} — the top N of a
// board (leaderboard_limit) and the signed-in user's own place, even outside the top. Behind the
// spec §3 flag leaderboard_enabled.
import { defineServerPlugin, earlySupporters } from '@orepanel/sdk/server';
import { BOARD_TYPES, LEADERBOARD_LIMIT, type BoardType, type LeaderboardAnswer } from '../shared/boards';
import { LEADERBOARD_MIGRATIONS } from './indexes';
import { Rankings } from './rankings';

const rankedUser = {
  type: 'object',
  required: ['rank', 'uuid', 'username', 'avatar', 'role', 'value', 'early_supporter'],
  properties: {
    rank: { type: 'integer' },
    uuid: { type: 'string' },
    username: { type: 'string' },
    avatar: { type: ['string', 'null'] },
    role: { type: 'object', required: ['name', 'color'], properties: { name: { type: 'string' }, color: { type: 'string' } } },
    value: { type: 'integer' },
    early_supporter: { type: 'boolean' },
  },
} as const;

const answer = {
  type: 'object',
  required: ['type', 'limit', 'data', 'me'],
  properties: {
    type: { type: 'string' },
    limit: { type: 'integer' },
    data: { type: 'array', items: rankedUser },
    me: { type: 'object', required: ['rank', 'value'], properties: { rank: { type: ['integer', 'null'] }, value: { type: 'integer' } } },
  },
} as const;

/** The top N setting, kept inside what the API serves whatever was stored. */
function clampLimit(value: unknown): number {
  const n = Math.trunc(Number(value));
  if (!Number.isFinite(n)) return LEADERBOARD_LIMIT.default;
  return Math.min(LEADERBOARD_LIMIT.max, Math.max(LEADERBOARD_LIMIT.min, n));
}

export default defineServerPlugin({
  id: 'leaderboard',
  migrations: LEADERBOARD_MIGRATIONS,
  register(app, ctx) {
    const rankings = new Rankings(ctx.db);

    app.get<{ Params: { type: BoardType } }>(
      '/user/leaderboard/:type',
      {
        config: { auth: true, flag: 'leaderboard_enabled' },
        schema: {
          params: { type: 'object', required: ['type'], additionalProperties: false, properties: { type: { type: 'string', enum: [...BOARD_TYPES] } } },
          response: { 200: answer },
        },
      },
      async (request, reply): Promise<LeaderboardAnswer> => {
        const user = (await ctx.auth.currentUser(request))!;
        const { type } = request.params;
        const limit = clampLimit(await ctx.settings.get('leaderboard_limit'));
        const [data, me] = await Promise.all([rankings.top(type, limit, (ids) => earlySupporters(ctx, ids)), rankings.placeOf(type, user.id)]);
        // the user's own place is in the answer: never shared between accounts by a cache
        reply.header('cache-control', 'private, no-store');
        return { type, limit, data, me };
      },
    );
  },
});
