// spec §3 zero_trust_enabled: while it is on, a session is trusted only from the browser that signed
// in. Its token presented by another browser (another browser family, system or device: the
// User-Agent without its version numbers) is taken for stolen — the session is revoked for everyone,
// the event is in the account's activity as a warning — while the same browser after an update keeps
// its session. Off, the token alone is enough, as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserOf } from '../../server/auth/sessions';
import { cookieHeader, newAccount, startPanel, testDialects, type TestPanel } from './harness';

const FIREFOX_120 = 'Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0';
const FIREFOX_121 = 'Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

describe('browserOf', () => {
  it('keeps the browser, system and device and drops the version numbers', () => {
    expect(browserOf(FIREFOX_120)).toBe(browserOf(FIREFOX_121));
    expect(browserOf(FIREFOX_120)).not.toBe(browserOf(CHROME));
    expect(browserOf(FIREFOX_120)).not.toBe(browserOf(FIREFOX_120.replace('Linux x86_64', 'Windows NT 10.0; Win64; x64')));
    expect(browserOf(null)).toBe('');
    expect(browserOf('x'.repeat(5_000))).toHaveLength(512);
  });
});

describe.each(testDialects())('zero trust (%s)', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect, { jobs: false });
  });
  afterAll(async () => {
    await panel?.services.settings.set('zero_trust_enabled', false);
    await panel?.close();
  });

  async function signedInWith(userAgent: string) {
    const body = newAccount();
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/register', payload: body, headers: { 'user-agent': userAgent } });
    expect(res.statusCode).toBe(201);
    const uuid = (res.json() as { user: { uuid: string } }).user.uuid;
    const row = await panel.services.database.db.selectFrom('users').select('id').where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { id: row.id, cookie: cookieHeader(res) };
  }

  const session = (cookie: string, userAgent: string) => panel.app.inject({ url: '/api/user/session', headers: { cookie, 'user-agent': userAgent } });

  async function switchZeroTrust(on: boolean) {
    await panel.services.settings.set('zero_trust_enabled', on);
    // the in-process copy the hot path reads
    await panel.services.settings.get('zero_trust_enabled');
  }

  it('off: the token alone is enough, from any browser', async () => {
    await switchZeroTrust(false);
    const user = await signedInWith(FIREFOX_120);
    expect((await session(user.cookie, CHROME)).json()).toMatchObject({ success: true });
  });

  it('on: the same browser keeps its session across an update; another browser ends it for everyone, and the owner sees why', async () => {
    await switchZeroTrust(true);
    const user = await signedInWith(FIREFOX_120);
    expect((await session(user.cookie, FIREFOX_120)).json()).toMatchObject({ success: true });
    expect((await session(user.cookie, FIREFOX_121)).json()).toMatchObject({ success: true });

    const stolen = await session(user.cookie, CHROME);
    expect(stolen.statusCode).toBe(401);
    expect(stolen.json()).toMatchObject({ success: false, error_code: 'INVALID_SESSION' });
    // revoked: the owner's browser signs in again
    await expect.poll(async () => (await session(user.cookie, FIREFOX_121)).statusCode).toBe(401);
    const revoked = await panel.services.database.db.selectFrom('sessions').select('revoked_at').where('user_id', '=', user.id).execute();
    expect(revoked.every((row) => row.revoked_at !== null)).toBe(true);

    const entry = await panel.services.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_user_id', '=', user.id)
      .where('action', '=', 'session.foreign_browser_refused')
      .executeTakeFirst();
    expect(entry).toBeDefined();
    expect(JSON.parse(String(entry?.details))).toMatchObject({ user_agent: CHROME });
  });

  it('on: every route that needs a session refuses the token from another browser too', async () => {
    await switchZeroTrust(true);
    const user = await signedInWith(FIREFOX_120);
    const res = await panel.app.inject({ url: '/api/user/session/activities', headers: { cookie: user.cookie, 'user-agent': CHROME } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ error: { code: 'INVALID_SESSION', message: 'Your session has expired or is invalid.' } });
  });
});
