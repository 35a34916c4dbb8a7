// Join for rewards (plugins/earn-j4r): the check is a real Discord OAuth code flow (scope guilds)
// through the auth plugin's grant (auth.oauth-grants) against the local Discord stand-in
// (tests/fixtures/oauth-provider.ts), then GET /api/users/@me/guilds with the user's token.
// Checked: a joined guild pays once — checked twice, or several times at once — and a guild not
// joined pays nothing; the Discord account must be the one linked to the user (linked at the first
// check), another user's is refused, and one moved to another panel account earns nothing again;
// the state is single use and belongs to the user who began it; Discord failures pay nothing; the
// admin API refuses bad input and changes nothing; with j4r_enabled off (the default) every user
// route answers FEATURE_DISABLED.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { DiscordGuildsError, joinedGuildIds } from '../server/discord-guilds';
import type { J4rTables } from '../server/tables';
import { startOAuthProvider, type OAuthProviderStandIn, type StandInUser } from '../../../tests/fixtures/oauth-provider';
import { setCookies, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const PANEL_URL = 'http://panel.test';
const JSON_ACCEPT = { accept: 'application/json' };
const CALLBACK = '/api/user/auth/callback/discord/j4r';

let serial = 0;
/** a fresh snowflake (17+ digits) for a guild or a Discord user */
const snowflake = () => `9${String(Date.now()).slice(-9)}${String(++serial).padStart(8, '0')}`;
const discordUser = (): StandInUser => {
  const id = snowflake();
  return { id, username: `disco_${id.slice(-5)}` };
};

interface GuildView {
  id: number;
  guild_id: string;
  name: string;
  coins: number;
  enabled: boolean;
  claims: number;
}

interface CheckResult {
  guild_id: string;
  name: string;
  coins: number;
  status: string;
}

describe.each(testDialects())('join for rewards on %s', (dialect) => {
  let panel: TestPanel;
  let discord: OAuthProviderStandIn;
  let admin: SignedInUser;
  let flagDefault: unknown;

  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
    discord = await startOAuthProvider('discord');
    const { settings } = panel.services;
    flagDefault = (await settings.getEntry('j4r_enabled')).value;
    const values: Record<string, string | boolean> = {
      app_url: PANEL_URL,
      discord_enabled: true,
      discord_client_id: discord.clientId,
      discord_client_secret: discord.clientSecret,
      discord_base_url: discord.url,
      j4r_enabled: true,
    };
    for (const [key, value] of Object.entries(values)) await settings.set(key, value);
    admin = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await discord?.close();
    await panel?.close();
  });

  const db = () => panel.services.database.db.withTables<J4rTables>();
  const as = (user: SignedInUser, url: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE' = 'GET', payload?: Record<string, unknown>) =>
    panel.app.inject({ method, url, headers: { cookie: user.cookie, ...JSON_ACCEPT }, ...(payload ? { payload } : {}) });

  async function addGuild(
    fields: Partial<{ guild_id: string; name: string; coins: number; invite_url: string; icon_url: string | null; enabled: boolean }> = {},
  ): Promise<GuildView> {
    const guild_id = fields.guild_id ?? snowflake();
    const res = await as(admin, '/api/admin/j4r/guilds', 'POST', {
      guild_id,
      name: `Guild ${guild_id.slice(-4)}`,
      invite_url: 'https://discord.gg/orepanel',
      coins: 25,
      ...fields,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { guild: GuildView }).guild;
  }

  const coinsOf = async (user: SignedInUser) => Number((await db().selectFrom('users').select('coins').where('id', '=', user.id).executeTakeFirstOrThrow()).coins);
  const rewardEntries = (user: SignedInUser) =>
    db().selectFrom('wallet_ledger').select(['delta', 'kind', 'reference', 'idempotency_key']).where('user_id', '=', user.id).where('kind', '=', 'j4r.reward').execute();
  // the Discord account linked to the user, as the auth plugin tells the user (its table is its own)
  const linkedDiscord = async (user: SignedInUser) => {
    const res = await as(user, '/api/user/auth/oauth/accounts');
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { data: { provider: string; provider_user_id: string }[] }).data.find((link) => link.provider === 'discord')?.provider_user_id ?? null;
  };

  /** Begins a check: the panel's 302 to Discord, and the browser's binding cookie. */
  async function begin(user: SignedInUser) {
    const res = await panel.app.inject({ url: '/api/user/j4r/check', headers: { cookie: user.cookie } });
    expect(res.statusCode, res.body).toBe(302);
    return { authorizeUrl: new URL(res.headers.location as string), browserCookie: `op_oauth=${setCookies(res)['op_oauth'].value}` };
  }

  /** Discord's authorize page approving as `account`: the callback path the browser is sent back to. */
  async function approve(authorizeUrl: URL, account: StandInUser): Promise<string> {
    discord.approveAs(account);
    const res = await fetch(authorizeUrl, { redirect: 'manual' });
    expect(res.status).toBe(302);
    const back = new URL(res.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(`${PANEL_URL}${CALLBACK}`);
    return `${back.pathname}${back.search}`;
  }

  const complete = (user: SignedInUser, callback: string, browserCookie: string, json = true) =>
    panel.app.inject({ url: callback, headers: { cookie: `${user.cookie}; ${browserCookie}`, ...(json ? JSON_ACCEPT : {}) } });

  /** A whole check by `user`, signing in to Discord as `account`. */
  async function check(user: SignedInUser, account: StandInUser, json = true): Promise<LightMyRequestResponse> {
    const { authorizeUrl, browserCookie } = await begin(user);
    return complete(user, await approve(authorizeUrl, account), browserCookie, json);
  }

  const resultsOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { success: boolean; coins_earned: number; discord_account: { id: string; username: string }; results: CheckResult[] };
  };
  const statusFor = (results: CheckResult[], guildId: string) => results.find((r) => r.guild_id === guildId)?.status;

  it('is off by default (spec: j4r_enabled false)', () => {
    expect(flagDefault).toBe(false);
  });

  it('has nothing to check while no guild is listed, and says so', async () => {
    const user = await userWithRole(panel, 1);
    const res = await as(user, '/api/user/j4r/check');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('J4R_NO_GUILDS');
    // a browser is sent back to the page with the code
    const browser = await panel.app.inject({ url: '/api/user/j4r/check', headers: { cookie: user.cookie } });
    expect(browser.statusCode).toBe(303);
    expect(browser.headers.location).toBe('/earn/j4r?j4r_error=J4R_NO_GUILDS');
  });

  it('asks Discord for the guilds scope, coming back to the j4r callback', async () => {
    await addGuild();
    const user = await userWithRole(panel, 1);
    const { authorizeUrl } = await begin(user);
    expect(`${authorizeUrl.origin}${authorizeUrl.pathname}`).toBe(`${discord.url}/oauth2/authorize`);
    expect(authorizeUrl.searchParams.get('scope')).toBe('identify guilds');
    expect(authorizeUrl.searchParams.get('redirect_uri')).toBe(`${PANEL_URL}${CALLBACK}`);
    expect(authorizeUrl.searchParams.get('client_id')).toBe(discord.clientId);
  });

  it('pays a joined guild once, nothing for a guild not joined; a second check pays nothing more', async () => {
    const joinedGuild = await addGuild({ coins: 50, name: 'Joined Guild' });
    const otherGuild = await addGuild({ coins: 30 });
    const user = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(String(account.id), [
      { id: joinedGuild.guild_id, name: 'Joined Guild' },
      { id: snowflake(), name: 'Unlisted' },
    ]);
    const before = await coinsOf(user);

    const first = resultsOf(await check(user, account));
    expect(first.success).toBe(true);
    expect(first.discord_account).toEqual({ id: account.id, username: account.username });
    expect(first.coins_earned).toBe(50);
    expect(first.results.find((r) => r.guild_id === joinedGuild.guild_id)).toEqual({ guild_id: joinedGuild.guild_id, name: 'Joined Guild', coins: 50, status: 'paid' });
    expect(statusFor(first.results, otherGuild.guild_id)).toBe('not_joined');
    expect(await coinsOf(user)).toBe(before + 50);
    expect(await rewardEntries(user)).toEqual([{ delta: 50, kind: 'j4r.reward', reference: 'Joined Guild', idempotency_key: `j4r:${joinedGuild.guild_id}:${user.id}` }]);
    // the first check linked the Discord account to the user
    expect(await linkedDiscord(user)).toBe(account.id);

    const second = resultsOf(await check(user, account));
    expect(second.coins_earned).toBe(0);
    expect(statusFor(second.results, joinedGuild.guild_id)).toBe('already_paid');
    expect(await coinsOf(user)).toBe(before + 50);
    expect(await rewardEntries(user)).toHaveLength(1);

    const list = (await as(user, '/api/user/j4r/list')).json() as { data: { guild_id: string; claimed: boolean; claimed_coins: number | null }[] };
    expect(list.data.find((g) => g.guild_id === joinedGuild.guild_id)).toMatchObject({ claimed: true, claimed_coins: 50 });
    expect(list.data.find((g) => g.guild_id === otherGuild.guild_id)).toMatchObject({ claimed: false, claimed_coins: null });
    const status = (await as(user, '/api/user/j4r/status')).json();
    expect(status).toMatchObject({ discord_available: true, discord_account: { id: account.id, username: account.username }, guilds_claimed: 1, coins_earned: 50 });
    expect(status.guilds_total).toBe(list.data.length);
  });

  it('sends a browser back to /earn/j4r with what was paid', async () => {
    const guild = await addGuild({ coins: 40 });
    const user = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);
    const res = await check(user, account, false);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/earn/j4r?j4r_paid=1&j4r_coins=40');
  });

  it('pays once when the check runs several times at once', async () => {
    const guild = await addGuild({ coins: 70 });
    const user = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);
    const before = await coinsOf(user);
    // five flows begun and approved, then all five callbacks at the same moment
    const flows = [];
    for (let i = 0; i < 5; i++) {
      const { authorizeUrl, browserCookie } = await begin(user);
      flows.push({ callback: await approve(authorizeUrl, account), browserCookie });
    }
    const answers = (await Promise.all(flows.map((f) => complete(user, f.callback, f.browserCookie)))).map(resultsOf);
    const statuses = answers.map((a) => statusFor(a.results, guild.guild_id));
    // the answers go with the assertion: a failure says what the odd callback answered
    expect(
      statuses.filter((s) => s === 'paid'),
      JSON.stringify(answers),
    ).toHaveLength(1);
    expect(
      statuses.filter((s) => s === 'already_paid'),
      JSON.stringify(answers),
    ).toHaveLength(4);
    expect(await coinsOf(user)).toBe(before + 70);
    expect(await rewardEntries(user)).toHaveLength(1);
    expect(await db().selectFrom('j4r_rewards').select('id').where('guild_id', '=', guild.guild_id).execute()).toHaveLength(1);
  });

  it('refuses a Discord account linked to another user, and pays nothing', async () => {
    const guild = await addGuild({ coins: 60 });
    const owner = await userWithRole(panel, 1);
    const farmer = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);
    expect(statusFor(resultsOf(await check(owner, account)).results, guild.guild_id)).toBe('paid');

    const before = await coinsOf(farmer);
    const refused = await check(farmer, account);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('OAUTH_ACCOUNT_TAKEN');
    expect(await coinsOf(farmer)).toBe(before);
    expect(await rewardEntries(farmer)).toEqual([]);
    expect(await linkedDiscord(farmer)).toBeNull();
    const browser = await check(farmer, account, false);
    expect(browser.headers.location).toBe('/earn/j4r?j4r_error=OAUTH_ACCOUNT_TAKEN');
  });

  it('refuses a Discord account other than the one linked to the user', async () => {
    const guild = await addGuild({ coins: 15 });
    const user = await userWithRole(panel, 1);
    const linked = discordUser();
    const other = discordUser();
    discord.setGuilds(other.id as string, [{ id: guild.guild_id, name: guild.name }]);
    resultsOf(await check(user, linked));
    const before = await coinsOf(user);
    const res = await check(user, other);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('OAUTH_ALREADY_LINKED');
    expect(await coinsOf(user)).toBe(before);
    expect(await linkedDiscord(user)).toBe(linked.id);
  });

  it('does not pay a guild again to a Discord account moved to another panel account', async () => {
    const guild = await addGuild({ coins: 80 });
    const first = await userWithRole(panel, 1);
    const second = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);
    expect(statusFor(resultsOf(await check(first, account)).results, guild.guild_id)).toBe('paid');
    const unlink = await panel.app.inject({ method: 'POST', url: '/api/user/auth/callback/discord/unlink', headers: { cookie: first.cookie } });
    expect(unlink.statusCode, unlink.body).toBe(200);

    const before = await coinsOf(second);
    const moved = resultsOf(await check(second, account));
    expect(await linkedDiscord(second)).toBe(account.id);
    expect(statusFor(moved.results, guild.guild_id)).toBe('claimed_elsewhere');
    expect(moved.coins_earned).toBe(0);
    expect(await coinsOf(second)).toBe(before);
    expect(await rewardEntries(second)).toEqual([]);
  });

  it('uses a state once, only for the user who began it, and only at the j4r callback', async () => {
    await addGuild();
    const user = await userWithRole(panel, 1);
    const someoneElse = await userWithRole(panel, 1);
    const account = discordUser();

    const { authorizeUrl, browserCookie } = await begin(user);
    const callback = await approve(authorizeUrl, account);
    // another account signed in in the same browser cannot finish it
    const stolen = await complete(someoneElse, callback, browserCookie);
    expect(stolen.statusCode).toBe(400);
    expect(stolen.json().error.code).toBe('OAUTH_STATE_INVALID');
    expect(await linkedDiscord(someoneElse)).toBeNull();

    const again = await begin(user);
    const ok = await approve(again.authorizeUrl, account);
    resultsOf(await complete(user, ok, again.browserCookie));
    const replay = await complete(user, ok, again.browserCookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('OAUTH_STATE_INVALID');

    // a j4r state does not finish the auth plugin's own link flow
    const third = await begin(user);
    const elsewhere = (await approve(third.authorizeUrl, account)).replace(CALLBACK, '/api/user/auth/callback/discord/link');
    const crossed = await complete(user, elsewhere, third.browserCookie);
    expect(crossed.statusCode).toBe(400);
    expect(crossed.json().error.code).toBe('OAUTH_STATE_INVALID');
  });

  it('refuses bad callback input with 4xx and pays nothing', async () => {
    const user = await userWithRole(panel, 1);
    const { browserCookie } = await begin(user);
    const noState = await complete(user, `${CALLBACK}?code=abc`, browserCookie);
    expect(noState.statusCode).toBe(400);
    expect(noState.json().error.code).toBe('OAUTH_STATE_INVALID');
    const tooLong = await complete(user, `${CALLBACK}?code=${'x'.repeat(600)}&state=abc`, browserCookie);
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().error.code).toBe('VALIDATION_ERROR');
    // the user refused at Discord
    const { authorizeUrl, browserCookie: cookie } = await begin(user);
    discord.denyNext();
    const denied = await fetch(authorizeUrl, { redirect: 'manual' });
    const back = new URL(denied.headers.get('location')!);
    const res = await complete(user, `${back.pathname}${back.search}`, cookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('OAUTH_DENIED');
    const signedOut = await panel.app.inject({ url: '/api/user/j4r/check' });
    expect(signedOut.statusCode).toBe(401);
    expect(await rewardEntries(user)).toEqual([]);
  });

  it('pays nothing when Discord rate-limits the guild list, and pays on the next check', async () => {
    const guild = await addGuild({ coins: 35 });
    const user = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);
    discord.rateLimitNextGuildsRequest();
    const busy = await check(user, account);
    expect(busy.statusCode).toBe(503);
    expect(busy.json().error.code).toBe('J4R_DISCORD_BUSY');
    expect(await rewardEntries(user)).toEqual([]);
    expect(statusFor(resultsOf(await check(user, account)).results, guild.guild_id)).toBe('paid');
  });

  /** A token straight from the stand-in (authorize, then exchange the code), granted `scope`. */
  async function standInToken(account: StandInUser, scope: string): Promise<string> {
    discord.approveAs(account);
    const redirectUri = `${PANEL_URL}${CALLBACK}`;
    const query = new URLSearchParams({ response_type: 'code', client_id: discord.clientId, scope, redirect_uri: redirectUri, state: 'direct' });
    const authorized = await fetch(`${discord.url}/oauth2/authorize?${query}`, { redirect: 'manual' });
    const code = new URL(authorized.headers.get('location')!).searchParams.get('code')!;
    const token = await fetch(`${discord.url}/api/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: discord.clientId, client_secret: discord.clientSecret }),
    });
    return ((await token.json()) as { access_token: string }).access_token;
  }

  it("the stand-in's guild list as Discord answers it: the user's guilds; 401 for a bad token or one without the guilds scope; 400 for a bad limit", async () => {
    const account = discordUser();
    const guilds = [snowflake(), snowflake()];
    discord.setGuilds(
      account.id as string,
      guilds.map((id) => ({ id, name: `G${id}` })),
    );
    const token = await standInToken(account, 'identify guilds');
    expect([...(await joinedGuildIds(discord.url, token))].sort()).toEqual([...guilds].sort());

    const bad = await fetch(`${discord.url}/api/users/@me/guilds`, { headers: { authorization: 'Bearer nope' } });
    expect(bad.status).toBe(401);
    expect(await bad.json()).toEqual({ message: '401: Unauthorized', code: 0 });
    for (const tokenWithout of ['nope', await standInToken(account, 'identify')]) {
      const failure = await joinedGuildIds(discord.url, tokenWithout).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DiscordGuildsError);
      expect((failure as DiscordGuildsError).failure).toBe('unauthorized');
    }
    const limit = await fetch(`${discord.url}/api/users/@me/guilds?limit=500`, { headers: { authorization: `Bearer ${token}` } });
    expect(limit.status).toBe(400);
    expect(((await limit.json()) as { code: number }).code).toBe(50035);
  });

  it('admin: lists, edits and removes guilds; a disabled guild is neither offered nor paid; removing one never re-opens it', async () => {
    const guild = await addGuild({ coins: 20, icon_url: 'https://cdn.discordapp.com/icons/1/a.png' });
    const user = await userWithRole(panel, 1);
    const account = discordUser();
    discord.setGuilds(account.id as string, [{ id: guild.guild_id, name: guild.name }]);

    const off = await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'PATCH', { enabled: false, coins: 90, name: '  Renamed  ' });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().guild).toMatchObject({ enabled: false, coins: 90, name: 'Renamed', guild_id: guild.guild_id });
    expect(((await as(user, '/api/user/j4r/list')).json().data as { guild_id: string }[]).map((g) => g.guild_id)).not.toContain(guild.guild_id);
    expect(statusFor(resultsOf(await check(user, account)).results, guild.guild_id)).toBeUndefined();

    await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'PATCH', { enabled: true });
    expect(resultsOf(await check(user, account)).results.find((r) => r.guild_id === guild.guild_id)).toMatchObject({ status: 'paid', coins: 90 });
    const listed = (await as(admin, '/api/admin/j4r/guilds')).json().data as GuildView[];
    expect(listed.find((g) => g.id === guild.id)).toMatchObject({ claims: 1 });

    expect((await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'DELETE')).statusCode).toBe(200);
    const back = await addGuild({ guild_id: guild.guild_id, coins: 90 });
    expect(statusFor(resultsOf(await check(user, account)).results, back.guild_id)).toBe('already_paid');
    expect(await rewardEntries(user)).toHaveLength(1);
  });

  it('admin: refuses bad input with 4xx and changes nothing', async () => {
    const guild = await addGuild();
    const count = async () => (await db().selectFrom('j4r_guilds').select('id').execute()).length;
    const before = await count();
    const valid = { guild_id: snowflake(), name: 'New', invite_url: 'https://discord.gg/x', coins: 5 };
    const bad: [Record<string, unknown>, number, string, string?][] = [
      [{ ...valid, guild_id: 'abc' }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, invite_url: 'javascript:alert(1)' }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, invite_url: 'https://' }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, icon_url: 'http://insecure.example/icon.png' }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, coins: 0 }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, coins: 2.5 }, 400, 'VALIDATION_ERROR'],
      [{ ...valid, name: '   ' }, 400, 'VALIDATION_ERROR', 'name'],
      [{ ...valid, guild_id: guild.guild_id }, 409, 'J4R_GUILD_EXISTS', 'guild_id'],
    ];
    for (const [payload, status, code, field] of bad) {
      const res = await as(admin, '/api/admin/j4r/guilds', 'POST', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().error.code).toBe(code);
      if (field) expect(res.json().error.field).toBe(field);
    }
    // the Discord id never changes; an unknown guild is a 404
    const moved = await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'PATCH', { guild_id: snowflake(), coins: 9 });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().error).toMatchObject({ code: 'J4R_GUILD_ID_FIXED', field: 'guild_id' });
    expect((await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'PATCH', {})).statusCode).toBe(400);
    expect((await as(admin, `/api/admin/j4r/guilds/${guild.id}`, 'PATCH', { unknown: 1 })).statusCode).toBe(400);
    expect((await as(admin, '/api/admin/j4r/guilds/999999', 'PATCH', { coins: 3 })).json().error.code).toBe('J4R_GUILD_NOT_FOUND');
    expect((await as(admin, '/api/admin/j4r/guilds/999999', 'DELETE')).statusCode).toBe(404);
    expect((await as(admin, '/api/admin/j4r/guilds/abc', 'DELETE')).statusCode).toBe(400);
    expect(await count()).toBe(before);
    expect(await db().selectFrom('j4r_guilds').select(['guild_id', 'coins']).where('id', '=', guild.id).executeTakeFirstOrThrow()).toEqual({
      guild_id: guild.guild_id,
      coins: guild.coins,
    });
    // a user without the permission
    const plain = await userWithRole(panel, 1);
    expect((await as(plain, '/api/admin/j4r/guilds', 'POST', valid)).statusCode).toBe(403);
    expect(await count()).toBe(before);
  });

  it('answers FEATURE_DISABLED on every user route while j4r_enabled is off (admins still manage guilds)', async () => {
    const user = await userWithRole(panel, 1);
    await panel.services.settings.set('j4r_enabled', false);
    try {
      for (const url of ['/api/user/j4r/status', '/api/user/j4r/list', '/api/user/j4r/check', `${CALLBACK}?code=abc&state=def`]) {
        const res = await as(user, url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().error.code, url).toBe('FEATURE_DISABLED');
      }
      expect((await as(admin, '/api/admin/j4r/guilds')).statusCode).toBe(200);
    } finally {
      await panel.services.settings.set('j4r_enabled', true);
    }
  });

  it('cannot begin a check while Discord is not set up', async () => {
    const user = await userWithRole(panel, 1);
    await panel.services.settings.set('discord_enabled', false);
    try {
      expect((await as(user, '/api/user/j4r/status')).json().discord_available).toBe(false);
      const res = await as(user, '/api/user/j4r/check');
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('OAUTH_NOT_CONFIGURED');
    } finally {
      await panel.services.settings.set('discord_enabled', true);
    }
  });
});
