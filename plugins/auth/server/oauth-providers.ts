// The OAuth2 providers a user can sign in with and link: Discord and GitHub, reached with node's
// fetch at base URLs that are settings (the real services by default; GitHub Enterprise or a local
// stand-in in tests). Each knows its authorize address, how it exchanges a code for an access token
// (with the client secret, server side) and where it tells who the user is — and the shapes of its
// errors: Discord answers a bad code with 400 { error: "invalid_grant" }, GitHub with
// 200 { error: "bad_verification_code" }.
import type { PluginSettings } from '@orepanel/sdk/server';
import type { OAuthProviderId } from './tables';

export const OAUTH_PROVIDER_IDS: readonly OAuthProviderId[] = ['discord', 'github'];

/** what a provider call can go wrong with: the user's code (stale, replayed) or the provider itself */
export type OAuthFailure = 'code_invalid' | 'provider_error';

export class OAuthProviderError extends Error {
  constructor(
    readonly failure: OAuthFailure,
    detail: string,
  ) {
    super(detail);
    this.name = 'OAuthProviderError';
  }
}

export interface ProviderConfig {
  clientId: string;
  clientSecret: string;
  /** the provider's web address (authorize and token endpoints), without a trailing slash */
  baseUrl: string;
  /** its API address (the user endpoint), without a trailing slash */
  apiUrl: string;
}

export interface ProviderProfile {
  /** the provider's stable user id, as text */
  id: string;
  /** the name to show on the account page */
  username: string;
}

export interface OAuthProvider {
  id: OAuthProviderId;
  /** the product's name, for messages */
  name: string;
  /** `extraScopes`: what a plugin's grant asks for beyond sign-in (oauth.ts, auth.oauth-grants) */
  authorizeUrl(config: ProviderConfig, state: string, redirectUri: string, extraScopes?: readonly string[]): string;
  exchangeCode(config: ProviderConfig, code: string, redirectUri: string): Promise<string>;
  fetchProfile(config: ProviderConfig, accessToken: string): Promise<ProviderProfile>;
}

const TIMEOUT_MS = 10_000;
/** Discord snowflakes and GitHub ids are decimal integers */
const NUMERIC_ID = /^\d{1,32}$/;

async function call(url: string, init: RequestInit): Promise<{ status: number; body: Record<string, unknown> }> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new OAuthProviderError('provider_error', `${new URL(url).host} could not be reached: ${(error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new OAuthProviderError('provider_error', `${new URL(url).host} answered ${response.status} with something other than JSON`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw new OAuthProviderError('provider_error', `${new URL(url).host} answered ${response.status} with unexpected JSON`);
  return { status: response.status, body: body as Record<string, unknown> };
}

function form(values: Record<string, string>): URLSearchParams {
  return new URLSearchParams(values);
}

function accessTokenOf(body: Record<string, unknown>, provider: string): string {
  const token = body.access_token;
  if (typeof token !== 'string' || token === '') throw new OAuthProviderError('provider_error', `${provider} answered without an access token`);
  return token;
}

function profileOf(id: unknown, username: unknown, provider: string): ProviderProfile {
  const text = typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : id;
  if (typeof text !== 'string' || !NUMERIC_ID.test(text)) throw new OAuthProviderError('provider_error', `${provider} answered with a user without an id`);
  return { id: text, username: typeof username === 'string' && username !== '' ? username.slice(0, 128) : text };
}

/** Discord: https://discord.com/developers/docs/topics/oauth2 (scope identify). */
const discord: OAuthProvider = {
  id: 'discord',
  name: 'Discord',
  authorizeUrl(config, state, redirectUri, extraScopes = []) {
    const scope = ['identify', ...extraScopes].join(' ');
    const query = new URLSearchParams({ response_type: 'code', client_id: config.clientId, scope, state, redirect_uri: redirectUri, prompt: 'none' });
    return `${config.baseUrl}/oauth2/authorize?${query}`;
  },
  async exchangeCode(config, code, redirectUri) {
    const { status, body } = await call(`${config.baseUrl}/api/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: config.clientId, client_secret: config.clientSecret }),
    });
    if (status === 200) return accessTokenOf(body, 'Discord');
    if (status === 400 && body.error === 'invalid_grant') throw new OAuthProviderError('code_invalid', 'Discord refused the code (invalid_grant)');
    throw new OAuthProviderError('provider_error', `Discord's token endpoint answered ${status} ${String(body.error ?? body.message ?? '')}`);
  },
  async fetchProfile(config, accessToken) {
    const { status, body } = await call(`${config.baseUrl}/api/users/@me`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } });
    if (status !== 200) throw new OAuthProviderError('provider_error', `Discord's user endpoint answered ${status} ${String(body.message ?? '')}`);
    return profileOf(body.id, body.username, 'Discord');
  },
};

/** GitHub: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps (no scope: public profile). */
const github: OAuthProvider = {
  id: 'github',
  name: 'GitHub',
  authorizeUrl(config, state, redirectUri, extraScopes = []) {
    // allow_signup=false: the panel signs in existing accounts, it does not send people to make one
    const query = new URLSearchParams({ client_id: config.clientId, redirect_uri: redirectUri, state, allow_signup: 'false' });
    if (extraScopes.length > 0) query.set('scope', extraScopes.join(' '));
    return `${config.baseUrl}/login/oauth/authorize?${query}`;
  },
  async exchangeCode(config, code, redirectUri) {
    const { status, body } = await call(`${config.baseUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: form({ client_id: config.clientId, client_secret: config.clientSecret, code, redirect_uri: redirectUri }),
    });
    // GitHub reports a refused exchange with 200 and an error field
    if (status === 200 && body.error === undefined) return accessTokenOf(body, 'GitHub');
    if (body.error === 'bad_verification_code') throw new OAuthProviderError('code_invalid', 'GitHub refused the code (bad_verification_code)');
    throw new OAuthProviderError('provider_error', `GitHub's token endpoint answered ${status} ${String(body.error ?? body.message ?? '')}`);
  },
  async fetchProfile(config, accessToken) {
    const { status, body } = await call(`${config.apiUrl}/user`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'Orepanel', 'x-github-api-version': '2022-11-28' },
    });
    if (status !== 200) throw new OAuthProviderError('provider_error', `GitHub's user endpoint answered ${status} ${String(body.message ?? '')}`);
    return profileOf(body.id, body.login, 'GitHub');
  },
};

export const OAUTH_PROVIDERS: Readonly<Record<OAuthProviderId, OAuthProvider>> = { discord, github };

/** the real services (the catalogue's defaults; also used when a URL setting is emptied) */
const DEFAULT_BASE_URLS: Readonly<Record<OAuthProviderId, string>> = { discord: 'https://discord.com', github: 'https://github.com' };
const DEFAULT_GITHUB_API_URL = 'https://api.github.com';

/** The setting keys of a provider (this plugin declares them in plugin.json). */
export function providerSettingKeys(id: OAuthProviderId) {
  return {
    enabled: `${id}_enabled`,
    clientId: `${id}_client_id`,
    clientSecret: `${id}_client_secret`,
    baseUrl: `${id}_base_url`,
    // Discord serves its API under the same host
    apiUrl: id === 'github' ? 'github_api_url' : null,
  } as const;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The provider's configuration when it is turned on and has a client id and secret; else null. */
export async function providerConfig(settings: PluginSettings, id: OAuthProviderId): Promise<ProviderConfig | null> {
  const keys = providerSettingKeys(id);
  const values = await settings.getMany([keys.enabled, keys.clientId, keys.clientSecret, keys.baseUrl, ...(keys.apiUrl ? [keys.apiUrl] : [])]);
  const text = (key: string | null) => (key && typeof values[key] === 'string' ? (values[key] as string).trim() : '');
  if (values[keys.enabled] !== true || !text(keys.clientId) || !text(keys.clientSecret)) return null;
  const baseUrl = trimSlash(text(keys.baseUrl) || DEFAULT_BASE_URLS[id]);
  return {
    clientId: text(keys.clientId),
    clientSecret: text(keys.clientSecret),
    baseUrl,
    apiUrl: keys.apiUrl ? trimSlash(text(keys.apiUrl) || DEFAULT_GITHUB_API_URL) : baseUrl,
  };
}
