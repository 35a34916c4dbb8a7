// Discord and GitHub sign-in and account linking: the real OAuth2 authorization-code flow against
// local stand-ins of the providers (tests/fixtures/oauth-provider.ts) — the panel redirects to the
// provider with a state bound to the browser, the stand-in "approves" and redirects back with a
// code, and the panel exchanges the code server side with the client secret. Checked: the happy
// paths for both providers (browser redirects and JSON), state bound to the browser and single
// use, a replayed code, linking rules (one panel user per provider account), unlinking, sign-in
// for an unlinked provider account, 2FA and bans as a password login has them, provider errors.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { AuthTables } from '../server/tables';
import { totpCode, totpStep } from '../server/totp';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { startOAuthProvider, type OAuthProviderStandIn, type StandInKind, type StandInUser } from '../../../tests/fixtures/oauth-provider';
import { countRows, register, setCookies, startPanel, testDialects, type TestPanel } from '../../../tests/api/harness';

const PANEL_URL = 'http://panel.test';
const JSON_ACCEPT = { accept: 'application/json' };

/** A browser's cookie jar: what the panel set, sent back on the next request (as a browser would). */
class Browser {
  private readonly jar = new Map<string, string>();

  constructor(cookie = '') {
    for (const pair of cookie.split(';')) {
      const eq = pair.indexOf('=');
      if (eq > 0) this.jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  }

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  has(name: string): boolean {
    return this.jar.has(name);
  }

  remember(response: LightMyRequestResponse): LightMyRequestResponse {
    for (const [name, { value, attributes }] of Object.entries(setCookies(response))) {
      if (value === '' || attributes['max-age'] === '0') this.jar.delete(name);
      else this.jar.set(name, value);
    }
    return response;
  }
}

let userCounter = 0;
const providerUser = (kind: StandInKind): StandInUser => {
  userCounter++;
  return kind === 'discord'
    ? { id: `80351110224678${String(1000 + userCounter)}`, username: `disco_${userCounter}` }
    : { id: 583231 + userCounter, username: `octo-${userCounter}` };
};

describe.each(testDialects())('OAuth sign-in and linking on %s', (dialect) => {
  let panel: TestPanel;
  const providers = {} as Record<StandInKind, OAuthProviderStandIn>;
  // ctx.clock: the state's lifetime runs on it; time stands still until a test moves it
  const clock = new ManualClock(Date.now());

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false, clock });
    providers.discord = await startOAuthProvider('discord');
    providers.github = await startOAuthProvider('github');
    await panel.services.settings.set('app_url', PANEL_URL);
  });
  afterAll(async () => {
    await providers.discord?.close();
    await providers.github?.close();
    await panel?.close();
  });

  /** Both providers on, with the stand-ins' addresses and credentials (some tests change one). */
  async function configure(kind: StandInKind, overrides: Record<string, string | boolean> = {}) {
    const p = providers[kind];
    const values: Record<string, string | boolean> = {
      [`${kind}_enabled`]: true,
      [`${kind}_client_id`]: p.clientId,
      [`${kind}_client_secret`]: p.clientSecret,
      [`${kind}_base_url`]: p.url,
      ...(kind === 'github' ? { github_api_url: p.url } : {}),
      ...overrides,
    };
    for (const [key, value] of Object.entries(values)) await panel.services.settings.set(key, value);
  }
  beforeEach(async () => {
    await configure('discord');
    await configure('github');
  });

  const db = () => panel.services.database.db.withTables<AuthTables>();
  const get = (browser: Browser, url: string, json = false) =>
    panel.app.inject({ url, headers: { cookie: browser.cookie, ...(json ? JSON_ACCEPT : {}) } }).then((r) => browser.remember(r));
  const sessionOf = (browser: Browser) => panel.app.inject({ url: '/api/user/session', headers: { cookie: browser.cookie } });
  const linksOf = async (browser: Browser) => {
    const res = await panel.app.inject({ url: '/api/user/auth/oauth/accounts', headers: { cookie: browser.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { provider: string; provider_user_id: string; provider_username: string }[]; providers: { id: string; available: boolean }[] };
  };
  const audits = (action: string) => db().selectFrom('audit_log').select(['actor_user_id', 'target_user_id', 'details']).where('action', '=', action).orderBy('id').execute();
  const signedIn = async () => {
    const { cookie, response } = await register(panel.app);
    const uuid = response.json().user.uuid as string;
    const { id } = await db().selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { browser: new Browser(cookie), uuid, id };
  };

  /** The panel's first step: 302 to the provider's authorize page; its URL. */
  async function start(browser: Browser, kind: StandInKind, action: 'login' | 'link'): Promise<URL> {
    const res = await get(browser, `/api/user/auth/callback/${kind}/${action}`);
    expect(res.statusCode, res.body).toBe(302);
    return new URL(res.headers.location as string);
  }

  /** The provider's authorize page (approving as `user`): the callback path the browser is sent back to. */
  async function authorize(kind: StandInKind, authorizeUrl: URL, user: StandInUser | null): Promise<string> {
    if (user) providers[kind].approveAs(user);
    else providers[kind].denyNext();
    const res = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(back.origin).toBe(PANEL_URL);
    return `${back.pathname}${back.search}`;
  }

  /** A whole flow in one browser; the panel's answer to the callback. */
  async function flow(browser: Browser, kind: StandInKind, action: 'login' | 'link', user: StandInUser, json = false) {
    const callback = await authorize(kind, await start(browser, kind, action), user);
    return get(browser, callback, json);
  }

  const expectErrorRedirect = (res: LightMyRequestResponse, page: string, code: string, kind: StandInKind) => {
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`${page}?oauth_error=${code}&provider=${kind}`);
    expect(setCookies(res)['op_session']).toBeUndefined();
  };

  it('shows a provider to browsers only as public flags: on, and its client id; never the secret', async () => {
    const settings = (await panel.app.inject({ url: '/api/system/settings' })).json() as Record<string, unknown>;
    const flat = JSON.stringify(settings);
    expect(flat).toContain('"discord_enabled":true');
    expect(flat).toContain(providers.github.clientId);
    expect(flat).not.toContain(providers.discord.clientSecret);
    expect(flat).not.toContain(providers.github.clientSecret);
    expect(flat).not.toContain('discord_base_url');
  });

  it('starts at the provider with a state bound to this browser by an HttpOnly cookie', async () => {
    const browser = new Browser();
    const res = await get(browser, '/api/user/auth/callback/discord/login');
    expect(res.statusCode).toBe(302);
    const url = new URL(res.headers.location as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${providers.discord.url}/oauth2/authorize`);
    expect(url.searchParams.get('client_id')).toBe(providers.discord.clientId);
    expect(url.searchParams.get('redirect_uri')).toBe(`${PANEL_URL}/api/user/auth/callback/discord/login`);
    expect(url.searchParams.get('scope')).toBe('identify');
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = setCookies(res)['op_oauth'];
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/api/user/auth/callback' });
    // neither the state nor the browser's nonce is stored in the clear
    const rows = JSON.stringify(await db().selectFrom('auth_oauth_states').selectAll().execute());
    expect(rows).not.toContain(url.searchParams.get('state'));
    expect(rows).not.toContain(cookie.value);

    const github = new URL((await get(browser, '/api/user/auth/callback/github/login')).headers.location as string);
    expect(`${github.origin}${github.pathname}`).toBe(`${providers.github.url}/login/oauth/authorize`);
    expect(github.searchParams.get('redirect_uri')).toBe(`${PANEL_URL}/api/user/auth/callback/github/login`);
  });

  for (const kind of ['discord', 'github'] as const) {
    it(`${kind}: links the signed-in user's account, then signs in with it (a fresh session)`, async () => {
      const me = await signedIn();
      const account = providerUser(kind);
      const linked = await flow(me.browser, kind, 'link', account);
      expect(linked.statusCode, linked.body).toBe(303);
      expect(linked.headers.location).toBe(`/account?oauth_linked=${kind}`);
      const links = await linksOf(me.browser);
      expect(links.data).toEqual([expect.objectContaining({ provider: kind, provider_user_id: String(account.id), provider_username: account.username })]);
      expect(links.providers.find((p) => p.id === kind)?.available).toBe(true);
      expect(JSON.parse((await audits('auth.oauth_link')).at(-1)!.details)).toEqual({ provider: kind, provider_username: account.username });
      // the code went to the provider server side, with the secret and the same redirect_uri
      const exchange = providers[kind].tokenRequests.at(-1)!;
      expect(exchange.contentType).toContain('application/x-www-form-urlencoded');
      expect(exchange.params).toMatchObject({
        client_id: providers[kind].clientId,
        client_secret: providers[kind].clientSecret,
        redirect_uri: `${PANEL_URL}/api/user/auth/callback/${kind}/link`,
      });

      const other = await signedIn(); // a browser signed in as someone else: the login replaces that session
      const signIn = await flow(other.browser, kind, 'login', account);
      expect(signIn.statusCode, signIn.body).toBe(303);
      expect(signIn.headers.location).toBe('/auth/after-login');
      const session = await sessionOf(other.browser);
      expect(session.statusCode).toBe(200);
      expect(session.json().user_info.uuid).toBe(me.uuid);
      expect((await audits('auth.oauth_login')).at(-1)).toMatchObject({ actor_user_id: me.id, target_user_id: me.id });
    });

    it(`${kind}: answers JSON callers with JSON`, async () => {
      const me = await signedIn();
      const account = providerUser(kind);
      const linked = await flow(me.browser, kind, 'link', account, true);
      expect(linked.statusCode, linked.body).toBe(200);
      expect(linked.json()).toEqual({ success: true, provider: kind, provider_username: account.username });
      const login = await flow(new Browser(), kind, 'login', account, true);
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json()).toEqual({ success: true, two_fa_required: false });
      expect(setCookies(login)['op_session']?.value).toBeTruthy();
    });

    it(`${kind}: refuses to sign in with a provider account no user linked, and creates nobody`, async () => {
      const users = await countRows(panel, 'users');
      const browser = new Browser();
      expectErrorRedirect(await flow(browser, kind, 'login', providerUser(kind)), '/auth/login', 'OAUTH_ACCOUNT_NOT_LINKED', kind);
      const json = await flow(new Browser(), kind, 'login', providerUser(kind), true);
      expect(json.statusCode).toBe(401);
      expect(json.json().error).toMatchObject({ code: 'OAUTH_ACCOUNT_NOT_LINKED' });
      expect(await countRows(panel, 'users')).toBe(users);
      expect(JSON.parse((await audits('auth.oauth_login_failed')).at(-1)!.details)).toEqual({ provider: kind });
    });

    it(`${kind}: a replayed code is refused by the provider, and the panel says so`, async () => {
      const me = await signedIn();
      const account = providerUser(kind);
      const first = await authorize(kind, await start(me.browser, kind, 'link'), account);
      expect((await get(me.browser, first)).statusCode).toBe(303);
      // a second flow (a fresh state) presented with the first, already used code
      const code = new URL(first, PANEL_URL).searchParams.get('code')!;
      const second = await start(me.browser, kind, 'link');
      const replay = await get(me.browser, `/api/user/auth/callback/${kind}/link?code=${code}&state=${second.searchParams.get('state')}`, true);
      expect(replay.statusCode, replay.body).toBe(400);
      expect(replay.json().error.code).toBe('OAUTH_CODE_INVALID');
    });
  }

  it('refuses a callback in a browser that did not start the flow (state mismatch), or with a made-up state', async () => {
    const attacker = new Browser();
    const callback = await authorize('discord', await start(attacker, 'discord', 'login'), providerUser('discord'));
    const victim = await signedIn();
    const before = (await db().selectFrom('auth_oauth_accounts').select('id').execute()).length;

    const link = `/api/user/auth/callback/discord/link${callback.slice(callback.indexOf('?'))}`;
    expectErrorRedirect(await get(victim.browser, link), '/account', 'OAUTH_STATE_INVALID', 'discord');
    expectErrorRedirect(await get(new Browser(), callback), '/auth/login', 'OAUTH_STATE_INVALID', 'discord');
    // the victim's own nonce does not fit a state started by another browser
    await start(victim.browser, 'discord', 'login');
    const mismatch = await get(victim.browser, callback, true);
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().error.code).toBe('OAUTH_STATE_INVALID');
    const madeUp = await get(victim.browser, '/api/user/auth/callback/discord/login?code=abc&state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', true);
    expect(madeUp.json().error.code).toBe('OAUTH_STATE_INVALID');
    expect((await db().selectFrom('auth_oauth_accounts').select('id').execute()).length).toBe(before);
    expect(providers.discord.tokenRequests.map((r) => r.params.code)).not.toContain(new URL(callback, PANEL_URL).searchParams.get('code'));
  });

  it('uses a state once: the same callback replayed is refused', async () => {
    const me = await signedIn();
    const account = providerUser('github');
    const callback = await authorize('github', await start(me.browser, 'github', 'link'), account);
    expect((await get(me.browser, callback)).headers.location).toBe('/account?oauth_linked=github');
    const replay = await get(me.browser, callback, true);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('OAUTH_STATE_INVALID');
  });

  it('lets a state expire after 10 minutes', async () => {
    const me = await signedIn();
    const account = providerUser('discord');
    const late = await authorize('discord', await start(me.browser, 'discord', 'link'), account);
    clock.advance(9 * 60_000 + 59_000);
    const inTime = await authorize('discord', await start(me.browser, 'discord', 'link'), account);
    clock.advance(1_000); // the first state is 10 minutes old now
    const res = await get(me.browser, late, true);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OAUTH_STATE_INVALID');
    expect((await get(me.browser, inTime)).headers.location).toBe('/account?oauth_linked=discord');
  });

  it('does not let a state for one purpose or provider finish another', async () => {
    const me = await signedIn();
    const callback = await authorize('discord', await start(me.browser, 'discord', 'login'), providerUser('discord'));
    const query = callback.slice(callback.indexOf('?'));
    expect((await get(me.browser, `/api/user/auth/callback/discord/link${query}`, true)).json().error.code).toBe('OAUTH_STATE_INVALID');
    expect((await get(me.browser, `/api/user/auth/callback/github/login${query}`, true)).json().error.code).toBe('OAUTH_STATE_INVALID');
  });

  it('refuses to link a provider account already linked to someone else', async () => {
    const owner = await signedIn();
    const account = providerUser('discord');
    expect((await flow(owner.browser, 'discord', 'link', account)).statusCode).toBe(303);

    const intruder = await signedIn();
    expectErrorRedirect(await flow(intruder.browser, 'discord', 'link', account), '/account', 'OAUTH_ACCOUNT_TAKEN', 'discord');
    const json = await flow(intruder.browser, 'discord', 'link', account, true);
    expect(json.statusCode).toBe(409);
    expect(json.json().error.code).toBe('OAUTH_ACCOUNT_TAKEN');
    expect((await linksOf(intruder.browser)).data).toEqual([]);
    expect((await linksOf(owner.browser)).data).toHaveLength(1);
    expect((await audits('auth.oauth_link_refused')).at(-1)).toMatchObject({
      target_user_id: intruder.id,
      details: JSON.stringify({ provider: 'discord', reason: 'OAUTH_ACCOUNT_TAKEN' }),
    });
  });

  it('links one account per provider: a second one needs an unlink first; the same one again is fine', async () => {
    const me = await signedIn();
    const first = providerUser('github');
    expect((await flow(me.browser, 'github', 'link', first, true)).statusCode).toBe(200);
    expect((await flow(me.browser, 'github', 'link', first, true)).statusCode).toBe(200);
    const second = await flow(me.browser, 'github', 'link', providerUser('github'), true);
    expect(second.statusCode).toBe(409);
    expect(second.json().error.code).toBe('OAUTH_ALREADY_LINKED');
    expect((await linksOf(me.browser)).data.map((l) => l.provider_user_id)).toEqual([String(first.id)]);
  });

  it('unlinks: the provider account no longer signs in; a second unlink is a 404', async () => {
    const me = await signedIn();
    const account = providerUser('discord');
    await flow(me.browser, 'discord', 'link', account);
    const unlink = () => panel.app.inject({ method: 'POST', url: '/api/user/auth/callback/discord/unlink', headers: { cookie: me.browser.cookie } });
    const res = await unlink();
    expect(res.statusCode, res.body).toBe(200);
    expect((await linksOf(me.browser)).data).toEqual([]);
    expect((await audits('auth.oauth_unlink')).at(-1)).toMatchObject({
      actor_user_id: me.id,
      details: JSON.stringify({ provider: 'discord', provider_username: account.username }),
    });
    expectErrorRedirect(await flow(new Browser(), 'discord', 'login', account), '/auth/login', 'OAUTH_ACCOUNT_NOT_LINKED', 'discord');
    const again = await unlink();
    expect(again.statusCode).toBe(404);
    expect(again.json().error.code).toBe('OAUTH_NOT_LINKED');
    expect((await panel.app.inject({ method: 'POST', url: '/api/user/auth/callback/discord/unlink' })).statusCode).toBe(401);
    // once unlinked, the account may be linked by someone else
    const next = await signedIn();
    expect((await flow(next.browser, 'discord', 'link', account, true)).statusCode).toBe(200);
  });

  it('keeps 2FA: signing in with a linked account of a user with 2FA on ends in TW0_FA_BLOCKED', async () => {
    const me = await signedIn();
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: me.browser.cookie } });
    const confirm = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/2fa/setup',
      headers: { cookie: me.browser.cookie },
      payload: { code: totpCode(setup.json().secret, totpStep()) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    me.browser.remember(confirm);
    const account = providerUser('github');
    await flow(me.browser, 'github', 'link', account);

    const browser = new Browser();
    const res = await flow(browser, 'github', 'login', account);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/auth/2fa/verify');
    expect((await sessionOf(browser)).json().error_code).toBe('TW0_FA_BLOCKED');
  });

  it('refuses a banned user', async () => {
    const me = await signedIn();
    const account = providerUser('discord');
    await flow(me.browser, 'discord', 'link', account);
    await db().updateTable('users').set({ banned: 1 }).where('id', '=', me.id).execute();
    expectErrorRedirect(await flow(new Browser(), 'discord', 'login', account), '/auth/login', 'USER_BANNED', 'discord');
  });

  it('reports a refusal at the provider, and uses the state up', async () => {
    const browser = new Browser();
    const callback = await authorize('discord', await start(browser, 'discord', 'login'), null);
    expect(callback).toContain('error=access_denied');
    expectErrorRedirect(await get(browser, callback), '/auth/login', 'OAUTH_DENIED', 'discord');
    expect((await get(browser, callback, true)).json().error.code).toBe('OAUTH_STATE_INVALID');
  });

  it('reports a provider that fails or refuses the panel’s credentials as a provider error', async () => {
    const me = await signedIn();
    providers.github.failNextTokenRequest();
    const outage = await flow(me.browser, 'github', 'link', providerUser('github'), true);
    expect(outage.statusCode).toBe(502);
    expect(outage.json().error.code).toBe('OAUTH_PROVIDER_ERROR');

    await configure('discord', { discord_client_secret: 'not-the-secret' });
    const refused = await flow(me.browser, 'discord', 'link', providerUser('discord'));
    expectErrorRedirect(refused, '/account', 'OAUTH_PROVIDER_ERROR', 'discord');
    expect((await linksOf(me.browser)).data).toEqual([]);
  });

  it('is unavailable while a provider is off or incomplete, without going to the provider', async () => {
    await configure('discord', { discord_enabled: false });
    await configure('github', { github_client_secret: '' });
    const browser = new Browser();
    for (const kind of ['discord', 'github'] as const) {
      const res = await get(browser, `/api/user/auth/callback/${kind}/login`);
      expectErrorRedirect(res, '/auth/login', 'OAUTH_NOT_CONFIGURED', kind);
      const json = await get(browser, `/api/user/auth/callback/${kind}/login`, true);
      expect(json.statusCode).toBe(409);
      expect(json.json().error.code).toBe('OAUTH_NOT_CONFIGURED');
    }
    expect(browser.has('op_oauth')).toBe(false);
    const me = await signedIn();
    expect((await linksOf(me.browser)).providers).toEqual([
      { id: 'discord', name: 'Discord', available: false },
      { id: 'github', name: 'GitHub', available: false },
    ]);
  });

  it('needs a signed-in user to link, and the same user to finish', async () => {
    const anonymous = await get(new Browser(), '/api/user/auth/callback/github/link', true);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).toBe('INVALID_SESSION');

    // A starts a link, then B signs in in the same browser before the provider sends it back
    const a = await signedIn();
    const callback = await authorize('github', await start(a.browser, 'github', 'link'), providerUser('github'));
    const b = await register(panel.app);
    const browser = new Browser(`${a.browser.cookie}; ${b.cookie}`);
    const res = await get(browser, callback, true);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OAUTH_STATE_INVALID');
    expect((await linksOf(a.browser)).data).toEqual([]);
  });

  it('answers bad input with a 400', async () => {
    const me = await signedIn();
    for (const url of [
      '/api/user/auth/callback/twitter/login',
      '/api/user/auth/callback/discord/bogus',
      `/api/user/auth/callback/discord/login?code=${'x'.repeat(600)}&state=abc`,
      `/api/user/auth/callback/discord/login?state=${'y'.repeat(200)}`,
    ]) {
      const res = await get(me.browser, url, true);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/callback/twitter/unlink', headers: { cookie: me.browser.cookie } });
    expect(res.statusCode).toBe(400);
  });
});
