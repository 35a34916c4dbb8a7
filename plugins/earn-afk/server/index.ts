// The earn-afk plugin's API: GET /api/user/earn/afk (the rate, the daily cap and what is left today)
// and the AFK websocket /api/user/earn/afk/socket that pays server-observed minutes (afk-hub.ts).
// Both need a signed-in session and the afk_enabled flag; the socket also the origin check.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { AFK_SOCKET_PATH, AFK_STATUS_PATH, DAY_MS, HEARTBEAT_GAP_MS, HEARTBEAT_INTERVAL_MS } from '../shared/protocol';
import { AfkHub } from './afk-hub';
import { AfkPayouts, dayOf } from './payouts';
import { AFK_MIGRATIONS } from './tables';

const API_PREFIX = '/api';

const statusSchema = {
  type: 'object',
  required: ['rate', 'daily_cap', 'earned_today', 'remaining_today', 'resets_at', 'minutes_afk', 'heartbeat_interval_ms', 'heartbeat_gap_ms', 'socket_path'],
  properties: {
    rate: { type: 'integer' },
    daily_cap: { type: 'integer' },
    earned_today: { type: 'integer' },
    remaining_today: { type: 'integer' },
    resets_at: { type: 'string' },
    minutes_afk: { type: 'integer' },
    heartbeat_interval_ms: { type: 'integer' },
    heartbeat_gap_ms: { type: 'integer' },
    socket_path: { type: 'string' },
  },
} as const;

export default defineServerPlugin({
  id: 'earn-afk',
  migrations: AFK_MIGRATIONS,
  register(app, ctx) {
    const payouts = new AfkPayouts(ctx);
    const hub = new AfkHub(ctx, payouts);
    // before the database closes: leases are released and the last minutes settled
    app.addHook('preClose', async () => {
      await hub.stop();
    });

    app.get(AFK_STATUS_PATH.slice(API_PREFIX.length), { config: { auth: true, flag: 'afk_enabled' }, schema: { response: { 200: statusSchema } } }, async (request, reply) => {
      const user = (await ctx.auth.currentUser(request))!;
      const today = dayOf(ctx.clock.now());
      const [rates, earned, row] = await Promise.all([
        payouts.rates(),
        payouts.earnedOn(user.id, today),
        ctx.db.selectFrom('user_public').select('minutes_afk').where('id', '=', user.id).executeTakeFirstOrThrow(),
      ]);
      reply.header('cache-control', 'no-store');
      return {
        rate: rates.rate,
        daily_cap: rates.dailyCap,
        earned_today: earned,
        remaining_today: Math.max(0, rates.dailyCap - earned),
        resets_at: new Date((today + 1) * DAY_MS).toISOString(),
        minutes_afk: Number(row.minutes_afk),
        heartbeat_interval_ms: HEARTBEAT_INTERVAL_MS,
        heartbeat_gap_ms: HEARTBEAT_GAP_MS,
        socket_path: AFK_SOCKET_PATH,
      };
    });

    app.get(AFK_SOCKET_PATH.slice(API_PREFIX.length), { websocket: true, config: { auth: true, flag: 'afk_enabled' } }, (socket, request) => hub.open(socket, request));
  },
});
