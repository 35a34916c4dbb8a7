// issue 15 on the server: a GET of a page a plugin declares pre-renderable gets index.html with the page
// inside #app (per language, the rest of the document unchanged), and the login form posted without
// any script signs in through the auth plugin's own API route — same cookie, same rate limits, same
// origin check — or comes back with the error; a 2FA account goes on to the code page, whose form
// works the same way.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import authPlugin from '../../plugins/auth/client/index';
import errorsPlugin from '../../plugins/errors/client/index';
import legalPlugin from '../../plugins/legal/client/index';
import { totpCode, totpStep } from '../../plugins/auth/server/totp';
import { LANGUAGES } from '../../sdk/types';
import { PASSWORD, cookieHeader, register, setCookies, startPanel, type TestPanel } from './harness';
import { deliverQueued, linkIn, startSmtpServer, useSmtpServer } from './smtp-server';

const ROOT = new URL('../../', import.meta.url).pathname;
const readJson = (path: string) => JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as unknown;

/** A built-looking public folder: public/index.html with its catalogue map and the kernel's catalogues. */
function publicFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'orepanel-prerender-'));
  mkdirSync(join(dir, 'locales'));
  const urls: Record<string, string> = {};
  for (const lang of LANGUAGES) {
    const catalogue = {
      kernel: readJson(`locales/${lang}.json`),
      auth: readJson(`plugins/auth/locales/${lang}.json`),
      errors: readJson(`plugins/errors/locales/${lang}.json`),
      legal: readJson(`plugins/legal/locales/${lang}.json`),
    };
    writeFileSync(join(dir, 'locales', `${lang}-test0001.json`), JSON.stringify(catalogue));
    urls[lang] = `/locales/${lang}-test0001.json`;
  }
  const template = readFileSync(join(ROOT, 'public/index.html'), 'utf8').replace(
    '<!--orepanel:assets-->',
    `<script type="application/json" id="orepanel-kernel-locales">${JSON.stringify(urls)}</script>\n    <!--orepanel:boot-->`,
  );
  writeFileSync(join(dir, 'index.html'), template);
  return dir;
}

const pageRenderer = async () => {
  const renderer = await import('../../kernel/prerender/render-page');
  renderer.providePrerenderPlugin(authPlugin);
  renderer.providePrerenderPlugin(errorsPlugin);
  renderer.providePrerenderPlugin(legalPlugin);
  return renderer;
};

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = 'application/x-www-form-urlencoded';

describe('pre-rendered pages and their forms without JavaScript', () => {
  let panel: TestPanel;
  let publicDir: string;
  beforeAll(async () => {
    publicDir = publicFolder();
    panel = await startPanel('sqlite', { publicDir, pageRenderer, jobs: false });
  });
  afterAll(async () => {
    await panel?.close();
    rmSync(publicDir, { recursive: true, force: true });
  });

  const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    panel.app.inject({ method: 'POST', url, headers: { 'content-type': FORM, host: 'panel.test', origin: 'http://panel.test', ...headers }, payload: form(fields) });

  it('GET of a declared page: the page inside #app, in the language of the locale cookie; the boot block stays', async () => {
    const res = await panel.app.inject({ url: '/auth/login' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="app" data-prerendered="/auth/login">');
    expect(res.body).toContain('Welcome back');
    expect(res.body).toMatch(/<form[^>]* method="post"/);
    expect(res.body).toContain('id="op-boot"');
    expect(res.body).not.toContain('op-boot-spinner');
    // its form works without a script: no "JavaScript is required"
    expect(res.body).not.toContain('<noscript>');

    // the tab reads what the mounted page will set: the route's title and the panel's name
    expect(res.body).toMatch(/<title>Log in · [^<]+<\/title>/);

    const german = await panel.app.inject({ url: '/auth/login', headers: { cookie: 'locale=de' } });
    expect(german.body).toContain('<html lang="de"');
    await panel.services.settings.set('app_name', 'Block & Co');
    const named = await panel.app.inject({ url: '/auth/login', headers: { cookie: 'locale=de' } });
    expect(named.body).toContain('<title>Anmelden · Block &amp; Co</title>');
    expect(german.body).toContain('Willkommen zurück');
    expect(german.headers.etag).not.toBe(res.headers.etag);
    // an unknown value is the kernel's default: English
    expect((await panel.app.inject({ url: '/auth/login', headers: { cookie: 'locale=xx' } })).body).toContain('Welcome back');
  });

  it('GET of any other page, or with a query string, is the plain index.html', async () => {
    for (const url of ['/dashboard', '/auth/login?next=1', '/privacy-policy?x=1', '/']) {
      const res = await panel.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain('data-prerendered');
      expect(res.body, url).toContain('op-boot-spinner');
    }
  });

  it('a page with `prerender.data` comes drawn with its public answer, which it carries for the kernel; a new text shows at once', async () => {
    const text = 'Our <b>policy</b>\n\nWe keep 3 logs.';
    await panel.services.settings.set('legal_privacy_policy', text);
    const res = await panel.app.inject({ url: '/privacy-policy' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="app" data-prerendered="/privacy-policy">');
    // drawn as text, never as markup
    expect(res.body).toContain('Our &lt;b&gt;policy&lt;/b&gt;');
    expect(res.body).toContain('We keep 3 logs.');
    expect(res.body).not.toContain('aria-busy');
    const carried = /<script type="application\/json" id="op-prerender-data">([^<]*)<\/script>/.exec(res.body);
    expect(carried).not.toBeNull();
    const api = await panel.app.inject({ url: '/api/legal/privacy-policy' });
    expect(JSON.parse(carried?.[1] ?? 'null')).toEqual({ '/api/legal/privacy-policy': api.json() });
    // no form of its own: it still says that the panel needs JavaScript
    expect(res.body).toContain('<noscript>');

    await panel.services.settings.set('legal_privacy_policy', 'A new text.');
    const again = await panel.app.inject({ url: '/privacy-policy' });
    expect(again.body).toContain('A new text.');
    expect(again.body).not.toContain('We keep 3 logs.');
  });

  it('posted login, right password: 303 to the after-login route with the session cookie the API sets', async () => {
    const account = await register(panel.app);
    const res = await post('/auth/login', { login: account.body.username, password: PASSWORD });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/auth/after-login');
    const viaApi = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: account.body.username, password: PASSWORD } });
    const formCookies = setCookies(res);
    const apiCookies = setCookies(viaApi);
    expect(Object.keys(formCookies).sort()).toEqual(Object.keys(apiCookies).sort());
    expect(formCookies.user_token.attributes).toEqual(apiCookies.user_token.attributes);
    const session = await panel.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(res) } });
    expect(session.statusCode).toBe(200);
    expect(session.json()).toMatchObject({ success: true, user_info: { username: account.body.username } });
  });

  it('posted login, wrong password: the page again under 401 with the spec text, the login kept, the password not', async () => {
    const account = await register(panel.app);
    const res = await post('/auth/login', { login: account.body.username, password: 'not the password' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.body).toContain('Invalid username/email or password.');
    expect(res.body).toContain(`value="${account.body.username}"`);
    expect(res.body).not.toContain('not the password');
    expect(res.body).toContain('id="op-prerender-form"');
    // the same answer in the visitor's language
    const french = await post('/auth/login', { login: account.body.username, password: 'nope' }, { cookie: 'locale=fr' });
    expect(french.body).toContain('<html lang="fr"');
    const frenchText = (readJson('plugins/auth/locales/fr.json') as { errors: { INVALID_CREDENTIALS: string } }).errors.INVALID_CREDENTIALS;
    expect(french.body).toMatch(new RegExp(`role="alert"[\\s\\S]*${frenchText.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('posted forgot-password form: 303 to the page that says a link is on its way, which comes drawn; the link is mailed as through the API', async () => {
    const account = await register(panel.app);
    // no mail set up yet: the page says so instead of claiming a link is on its way
    const noMail = await post('/auth/forgot-password', { email: account.body.email });
    expect(noMail.statusCode).toBe(409);
    expect(noMail.body).toContain('data-prerendered="/auth/forgot-password"');
    expect(noMail.body).toContain(`value="${account.body.email}"`);

    const smtp = await startSmtpServer();
    try {
      await useSmtpServer(panel.services.settings, smtp);
      await panel.services.database.db.deleteFrom('mail_queue').execute();
      const res = await post('/auth/forgot-password', { email: account.body.email });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/auth/forgot-password/sent');
      const [mail] = await deliverQueued(panel, smtp, 1);
      expect(mail.to).toEqual([account.body.email]);
      expect(linkIn(mail, 'https://panel.example.com/auth/reset-password?token=')).toMatch(/token=[A-Za-z0-9_-]{43}$/);
      // an address no account uses gets the very same answer, and no mail
      const unknown = await post('/auth/forgot-password', { email: 'nobody-here@example.com' });
      expect([unknown.statusCode, unknown.headers.location]).toEqual([303, '/auth/forgot-password/sent']);
    } finally {
      await panel.services.settings.set('smtp_host', '');
      await smtp.close();
    }
    const sent = await panel.app.inject({ url: '/auth/forgot-password/sent' });
    expect(sent.body).toContain('data-prerendered="/auth/forgot-password/sent"');
    expect(sent.body).toContain('a link to reset its password is on its way');
  });

  it('posted forgot-password form with a malformed address: the page again under 400, the address kept', async () => {
    const res = await post('/auth/forgot-password', { email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('data-prerendered="/auth/forgot-password"');
    expect(res.body).toContain('value="not-an-email"');
    expect(res.body).toContain('id="op-prerender-form"');
  });

  it('a kept value is written as text, never as markup', async () => {
    const res = await post('/auth/login', { login: 'a"><script>alert(1)</script>', password: 'x' });
    expect(res.statusCode).toBe(401);
    expect(res.body).toContain('value="a&quot;>&lt;script>alert(1)&lt;/script>"');
    expect(res.body).not.toContain('<script>alert(1)');
    // the next refused post gets its own value in the same (cached) page
    const again = await post('/auth/login', { login: 'someone-else', password: 'x' });
    expect(again.body).toContain('value="someone-else"');
    expect(again.body).not.toContain('alert(1)');
  });

  it('a cross-site post is refused before anything is checked', async () => {
    const account = await register(panel.app);
    const res = await post('/auth/login', { login: account.body.username, password: PASSWORD }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'CROSS_SITE_REQUEST' } });
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('a page without a form of its own says it needs JavaScript; other paths and the API are not form targets', async () => {
    const res = await post('/auth/register', { username: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('This form needs JavaScript');
    expect((await post('/dashboard', { a: '1' })).statusCode).toBe(404);
    // the API still takes JSON only
    expect((await post('/api/user/auth/login', { login: 'a', password: 'b' })).statusCode).toBe(415);
  });

  it('a 2FA account goes on to the code page, whose posted code completes the sign-in', async () => {
    const account = await register(panel.app);
    const setup = await panel.app.inject({ url: '/api/user/auth/2fa/setup', headers: { cookie: account.cookie } });
    const { secret } = setup.json() as { secret: string };
    const confirmed = await panel.app.inject({
      method: 'POST',
      url: '/api/user/auth/2fa/setup',
      headers: { cookie: account.cookie },
      payload: { code: totpCode(secret, totpStep() - 1) },
    });
    expect(confirmed.statusCode).toBe(200);

    const login = await post('/auth/login', { login: account.body.username, password: PASSWORD });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/auth/2fa/verify');
    const pending = cookieHeader(login);
    expect((await panel.app.inject({ url: '/api/user/session', headers: { cookie: pending } })).json()).toMatchObject({ error_code: 'TW0_FA_BLOCKED' });

    // the code page comes pre-rendered too, and a wrong code is shown on it
    expect((await panel.app.inject({ url: '/auth/2fa/verify', headers: { cookie: pending } })).body).toContain('data-prerendered="/auth/2fa/verify"');
    const wrong = await post('/auth/2fa/verify', { code: '000000' }, { cookie: pending });
    expect(wrong.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrong.body).toContain('data-prerendered="/auth/2fa/verify"');

    const verified = await post('/auth/2fa/verify', { code: totpCode(secret, totpStep()) }, { cookie: pending });
    expect(verified.statusCode).toBe(303);
    expect(verified.headers.location).toBe('/auth/after-login');
    // the verified session may come under a new token (the API rotates it)
    const session = await panel.app.inject({ url: '/api/user/session', headers: { cookie: cookieHeader(verified) || pending } });
    expect(session.json()).toMatchObject({ success: true, user_info: { username: account.body.username } });
  });
});

describe('pre-rendered login form and the rate limits', () => {
  let panel: TestPanel;
  let publicDir: string;
  beforeAll(async () => {
    publicDir = publicFolder();
    panel = await startPanel('sqlite', { publicDir, pageRenderer, jobs: false, rateLimits: 'defaults' });
  });
  afterAll(async () => {
    await panel?.close();
    rmSync(publicDir, { recursive: true, force: true });
  });

  it("counts a posted form as the API's own login attempt: the limit's 429 shows on the page with Retry-After", async () => {
    const account = await register(panel.app);
    const statuses: number[] = [];
    let last = null as Awaited<ReturnType<TestPanel['app']['inject']>> | null;
    for (let i = 0; i < 12; i++) {
      last = await panel.app.inject({
        method: 'POST',
        url: '/auth/login',
        headers: { 'content-type': FORM, host: 'panel.test', origin: 'http://panel.test' },
        payload: form({ login: account.body.username, password: 'wrong password' }),
      });
      statuses.push(last.statusCode);
    }
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.headers['retry-after']).toBeDefined();
    expect(last?.body).toContain('Too many attempts. Please wait a moment and try again.');
    // and the right password is refused too until the window passes
    const right = await panel.app.inject({
      method: 'POST',
      url: '/auth/login',
      headers: { 'content-type': FORM, host: 'panel.test', origin: 'http://panel.test' },
      payload: form({ login: account.body.username, password: PASSWORD }),
    });
    expect(right.statusCode).toBe(429);
    expect(right.headers['set-cookie']).toBeUndefined();
  });
});
