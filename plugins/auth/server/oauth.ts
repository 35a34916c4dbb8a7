// Discord and GitHub sign-in and account linking — the OAuth2 authorization-code flow, on the
// reference paths (so the redirect URIs registered with an existing panel's apps keep working):
// - GET  /user/auth/callback/{discord|github}/login    without code/state: a new state (bound to
//        this browser, oauth-state.ts), then 302 to the provider. With them (the provider sends the
//        browser back): the state is used up, the code exchanged server side with the client secret,
//        the provider account looked up, and the user signed in as a password login would
//        (2FA still applies) — only an account already linked; nobody is created.
// - GET  /user/auth/callback/{discord|github}/link     the same flow for the signed-in user: links
//        the provider account (one panel user per provider account).
// - POST /user/auth/callback/{discord|github}/unlink   removes the link (POST, not the reference's
//        GET: a state change must not be reachable by a link on another site).
// - GET  /user/auth/oauth/accounts                     the user's links and which providers are on.
// A browser gets redirects (success: the after-login route, /auth/2fa/verify or /account; failure:
// /auth/login or /account with ?oauth_error=<code>&provider=<id>); an API caller (Accept: JSON)
// gets JSON and 4xx { error: { code, message } }.
// registerOAuth also returns the same flow for other plugins (auth.oauth-grants, sdk/oauth-grants.ts):
// a grant begins and completes at /user/auth/callback/{provider}/{purpose} (a route of the asking
// plugin), links like a link flow does, and hands the provider's access token over unstored.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isHttpError, type ServerPluginContext, wantsJson } from '@orepanel/sdk/server';
import { OAUTH_GRANT_PURPOSE, type OAuthCallbackQuery, type OAuthGrantFlow, type OAuthGrants } from '../contract';
import { OAuthLinks } from './oauth-links';
import { OAUTH_PROVIDER_IDS, OAUTH_PROVIDERS, OAuthProviderError, providerConfig, type OAuthProvider, type ProviderConfig, type ProviderProfile } from './oauth-providers';
import { OAuthStates } from './oauth-state';
import { successOnly } from './responses';
import { signInAs } from './sign-in';
import type { AuthDb, OAuthProviderId, OAuthPurpose } from './tables';

/** where a browser lands after a failed flow, by what it was doing */
const ERROR_PAGES: Readonly<Record<OAuthPurpose, string>> = { login: '/auth/login', link: '/account' };
/** spec §2 rule 4: the kernel's after-login route (the saved target, or the dashboard) */
const AFTER_LOGIN_PATH = '/auth/after-login';
/** the actions of this plugin's own callback routes: no grant may take them */
const OWN_ACTIONS: ReadonlySet<string> = new Set(['login', 'link', 'unlink']);
/** a scope as providers spell them (Discord: guilds, guilds.join; GitHub: read:user) */
const SCOPE = /^[a-z0-9._:]{1,64}$/;

interface CallbackParams {
  provider: OAuthProviderId;
  action: OAuthPurpose;
}

interface CallbackQuery {
  code?: string;
  state?: string;
  error?: string;
  error_description?: string;
}

const providerParam = { type: 'string', enum: [...OAUTH_PROVIDER_IDS] } as const;

const callbackSchema = {
  params: {
    type: 'object',
    required: ['provider', 'action'],
    additionalProperties: false,
    properties: { provider: providerParam, action: { type: 'string', enum: ['login', 'link'] } },
  },
  // providers may add parameters of their own; the ones read here are bounded
  querystring: {
    type: 'object',
    properties: {
      code: { type: 'string', maxLength: 512 },
      state: { type: 'string', maxLength: 128 },
      error: { type: 'string', maxLength: 128 },
      error_description: { type: 'string', maxLength: 1024 },
    },
  },
  response: {
    200: {
      type: 'object',
      required: ['success'],
      properties: { success: { type: 'boolean' }, two_fa_required: { type: 'boolean' }, provider: { type: 'string' }, provider_username: { type: 'string' } },
    },
    302: { description: 'A browser beginning: to the provider’s authorization page', type: 'null' },
    303: { description: 'A browser coming back: into the panel (signed in, /auth/2fa/verify or /account), or to the error page with oauth_error', type: 'null' },
  },
} as const;

const linkedAccountsResponse = {
  type: 'object',
  required: ['data', 'providers'],
  properties: {
    data: {
      type: 'array',
      items: {
        type: 'object',
        properties: { provider: { type: 'string' }, provider_user_id: { type: 'string' }, provider_username: { type: 'string' }, linked_at: { type: 'string' } },
      },
    },
    providers: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, available: { type: 'boolean' } } },
    },
  },
} as const;

export function registerOAuth(app: FastifyInstance, ctx: ServerPluginContext, db: AuthDb): OAuthGrants {
  const states = new OAuthStates(db, ctx.clock);
  const links = new OAuthLinks(db, ctx.httpError);

  const notConfigured = (provider: OAuthProvider) => ctx.httpError(409, 'OAUTH_NOT_CONFIGURED', `Signing in with ${provider.name} is not available.`);
  const stateInvalid = () => ctx.httpError(400, 'OAUTH_STATE_INVALID', 'This sign-in attempt has expired or was started in another browser. Please try again.');
  const codeInvalid = (provider: OAuthProvider) => ctx.httpError(400, 'OAUTH_CODE_INVALID', `${provider.name} did not accept the sign-in. Please try again.`);
  const invalidSession = () => ctx.httpError(401, 'INVALID_SESSION', 'Your session has expired or is invalid.');

  /** The redirect URI, the same at the authorize step and at the code exchange. */
  const callbackUrl = async (request: FastifyRequest, provider: OAuthProvider, action: string): Promise<string> => {
    let base: string;
    try {
      base = await ctx.mail.publicUrl(request);
    } catch {
      // without APP_URL / app_url there is no address to register with the provider
      throw notConfigured(provider);
    }
    return `${base}/api/user/auth/callback/${provider.id}/${action}`;
  };

  /** Code → access token → who the user is at the provider. */
  const providerAccount = async (
    provider: OAuthProvider,
    config: ProviderConfig,
    code: string,
    redirectUri: string,
  ): Promise<{ profile: ProviderProfile; accessToken: string }> => {
    try {
      const accessToken = await provider.exchangeCode(config, code, redirectUri);
      return { profile: await provider.fetchProfile(config, accessToken), accessToken };
    } catch (error) {
      if (!(error instanceof OAuthProviderError)) throw error;
      ctx.log.warn({ provider: provider.id, failure: error.failure, detail: error.message }, 'OAuth provider call failed');
      if (error.failure === 'code_invalid') throw codeInvalid(provider);
      throw ctx.httpError(502, 'OAUTH_PROVIDER_ERROR', `${provider.name} could not be reached or answered unexpectedly. Please try again later.`);
    }
  };

  /** A new state bound to this browser; the provider's authorize address to send it to. */
  const authorizeAt = async (
    request: FastifyRequest,
    reply: FastifyReply,
    provider: OAuthProvider,
    config: ProviderConfig,
    purpose: string,
    userId: number | null,
    redirectUri: string,
    scopes: readonly string[] = [],
  ) => {
    const state = await states.begin(request, reply, { provider: provider.id, purpose, userId });
    return provider.authorizeUrl(config, state, redirectUri, scopes);
  };

  /** The provider sent the browser back: the state used up (who began the flow), the code exchanged. */
  const returned = async (request: FastifyRequest, query: OAuthCallbackQuery, provider: OAuthProvider, config: ProviderConfig, purpose: string, redirectUri: string) => {
    const started = await states.finish(request, query.state ?? '', provider.id, purpose);
    if (!started) throw stateInvalid();
    // the user said no at the provider (error=access_denied) or the provider refused the request
    if (query.error !== undefined) throw ctx.httpError(400, 'OAUTH_DENIED', `${provider.name} did not authorise the sign-in.`);
    if (!query.code) throw codeInvalid(provider);
    return { startedBy: started.userId, ...(await providerAccount(provider, config, query.code, redirectUri)) };
  };

  const start = async (request: FastifyRequest, reply: FastifyReply, provider: OAuthProvider, config: ProviderConfig, action: OAuthPurpose, redirectUri: string) => {
    let userId: number | null = null;
    if (action === 'link') {
      const user = await ctx.auth.currentUser(request);
      if (!user) throw invalidSession();
      userId = user.id;
    }
    return reply.redirect(await authorizeAt(request, reply, provider, config, action, userId, redirectUri), 302);
  };

  const finishLogin = async (request: FastifyRequest, reply: FastifyReply, provider: OAuthProvider, profile: ProviderProfile) => {
    const userId = await links.userFor(provider.id, profile.id);
    if (userId === null) {
      await ctx.audit.record(request, { action: 'auth.oauth_login_failed', actorUserId: null, targetUserId: null, details: { provider: provider.id } });
      throw ctx.httpError(401, 'OAUTH_ACCOUNT_NOT_LINKED', `No account is linked to this ${provider.name} account. Log in with your password and link it on your account page.`);
    }
    await links.rememberName(provider.id, profile);
    const { twoFaPending } = await signInAs(ctx, request, reply, userId, 'auth.oauth_login', { provider: provider.id });
    if (wantsJson(request)) return { success: true, two_fa_required: twoFaPending };
    return reply.redirect(twoFaPending ? '/auth/2fa/verify' : AFTER_LOGIN_PATH, 303);
  };

  /** Links the provider account to the user (audited), or refuses it (OAUTH_ACCOUNT_TAKEN / OAUTH_ALREADY_LINKED). */
  const linkAccount = async (request: FastifyRequest, userId: number, provider: OAuthProvider, profile: ProviderProfile) => {
    try {
      const outcome = await links.link(userId, provider.id, profile, provider.name);
      if (outcome === 'linked') {
        await ctx.audit.record(request, {
          action: 'auth.oauth_link',
          actorUserId: userId,
          targetUserId: userId,
          details: { provider: provider.id, provider_username: profile.username },
        });
      }
      return outcome;
    } catch (error) {
      if (isHttpError(error)) {
        await ctx.audit.record(request, { action: 'auth.oauth_link_refused', actorUserId: userId, targetUserId: userId, details: { provider: provider.id, reason: error.code } });
      }
      throw error;
    }
  };

  const finishLink = async (request: FastifyRequest, reply: FastifyReply, provider: OAuthProvider, profile: ProviderProfile, startedBy: number | null) => {
    const user = await ctx.auth.currentUser(request);
    if (!user) throw invalidSession();
    // the flow belongs to the account that started it (not to whoever signed in meanwhile)
    if (user.id !== startedBy) throw stateInvalid();
    await linkAccount(request, user.id, provider, profile);
    if (wantsJson(request)) return { success: true, provider: provider.id, provider_username: profile.username };
    return reply.redirect(`/account?oauth_linked=${provider.id}`, 303);
  };

  app.get<{ Params: CallbackParams; Querystring: CallbackQuery }>(
    '/user/auth/callback/:provider/:action',
    { config: { rateLimit: 'auth.login' }, schema: callbackSchema },
    async (request, reply) => {
      const { action } = request.params;
      const provider = OAUTH_PROVIDERS[request.params.provider];
      const query = request.query;
      reply.header('cache-control', 'no-store');
      try {
        const config = await providerConfig(ctx.settings, provider.id);
        if (!config) throw notConfigured(provider);
        const redirectUri = await callbackUrl(request, provider, action);
        if (query.code === undefined && query.state === undefined && query.error === undefined) {
          return await start(request, reply, provider, config, action, redirectUri);
        }
        const { startedBy, profile } = await returned(request, query, provider, config, action, redirectUri);
        return action === 'login' ? await finishLogin(request, reply, provider, profile) : await finishLink(request, reply, provider, profile, startedBy);
      } catch (error) {
        if (wantsJson(request) || !isHttpError(error)) throw error;
        return reply.redirect(`${ERROR_PAGES[action]}?${new URLSearchParams({ oauth_error: error.code, provider: provider.id })}`, 303);
      }
    },
  );

  app.post<{ Params: { provider: OAuthProviderId } }>(
    '/user/auth/callback/:provider/unlink',
    {
      config: { auth: true },
      schema: {
        params: { type: 'object', required: ['provider'], additionalProperties: false, properties: { provider: providerParam } },
        response: { 200: successOnly },
      },
    },
    async (request) => {
      const user = (await ctx.auth.currentUser(request))!;
      const provider = OAUTH_PROVIDERS[request.params.provider];
      const removed = await links.unlink(user.id, provider.id);
      if (!removed) throw ctx.httpError(404, 'OAUTH_NOT_LINKED', `Your account is not linked to a ${provider.name} account.`);
      await ctx.audit.record(request, {
        action: 'auth.oauth_unlink',
        actorUserId: user.id,
        targetUserId: user.id,
        details: { provider: provider.id, provider_username: removed.provider_username },
      });
      return { success: true };
    },
  );

  app.get('/user/auth/oauth/accounts', { config: { auth: true }, schema: { response: { 200: linkedAccountsResponse } } }, async (request) => {
    const user = (await ctx.auth.currentUser(request))!;
    const providers = await Promise.all(
      OAUTH_PROVIDER_IDS.map(async (id) => ({ id, name: OAUTH_PROVIDERS[id].name, available: (await providerConfig(ctx.settings, id)) !== null })),
    );
    return { data: await links.listFor(user.id), providers };
  });

  // auth.oauth-grants: the same flow for another plugin's purpose and scopes (sdk/oauth-grants.ts)
  const grantProvider = (flow: OAuthGrantFlow) => {
    if (!OAUTH_GRANT_PURPOSE.test(flow.purpose) || OWN_ACTIONS.has(flow.purpose)) throw new TypeError(`auth.oauth-grants: "${flow.purpose}" cannot be a grant's purpose`);
    return OAUTH_PROVIDERS[flow.provider];
  };
  const configOf = async (provider: OAuthProvider) => {
    const config = await providerConfig(ctx.settings, provider.id);
    if (!config) throw notConfigured(provider);
    return config;
  };
  return {
    available: async (id) => (await providerConfig(ctx.settings, id)) !== null,
    async linkedAccount(userId, id) {
      const link = (await links.listFor(userId)).find((l) => l.provider === id);
      return link ? { id: link.provider_user_id, username: link.provider_username } : null;
    },
    async begin(request, reply, userId, grant) {
      const provider = grantProvider(grant);
      const bad = grant.scopes.find((scope) => !SCOPE.test(scope));
      if (bad !== undefined) throw new TypeError(`auth.oauth-grants: "${bad}" is not a scope`);
      const config = await configOf(provider);
      return authorizeAt(request, reply, provider, config, grant.purpose, userId, await callbackUrl(request, provider, grant.purpose), grant.scopes);
    },
    async complete(request, query, userId, flow) {
      const provider = grantProvider(flow);
      const config = await configOf(provider);
      const { startedBy, profile, accessToken } = await returned(request, query, provider, config, flow.purpose, await callbackUrl(request, provider, flow.purpose));
      // the flow belongs to the account that began it (not to whoever signed in meanwhile)
      if (startedBy !== userId) throw stateInvalid();
      const link = await linkAccount(request, userId, provider, profile);
      return { provider: provider.id, account: profile, accessToken, apiUrl: config.apiUrl, link };
    },
  };
}
