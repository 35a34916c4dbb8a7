// earn-links (link for rewards): a start makes a single-use token stored on the server and asks the
// provider for a short link to the callback (local stand-ins of the providers, on real HTTP); the
// callback pays once — never faster than the minimum time, after the expiry, past the daily limit,
// inside the cooldown or a second time, however many redeem it at once and on whichever instance.
// Time is a manual clock, so hours pass in milliseconds.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { hashLinkToken } from '../server/link-tokens';
import type { LinkTables } from '../server/tables';
import { ManualClock } from '../../../tests/fixtures/manual-clock';
import { startShortenerApiStandIn, type ShortenerApiStandIn } from '../../../tests/fixtures/shortener-api';
import { startLinkvertiseStandIn, type LinkvertiseStandIn } from '../../../tests/fixtures/shortener-linkvertise';
import { secondInstance, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from '../../../tests/api/harness';

const PANEL_URL = 'https://panel.example.com';
const API_PROVIDERS = ['shareus', 'linkpays', 'gyanilinks'] as const;
const PROVIDERS = ['linkvertise', ...API_PROVIDERS] as const;
type Provider = (typeof PROVIDERS)[number];
const LINKVERTISE_ID = '4242';
const SECOND = 1000;
const JSON_ACCEPT = { accept: 'application/json' };
const BROWSER_ACCEPT = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

interface ProviderView {
  id: string;
  name: string;
  coins: number;
  daily_limit: number;
  today: number;
  min_time_seconds: number;
  expire_seconds: number;
  cooldown_seconds: number;
  cooldown_left_seconds: number;
  available: boolean;
}

describe.each(testDialects())('link for rewards on %s', (dialect) => {
  let panel: TestPanel;
  let clock: ManualClock;
  let shortener: ShortenerApiStandIn;
  let linkvertise: LinkvertiseStandIn;

  const settings = () => panel.services.settings;
  const db = () => panel.services.database.db.withTables<LinkTables>();

  async function setRules(provider: Provider, rules: Partial<Record<'coins_per_link' | 'daily_limit' | 'min_time_to_complete' | 'time_to_expire' | 'cooldown', number>>) {
    for (const [name, value] of Object.entries(rules)) await settings().set(`l4r_${provider}_${name}`, value);
  }

  beforeAll(async () => {
    clock = new ManualClock(Date.parse('2030-01-15T10:00:00.000Z'));
    panel = await startPanel(dialect, { jobs: false, clock });
    shortener = await startShortenerApiStandIn();
    linkvertise = await startLinkvertiseStandIn();
    await settings().set('app_url', PANEL_URL);
    await settings().set('l4r_linkvertise_api_url', linkvertise.url);
    await settings().set('l4r_linkvertise_user_id', LINKVERTISE_ID);
    for (const p of API_PROVIDERS) {
      await settings().set(`l4r_${p}_api_url`, shortener.url);
      await settings().set(`l4r_${p}_api_key`, shortener.apiKey);
    }
  });
  afterAll(async () => {
    await panel?.close();
    await shortener?.close();
    await linkvertise?.close();
  });
  beforeEach(async () => {
    shortener.setMode('normal');
    await settings().set('l4r_enabled', true);
    for (const p of PROVIDERS) {
      await settings().set(`l4r_${p}_enabled`, true);
      // the reference defaults
      await setRules(p, { coins_per_link: 100, daily_limit: 5, min_time_to_complete: 60, time_to_expire: 3600, cooldown: 3600 });
    }
  });

  const user = () => userWithRole(panel, 1);

  const startRequest = (app: FastifyInstance, who: SignedInUser, provider: string, headers: Record<string, string> = JSON_ACCEPT) =>
    app.inject({ url: `/api/user/earn/l4r/${provider}/start`, headers: { cookie: who.cookie, ...headers } });

  /** Starts a link and follows the short link through the provider's stand-in: the callback path it leads to. */
  async function startLink(who: SignedInUser, provider: Provider, app: FastifyInstance = panel.app): Promise<string> {
    const res = await startRequest(app, who, provider);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json() as { url: string };
    const callback = provider === 'linkvertise' ? await linkvertise.follow(url) : await shortener.follow(url);
    expect(callback.startsWith(`${PANEL_URL}/api/user/earn/l4r/${provider}/earn/`)).toBe(true);
    return new URL(callback).pathname;
  }

  const earn = (who: SignedInUser | null, path: string, app: FastifyInstance = panel.app, headers: Record<string, string> = JSON_ACCEPT) =>
    app.inject({ url: path, headers: { ...(who ? { cookie: who.cookie } : {}), ...headers } });

  function expectError(res: LightMyRequestResponse, status: number, code: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error.code).toBe(code);
  }

  const balance = (who: SignedInUser) => panel.services.wallet.balance(who.id);
  const linksCounted = (who: SignedInUser) => panel.services.counters.get(who.id, 'links');
  const ledger = (who: SignedInUser) =>
    panel.services.database.db.selectFrom('wallet_ledger').select(['kind', 'delta', 'reference', 'idempotency_key']).where('user_id', '=', who.id).orderBy('id').execute();

  async function list(who: SignedInUser): Promise<ProviderView[]> {
    const res = await panel.app.inject({ url: '/api/user/earn/l4r', headers: { cookie: who.cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { providers: ProviderView[] }).providers;
  }

  it('pays each provider’s coins once for a link completed through it, counted in `links`', async () => {
    const who = await user();
    await setRules('gyanilinks', { coins_per_link: 250 });
    for (const provider of PROVIDERS) {
      const path = await startLink(who, provider);
      clock.advance(61 * SECOND);
      const res = await earn(who, path);
      expect(res.statusCode, res.body).toBe(200);
      const coins = provider === 'gyanilinks' ? 250 : 100;
      expect(res.json()).toEqual({ success: true, provider, coins, balance: await balance(who) });
      expectError(await earn(who, path), 409, 'L4R_TOKEN_USED');
    }
    expect(await balance(who)).toBe(550);
    expect(await linksCounted(who)).toBe(4);
    const entries = await ledger(who);
    expect(entries.map((e) => [e.kind, Number(e.delta), e.reference])).toEqual([
      ['l4r.linkvertise', 100, 'Linkvertise'],
      ['l4r.shareus', 100, 'ShareUs'],
      ['l4r.linkpays', 100, 'LinkPays'],
      ['l4r.gyanilinks', 250, 'GyaniLinks'],
    ]);

    // what the providers were sent: the key, and the panel's public callback address with the token
    const sent = shortener.calls.slice(-3);
    expect(sent.every((c) => c.api === shortener.apiKey && c.target!.startsWith(`${PANEL_URL}/api/user/earn/l4r/`))).toBe(true);
    expect(linkvertise.visits.at(-1)?.publisherId).toBe(LINKVERTISE_ID);
    // the token itself is not stored, only its hash
    const tokenInLink = sent[0].target!.split('/').at(-1)!;
    const stored = await db().selectFrom('l4r_tokens').select(['token_hash', 'state']).where('user_id', '=', who.id).where('provider', '=', 'shareus').execute();
    expect(stored).toEqual([{ token_hash: hashLinkToken(tokenInLink), state: 'redeemed' }]);

    const views = await list(who);
    expect(views.map((v) => v.id)).toEqual([...PROVIDERS]);
    expect(views[0]).toMatchObject({
      id: 'linkvertise',
      name: 'Linkvertise',
      coins: 100,
      daily_limit: 5,
      today: 1,
      min_time_seconds: 60,
      expire_seconds: 3600,
      cooldown_seconds: 3600,
      available: false,
    });
    expect(views[0].cooldown_left_seconds).toBe(3600 - 3 * 61);
    expect(views[3].cooldown_left_seconds).toBe(3600);
  });

  it('sends a browser to the short link and back to /earn/links with the outcome', async () => {
    const who = await user();
    const start = await startRequest(panel.app, who, 'shareus', BROWSER_ACCEPT);
    expect(start.statusCode).toBe(302);
    const path = new URL(await shortener.follow(start.headers.location as string)).pathname;
    clock.advance(61 * SECOND);
    const paid = await earn(who, path, panel.app, BROWSER_ACCEPT);
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe('/earn/links?l4r=paid&provider=shareus&coins=100');
    const again = await earn(who, path, panel.app, BROWSER_ACCEPT);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe('/earn/links?l4r_error=L4R_TOKEN_USED&provider=shareus');
    // a start refused (cooldown running) lands on the page too
    const refused = await startRequest(panel.app, who, 'shareus', BROWSER_ACCEPT);
    expect(refused.statusCode).toBe(303);
    expect(refused.headers.location).toBe('/earn/links?l4r_error=L4R_COOLDOWN&provider=shareus');
    // signed out: back to the page (which asks to sign in), nothing paid
    const other = await startLink(await user(), 'linkpays');
    const anonymous = await earn(null, other, panel.app, BROWSER_ACCEPT);
    expect(anonymous.headers.location).toBe('/earn/links?l4r_error=INVALID_SESSION&provider=linkpays');
    expect(await balance(who)).toBe(100);
  });

  it('pays a token redeemed 10 times at once exactly once', async () => {
    const who = await user();
    const path = await startLink(who, 'linkpays');
    clock.advance(61 * SECOND);
    const answers = await Promise.all(Array.from({ length: 10 }, () => earn(who, path)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().error.code).toBe('L4R_TOKEN_USED');
    expect(await balance(who)).toBe(100);
    expect(await linksCounted(who)).toBe(1);
    expect(await ledger(who)).toHaveLength(1);
  });

  it('holds the cooldown for two tokens redeemed at the same moment', async () => {
    // two open tokens at once (a start replaces the earlier one, so they are made here directly)
    const who = await user();
    const now = clock.now();
    const tokens = [randomBytes(32).toString('base64url'), randomBytes(32).toString('base64url')];
    await db().insertInto('l4r_quotas').values({ user_id: who.id, provider: 'shareus', day: '2000-01-01', day_count: 0, last_completed_at: null }).execute();
    for (const token of tokens) {
      await db()
        .insertInto('l4r_tokens')
        .values({
          user_id: who.id,
          provider: 'shareus',
          token_hash: hashLinkToken(token),
          created_at: new Date(now).toISOString(),
          not_before: new Date(now).toISOString(),
          expires_at: new Date(now + 3600 * SECOND).toISOString(),
          state: 'pending',
          redeemed_at: null,
          coins: null,
        })
        .execute();
    }
    clock.advance(SECOND);
    const answers = await Promise.all(tokens.map((t) => earn(who, `/api/user/earn/l4r/shareus/earn/${t}`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.statusCode === 409)!.json().error.code).toBe('L4R_COOLDOWN');
    expect(await balance(who)).toBe(100);
    expect(await linksCounted(who)).toBe(1);
    // the refused token was not spent
    const states = await db().selectFrom('l4r_tokens').select('state').where('user_id', '=', who.id).execute();
    expect(states.map((s) => s.state).sort()).toEqual(['pending', 'redeemed']);
  });

  it('refuses a link completed faster than the minimum time, and pays it once the time has passed', async () => {
    const who = await user();
    const path = await startLink(who, 'gyanilinks');
    clock.advance(30 * SECOND);
    expectError(await earn(who, path), 409, 'L4R_TOO_FAST');
    expect(await balance(who)).toBe(0);
    clock.advance(30 * SECOND);
    expect((await earn(who, path)).statusCode).toBe(200);
    expect(await balance(who)).toBe(100);
  });

  it('refuses an expired link', async () => {
    const who = await user();
    const path = await startLink(who, 'linkvertise');
    clock.advance(3600 * SECOND);
    expectError(await earn(who, path), 410, 'L4R_TOKEN_EXPIRED');
    expect(await balance(who)).toBe(0);
    expect(await linksCounted(who)).toBe(0);
  });

  it('refuses a start, and a callback, inside the cooldown', async () => {
    const who = await user();
    await setRules('shareus', { time_to_expire: 4 * 3600 });
    const first = await startLink(who, 'shareus');
    clock.advance(61 * SECOND);
    expect((await earn(who, first)).statusCode).toBe(200);
    expectError(await startRequest(panel.app, who, 'shareus'), 409, 'L4R_COOLDOWN');

    // a link started while the cooldown was 0, completed after an administrator set it again
    await setRules('shareus', { cooldown: 0 });
    const second = await startLink(who, 'shareus');
    await setRules('shareus', { cooldown: 3600 });
    clock.advance(61 * SECOND);
    const refused = await earn(who, second);
    expectError(refused, 409, 'L4R_COOLDOWN');
    expect(refused.json().error.message).toContain('59 more minute');
    expect(await balance(who)).toBe(100);
    // the cooldown over, the same link pays
    clock.advance(3600 * SECOND);
    expect((await earn(who, second)).statusCode).toBe(200);
    expect(await balance(who)).toBe(200);
  });

  it('refuses past the daily limit until the next UTC day', async () => {
    const who = await user();
    await setRules('linkpays', { daily_limit: 2, cooldown: 0, min_time_to_complete: 0, time_to_expire: 2 * 86_400 });
    for (let i = 0; i < 2; i++) expect((await earn(who, await startLink(who, 'linkpays'))).statusCode).toBe(200);
    expectError(await startRequest(panel.app, who, 'linkpays'), 409, 'L4R_DAILY_LIMIT');
    expect((await list(who)).find((v) => v.id === 'linkpays')).toMatchObject({ today: 2, daily_limit: 2, available: false });

    await setRules('linkpays', { daily_limit: 3 });
    const third = await startLink(who, 'linkpays');
    await setRules('linkpays', { daily_limit: 2 });
    expectError(await earn(who, third), 409, 'L4R_DAILY_LIMIT');
    expect(await balance(who)).toBe(200);

    // the next day (UTC) counts from zero
    clock.advanceTo(Date.parse(`${new Date(clock.now() + 86_400_000).toISOString().slice(0, 10)}T00:00:01.000Z`));
    expect((await list(who)).find((v) => v.id === 'linkpays')).toMatchObject({ today: 0, available: true });
    expect((await earn(who, third)).statusCode).toBe(200);
    expect(await balance(who)).toBe(300);
    expect(await linksCounted(who)).toBe(3);
  });

  it('lets a new start replace the open link of that provider', async () => {
    const who = await user();
    const older = await startLink(who, 'shareus');
    const newer = await startLink(who, 'shareus');
    clock.advance(61 * SECOND);
    expectError(await earn(who, older), 409, 'L4R_TOKEN_REPLACED');
    expect((await earn(who, newer)).statusCode).toBe(200);
    expect(await balance(who)).toBe(100);
  });

  it('keeps no state in memory: a link started on one instance pays once on another', async () => {
    const second = await secondInstance(panel, { jobs: false, clock });
    try {
      const who = await user();
      const path = await startLink(who, 'linkvertise');
      clock.advance(61 * SECOND);
      const [here, there] = await Promise.all([earn(who, path, panel.app), earn(who, path, second)]);
      expect([here.statusCode, there.statusCode].sort()).toEqual([200, 409]);
      expect(await balance(who)).toBe(100);
      expectError(await earn(who, path, second), 409, 'L4R_TOKEN_USED');
      // and the cooldown the first instance recorded holds on the second
      expectError(await startRequest(second, who, 'linkvertise'), 409, 'L4R_COOLDOWN');
    } finally {
      await second.close();
    }
  });

  it('refuses someone else’s token, an unknown one, one of another provider, and no session — paying nothing', async () => {
    const owner = await user();
    const stranger = await user();
    const path = await startLink(owner, 'gyanilinks');
    clock.advance(61 * SECOND);
    expectError(await earn(stranger, path), 404, 'L4R_TOKEN_INVALID');
    expectError(await earn(owner, path.replace('/gyanilinks/', '/shareus/')), 404, 'L4R_TOKEN_INVALID');
    expectError(await earn(owner, `/api/user/earn/l4r/gyanilinks/earn/${randomBytes(32).toString('base64url')}`), 404, 'L4R_TOKEN_INVALID');
    expectError(await earn(null, path), 401, 'INVALID_SESSION');
    expect(await balance(owner)).toBe(0);
    expect(await balance(stranger)).toBe(0);
    // still good for its owner
    expect((await earn(owner, path)).statusCode).toBe(200);
  });

  it('answers bad input with a 4xx', async () => {
    const who = await user();
    expectError(await startRequest(panel.app, who, 'bitly'), 400, 'VALIDATION_ERROR');
    expectError(await earn(who, '/api/user/earn/l4r/bitly/earn/' + randomBytes(32).toString('base64url')), 400, 'VALIDATION_ERROR');
    for (const token of ['short', 'x'.repeat(44), `${'a'.repeat(42)}%2F`, `${'a'.repeat(42)}!`]) {
      expectError(await earn(who, `/api/user/earn/l4r/shareus/earn/${token}`), 400, 'VALIDATION_ERROR');
    }
    expect((await startRequest(panel.app, { ...who, cookie: '' }, 'shareus')).statusCode).toBe(401);
    // another site's page cannot start (and so replace) the user's links
    expectError(await startRequest(panel.app, who, 'shareus', { ...JSON_ACCEPT, 'sec-fetch-site': 'cross-site' }), 403, 'CROSS_SITE_REQUEST');
    expect(await db().selectFrom('l4r_tokens').select('id').where('user_id', '=', who.id).execute()).toEqual([]);
  });

  it('refuses a provider that is switched off, not set up, or failing — storing no token', async () => {
    const who = await user();
    await settings().set('l4r_linkpays_enabled', false);
    expectError(await startRequest(panel.app, who, 'linkpays'), 403, 'L4R_PROVIDER_DISABLED');
    expect((await list(who)).map((v) => v.id)).toEqual(['linkvertise', 'shareus', 'gyanilinks']);

    // a link started before the provider was switched off does not pay either
    const path = await startLink(who, 'shareus');
    await settings().set('l4r_shareus_enabled', false);
    clock.advance(61 * SECOND);
    expectError(await earn(who, path), 403, 'L4R_PROVIDER_DISABLED');
    await settings().set('l4r_shareus_enabled', true);

    for (const mode of ['http-500', 'error-status', 'not-json', 'bad-short-url'] as const) {
      shortener.setMode(mode);
      expectError(await startRequest(panel.app, who, 'gyanilinks'), 502, 'L4R_PROVIDER_ERROR');
    }
    shortener.setMode('normal');
    await settings().set('l4r_gyanilinks_api_key', 'wrong-key');
    expectError(await startRequest(panel.app, who, 'gyanilinks'), 502, 'L4R_PROVIDER_ERROR');
    await settings().set('l4r_gyanilinks_api_key', '');
    expectError(await startRequest(panel.app, who, 'gyanilinks'), 409, 'L4R_NOT_CONFIGURED');
    await settings().set('l4r_gyanilinks_api_key', shortener.apiKey);
    await settings().set('l4r_linkvertise_user_id', '');
    expectError(await startRequest(panel.app, who, 'linkvertise'), 409, 'L4R_NOT_CONFIGURED');
    await settings().set('l4r_linkvertise_user_id', LINKVERTISE_ID);
    // without the panel's public address there is no callback to give the provider
    await settings().set('app_url', '');
    expectError(await startRequest(panel.app, who, 'gyanilinks'), 409, 'L4R_NOT_CONFIGURED');
    await settings().set('app_url', PANEL_URL);

    const rows = await db().selectFrom('l4r_tokens').select(['provider', 'state']).where('user_id', '=', who.id).execute();
    expect(rows).toEqual([{ provider: 'shareus', state: 'pending' }]);
    expect(await balance(who)).toBe(0);
  });

  it('answers FEATURE_DISABLED on every route while l4r_enabled is off', async () => {
    const who = await user();
    const path = await startLink(who, 'shareus');
    await settings().set('l4r_enabled', false);
    clock.advance(61 * SECOND);
    expectError(await panel.app.inject({ url: '/api/user/earn/l4r', headers: { cookie: who.cookie } }), 403, 'FEATURE_DISABLED');
    expectError(await startRequest(panel.app, who, 'shareus'), 403, 'FEATURE_DISABLED');
    expectError(await earn(who, path), 403, 'FEATURE_DISABLED');
    expect(await balance(who)).toBe(0);
  });
});
