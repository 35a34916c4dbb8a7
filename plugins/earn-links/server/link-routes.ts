// Link for rewards on the reference paths, all switched off with l4r_enabled:
// - GET /user/earn/l4r                          the providers on offer with their coins, today's
//   count against the daily limit and the cooldown left (the /earn/links page).
// - GET /user/earn/l4r/{provider}/start         a new single-use link: a browser is sent (302) to the
//   provider's short link, an API caller gets it as JSON.
// - GET /user/earn/l4r/{provider}/earn/{token}  where the provider sends the browser back: pays once.
// A browser always lands back on /earn/links with the outcome in the address (?l4r=paid&coins=… or
// ?l4r_error=<code>); an API caller gets JSON and 4xx { error: { code, message } }.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpError, isHttpError, wantsJson, type ServerPluginContext } from '@orepanel/sdk/server';
import { LINK_PROVIDER_IDS, LINK_TOKEN_PATTERN, type LinkProviderId } from '../shared/providers';
import { linkRefusals } from './link-errors';
import { cooldownLeftSeconds, secondsUntilNextDay, type LinkQuotas } from './link-quotas';
import type { LinkRedemption } from './link-redemption';
import type { LinkStart } from './link-start';
import { enabledProviders, providerConfig, type ProviderConfig } from './provider-config';

const PAGE = '/earn/links';

const providerParam = { type: 'string', enum: [...LINK_PROVIDER_IDS] } as const;

const startSchema = {
  params: { type: 'object', required: ['provider'], additionalProperties: false, properties: { provider: providerParam } },
  response: {
    200: {
      type: 'object',
      required: ['url', 'provider', 'not_before', 'expires_at'],
      properties: { url: { type: 'string' }, provider: { type: 'string' }, not_before: { type: 'string' }, expires_at: { type: 'string' } },
    },
    302: { description: 'A browser: to the shortened link', type: 'null' },
    303: { description: 'A browser refused: back to /earn/links?l4r_error=<code>', type: 'null' },
  },
} as const;

const earnSchema = {
  params: {
    type: 'object',
    required: ['provider', 'token'],
    additionalProperties: false,
    properties: { provider: providerParam, token: { type: 'string', pattern: LINK_TOKEN_PATTERN } },
  },
  response: {
    200: {
      type: 'object',
      required: ['success', 'provider', 'coins', 'balance'],
      properties: { success: { type: 'boolean' }, provider: { type: 'string' }, coins: { type: 'integer' }, balance: { type: 'integer' } },
    },
    303: { description: 'A browser: back to /earn/links with l4r=paid and the coins (or l4r_error=<code>)', type: 'null' },
  },
} as const;

const providerView = {
  type: 'object',
  required: ['id', 'name', 'coins', 'daily_limit', 'today', 'min_time_seconds', 'expire_seconds', 'cooldown_seconds', 'cooldown_left_seconds', 'available'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    coins: { type: 'integer' },
    daily_limit: { type: 'integer' },
    /** links completed today (UTC) */
    today: { type: 'integer' },
    min_time_seconds: { type: 'integer' },
    expire_seconds: { type: 'integer' },
    cooldown_seconds: { type: 'integer' },
    cooldown_left_seconds: { type: 'integer' },
    /** a link started now could be paid */
    available: { type: 'boolean' },
  },
} as const;

const listSchema = {
  response: {
    200: {
      type: 'object',
      required: ['providers', 'next_day_in_seconds'],
      properties: { providers: { type: 'array', items: providerView }, next_day_in_seconds: { type: 'integer' } },
    },
  },
} as const;

interface ProviderParams {
  provider: LinkProviderId;
}

interface EarnParams extends ProviderParams {
  token: string;
}

const invalidSession = () => httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');

export function registerLinkRoutes(app: FastifyInstance, ctx: ServerPluginContext, parts: { quotas: LinkQuotas; start: LinkStart; redemption: LinkRedemption }): void {
  /** The provider of the address, if it is switched on. */
  const offeredProvider = async (id: LinkProviderId): Promise<ProviderConfig> => {
    const provider = await providerConfig(ctx.settings, id);
    if (!provider.enabled) throw linkRefusals.providerDisabled(provider);
    return provider;
  };

  /** A browser goes back to the page with the refusal's code; an API caller gets the error itself. */
  const refuseToBrowser = (request: FastifyRequest, reply: FastifyReply, provider: LinkProviderId, error: unknown) => {
    if (wantsJson(request) || !isHttpError(error)) throw error;
    return reply.redirect(`${PAGE}?${new URLSearchParams({ l4r_error: error.code, provider })}`, 303);
  };

  app.get('/user/earn/l4r', { config: { auth: true, flag: 'l4r_enabled' }, schema: listSchema }, async (request, reply) => {
    const user = (await ctx.auth.currentUser(request))!;
    const now = ctx.clock.now();
    const providers = await Promise.all(
      (await enabledProviders(ctx.settings)).map(async (p) => {
        const quota = await parts.quotas.read(user.id, p.id, now);
        const cooldownLeft = cooldownLeftSeconds(quota, p, now);
        return {
          id: p.id,
          name: p.name,
          coins: p.coins,
          daily_limit: p.dailyLimit,
          today: quota.today,
          min_time_seconds: p.minTimeSeconds,
          expire_seconds: p.expireSeconds,
          cooldown_seconds: p.cooldownSeconds,
          cooldown_left_seconds: cooldownLeft,
          available: quota.today < p.dailyLimit && cooldownLeft === 0,
        };
      }),
    );
    reply.header('cache-control', 'no-store');
    return { providers, next_day_in_seconds: secondsUntilNextDay(now) };
  });

  app.get<{ Params: ProviderParams }>('/user/earn/l4r/:provider/start', { config: { auth: true, flag: 'l4r_enabled' }, schema: startSchema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { provider: id } = request.params;
    try {
      // a GET that changes state (a new token, the open one replaced): another site's page must not
      // be able to start links for the user — browsers say where a navigation came from
      if (request.headers['sec-fetch-site'] === 'cross-site') throw httpError(403, 'CROSS_SITE_REQUEST', 'Cross-site requests are not allowed.');
      const user = (await ctx.auth.currentUser(request))!;
      const provider = await offeredProvider(id);
      const started = await parts.start.start(request, user.id, provider);
      if (!wantsJson(request)) return reply.redirect(started.url, 302);
      return { url: started.url, provider: id, not_before: started.notBefore, expires_at: started.expiresAt };
    } catch (error) {
      return refuseToBrowser(request, reply, id, error);
    }
  });

  app.get<{ Params: EarnParams }>('/user/earn/l4r/:provider/earn/:token', { config: { flag: 'l4r_enabled' }, schema: earnSchema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { provider: id, token } = request.params;
    try {
      // the link pays the account that started it, in the browser that is signed in as it
      const user = await ctx.auth.currentUser(request);
      if (!user) throw invalidSession();
      const provider = await offeredProvider(id);
      const done = await parts.redemption.redeem(user.id, provider, token);
      if (!wantsJson(request)) return reply.redirect(`${PAGE}?${new URLSearchParams({ l4r: 'paid', provider: id, coins: String(done.coins) })}`, 303);
      return { success: true, provider: id, coins: done.coins, balance: done.balance };
    } catch (error) {
      return refuseToBrowser(request, reply, id, error);
    }
  });
}
