// The auth plugin's contract: the one file of it another plugin may import (only a plugin that lists
// "auth" in its plugin.json `requires`; the import rule of npm run lint holds it). It names the
// services the auth plugin provides in its register() and their types, and imports nothing of the
// plugin itself. Consumers get them with ctx.services.get(…) in start() or later (a route handler).
import { createServiceRef } from '@orepanel/sdk/server';
import type { FastifyReply, FastifyRequest } from 'fastify';

// auth.oauth-grants — the auth plugin's OAuth machinery (provider settings, the browser-bound
// single-use state, the code exchange, linked accounts) offered to plugins that need a provider's
// API on the user's behalf with more scopes than sign-in asks for: join-for-rewards reads the
// user's Discord guilds (scope `guilds`). The plugin owns a callback route at the provider's
// callback path for its purpose, /api/user/auth/callback/<provider>/<purpose> (the redirect URI to
// register with the provider, and where the state cookie is sent), begins the flow there or
// anywhere, and completes it in that route. Only the account linked to the user can be used: a
// grant links it when the user has none, and refuses another user's account — so one provider
// account never serves two panel users.

export type OAuthGrantProvider = 'discord' | 'github';

/** lower-case letters and digits, up to 8; not `login`, `link` or `unlink` (the auth plugin's own) */
export const OAUTH_GRANT_PURPOSE = /^[a-z][a-z0-9]{1,7}$/;

export interface OAuthGrantFlow {
  provider: OAuthGrantProvider;
  /** what the flow is for: a state begun for one purpose never completes another */
  purpose: string;
}

export interface OAuthGrantStart extends OAuthGrantFlow {
  /** scopes beyond the sign-in ones (Discord: identify), e.g. ['guilds'] */
  scopes: readonly string[];
}

/** What the provider sent the browser back with (the callback's query). */
export interface OAuthCallbackQuery {
  code?: string;
  state?: string;
  error?: string;
}

export interface OAuthGrantAccount {
  /** the provider's stable user id, as text */
  id: string;
  username: string;
}

export interface OAuthGrant {
  provider: OAuthGrantProvider;
  account: OAuthGrantAccount;
  /** the provider's access token: use it for this request, never store it (or seal it with ctx.secrets) */
  accessToken: string;
  /** the provider's API address without a trailing slash (Discord: its base URL setting, API paths start with /api) */
  apiUrl: string;
  /** 'linked' when this flow linked the account to the user just now */
  link: 'linked' | 'unchanged';
}

/**
 * Errors are http errors with the auth plugin's codes: 409 OAUTH_NOT_CONFIGURED, 400
 * OAUTH_STATE_INVALID (expired, used, another browser or another user), 400 OAUTH_DENIED, 400
 * OAUTH_CODE_INVALID, 502 OAUTH_PROVIDER_ERROR, 409 OAUTH_ACCOUNT_TAKEN (linked to another user),
 * 409 OAUTH_ALREADY_LINKED (the user is linked to a different account of that provider).
 */
export interface OAuthGrants {
  /** True when the provider is switched on and has a client id and secret. */
  available(provider: OAuthGrantProvider): Promise<boolean>;
  /** The provider account linked to the user, or null. */
  linkedAccount(userId: number, provider: OAuthGrantProvider): Promise<OAuthGrantAccount | null>;
  /** Begins a flow for the signed-in user: sets the state cookie on `reply`, resolves the provider's authorize address to send the browser to. */
  begin(request: FastifyRequest, reply: FastifyReply, userId: number, start: OAuthGrantStart): Promise<string>;
  /** The browser came back: uses the state up, exchanges the code, holds the linking rule, and hands over the token. */
  complete(request: FastifyRequest, query: OAuthCallbackQuery, userId: number, flow: OAuthGrantFlow): Promise<OAuthGrant>;
}

export const OAUTH_GRANTS = createServiceRef<OAuthGrants>('auth.oauth-grants');

// auth.two-factor — the auth plugin's check of an account's second factor, for a plugin that lets
// a fresh code stand in for the current password before a sensitive change (the account page: a new
// e-mail address or password).

export interface TwoFactorCheck {
  /** true when the account has two-factor authentication on */
  enabled(userId: number): Promise<boolean>;
  /** true when `code` is a TOTP code not accepted before or an unused recovery code; it is used up */
  accept(userId: number, code: string): Promise<boolean>;
}

export const TWO_FACTOR = createServiceRef<TwoFactorCheck>('auth.two-factor');
