// The user's side of join-for-rewards, on the reference paths:
// - GET /user/j4r/status   Discord available? which account is linked, what the user earned so far
// - GET /user/j4r/list     the listed guilds (icon, name, invite, reward) and which ones paid already
// - GET /user/j4r/check    begins the check: a Discord authorization (scope guilds) through the auth
//                          plugin's OAuth flow (auth.oauth-grants), 302 to Discord
// - GET /user/auth/callback/discord/j4r   Discord sends the browser back here: the grant completes
//                          (state, code, and the linking rule — only the Discord account linked to the
//                          user, or linked now), the guild list is read with the access token (held for
//                          this request only) and each joined guild is paid once.
// A browser is sent back to /earn/j4r (?j4r_paid=&j4r_coins= or ?j4r_error=<code>); an API caller
// (Accept: JSON) gets JSON and 4xx { error }. Everything answers 403 FEATURE_DISABLED while
// j4r_enabled is off.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { dataListSchema, isHttpError, wantsJson, type ServerPluginContext } from '@orepanel/sdk/server';
import { OAUTH_GRANTS, type OAuthCallbackQuery } from '../../auth/contract';
import { DiscordGuildsError, joinedGuildIds } from './discord-guilds';
import type { J4rGuilds } from './guilds';
import type { J4rRewards } from './rewards';

export const J4R_FLAG = 'j4r_enabled';
export const J4R_PAGE = '/earn/j4r';
const GRANT = { provider: 'discord', purpose: 'j4r' } as const;
const GUILDS_SCOPE = ['guilds'] as const;

const accountSchema = { type: ['object', 'null'], properties: { id: { type: 'string' }, username: { type: 'string' } } } as const;

const statusAnswer = {
  type: 'object',
  required: ['discord_available', 'discord_account', 'guilds_total', 'guilds_claimed', 'coins_earned'],
  properties: {
    discord_available: { type: 'boolean' },
    discord_account: accountSchema,
    guilds_total: { type: 'integer' },
    guilds_claimed: { type: 'integer' },
    coins_earned: { type: 'integer' },
  },
} as const;

const listAnswer = dataListSchema({
  type: 'object',
  properties: {
    guild_id: { type: 'string' },
    name: { type: 'string' },
    invite_url: { type: 'string' },
    icon_url: { type: ['string', 'null'] },
    coins: { type: 'integer' },
    claimed: { type: 'boolean' },
    claimed_coins: { type: ['integer', 'null'] },
    claimed_at: { type: ['string', 'null'] },
  },
});

const checkAnswer = {
  type: 'object',
  required: ['success', 'discord_account', 'coins_earned', 'results'],
  properties: {
    success: { type: 'boolean' },
    discord_account: accountSchema,
    coins_earned: { type: 'integer' },
    results: {
      type: 'array',
      items: {
        type: 'object',
        properties: { guild_id: { type: 'string' }, name: { type: 'string' }, coins: { type: 'integer' }, status: { type: 'string' } },
      },
    },
  },
} as const;

const callbackQuery = {
  // Discord may add parameters of its own; the ones read here are bounded
  type: 'object',
  properties: {
    code: { type: 'string', maxLength: 512 },
    state: { type: 'string', maxLength: 128 },
    error: { type: 'string', maxLength: 128 },
    error_description: { type: 'string', maxLength: 1024 },
  },
} as const;

export function registerUserRoutes(app: FastifyInstance, ctx: ServerPluginContext, guilds: J4rGuilds, rewards: J4rRewards): void {
  // asked for when a request needs it: services are handed over from start() on, never in register()
  const grants = () => ctx.services.get(OAUTH_GRANTS);
  const invalidSession = () => ctx.httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');

  /** A browser that followed a link gets the page back with the error's code; an API caller the error. */
  const answerError = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
    if (wantsJson(request) || !isHttpError(error)) throw error;
    return reply.redirect(`${J4R_PAGE}?${new URLSearchParams({ j4r_error: error.code })}`, 303);
  };

  const guildsOf = async (apiUrl: string, accessToken: string) => {
    try {
      return await joinedGuildIds(apiUrl, accessToken);
    } catch (error) {
      if (!(error instanceof DiscordGuildsError)) throw error;
      ctx.log.warn({ failure: error.failure, detail: error.message }, 'Discord guild list failed');
      if (error.failure === 'unauthorized')
        throw ctx.httpError(400, 'J4R_GUILDS_NOT_GRANTED', 'Discord did not let the panel see your servers. Allow it to know what servers you are in and check again.');
      if (error.failure === 'rate_limited') throw ctx.httpError(503, 'J4R_DISCORD_BUSY', 'Discord is busy. Please check again in a minute.');
      throw ctx.httpError(502, 'J4R_DISCORD_UNAVAILABLE', 'Discord could not be reached or answered unexpectedly. Please try again later.');
    }
  };

  app.get('/user/j4r/status', { config: { auth: true, flag: J4R_FLAG }, schema: { response: { 200: statusAnswer } } }, async (request) => {
    const user = (await ctx.auth.currentUser(request))!;
    const [available, account, listed, mine] = await Promise.all([
      grants().available('discord'),
      grants().linkedAccount(user.id, 'discord'),
      guilds.listEnabled(),
      rewards.of(user.id),
    ]);
    let earned = 0;
    for (const reward of mine.values()) earned += reward.coins;
    return {
      discord_available: available,
      discord_account: account,
      guilds_total: listed.length,
      guilds_claimed: listed.filter((g) => mine.has(g.guild_id)).length,
      coins_earned: earned,
    };
  });

  app.get('/user/j4r/list', { config: { auth: true, flag: J4R_FLAG }, schema: { response: { 200: listAnswer } } }, async (request) => {
    const user = (await ctx.auth.currentUser(request))!;
    const [listed, mine] = await Promise.all([guilds.listEnabled(), rewards.of(user.id)]);
    return {
      data: listed.map((g) => {
        const reward = mine.get(g.guild_id);
        return {
          guild_id: g.guild_id,
          name: g.name,
          invite_url: g.invite_url,
          icon_url: g.icon_url,
          coins: g.coins,
          claimed: reward !== undefined,
          claimed_coins: reward?.coins ?? null,
          claimed_at: reward?.created_at ?? null,
        };
      }),
    };
  });

  const checkRedirects = {
    302: { description: 'To Discord’s authorization page (scope guilds); Discord sends the browser back to the callback', type: 'null' },
    303: { description: 'A browser, when the check cannot begin: back to /earn/j4r?j4r_error=<code> (an API caller gets the 4xx)', type: 'null' },
  } as const;
  app.get('/user/j4r/check', { config: { auth: true, flag: J4R_FLAG }, schema: { response: checkRedirects } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      const user = (await ctx.auth.currentUser(request))!;
      if ((await guilds.listEnabled()).length === 0) throw ctx.httpError(409, 'J4R_NO_GUILDS', 'There are no servers to join right now.');
      return reply.redirect(await grants().begin(request, reply, user.id, { ...GRANT, scopes: GUILDS_SCOPE }), 302);
    } catch (error) {
      return answerError(request, reply, error);
    }
  });

  app.get<{ Querystring: OAuthCallbackQuery }>(
    '/user/auth/callback/discord/j4r',
    {
      config: { flag: J4R_FLAG },
      schema: {
        querystring: callbackQuery,
        response: { 200: checkAnswer, 303: { description: 'A browser: back to /earn/j4r?j4r_paid=&j4r_coins= (or j4r_error=<code>)', type: 'null' } },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        const user = await ctx.auth.currentUser(request);
        if (!user) throw invalidSession();
        const grant = await grants().complete(request, request.query, user.id, GRANT);
        const joined = await guildsOf(grant.apiUrl, grant.accessToken);
        const results = await rewards.payJoined(user.id, grant.account.id, joined);
        const paid = results.filter((r) => r.status === 'paid');
        const coins = paid.reduce((sum, r) => sum + r.coins, 0);
        await ctx.audit.record(request, {
          action: 'j4r.check',
          actorUserId: user.id,
          targetUserId: user.id,
          details: { discord_user_id: grant.account.id, paid: paid.length, coins, refused_elsewhere: results.filter((r) => r.status === 'claimed_elsewhere').length },
        });
        if (wantsJson(request)) return { success: true, discord_account: grant.account, coins_earned: coins, results };
        return reply.redirect(`${J4R_PAGE}?${new URLSearchParams({ j4r_paid: String(paid.length), j4r_coins: String(coins) })}`, 303);
      } catch (error) {
        return answerError(request, reply, error);
      }
    },
  );
}
