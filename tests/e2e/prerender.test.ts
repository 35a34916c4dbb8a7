// issue 15 in a real browser against the built panel: the login page comes rendered in the first
// response, its form signs in without any script, and the kernel takes the page over without a
// second paint the visitor could see and without losing what was typed meanwhile.
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import { uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

/** A promise the kernel script's download waits for, and the function that lets it through. */
function heldKernel(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}
const PASSWORD = 'correct-horse-1';

async function newAccount(): Promise<string> {
  const name = uniqueName('pre');
  const res = await fetch(`${env.panel.url}/api/user/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ first_name: 'Ada', last_name: 'Lovelace', email: `${name}@example.com`, username: name, password: PASSWORD }),
  });
  expect(res.status).toBe(201);
  return name;
}

/**
 * The login form as a canonical text: elements with their attributes in order of name, style
 * attributes as their longhand properties, text. Left out is what differs by nature between the
 * server's markup and React's: the generated ids (and the attributes pointing at them), `autofocus`
 * (React focuses by script instead of writing it) and the style elements the server writes inline
 * (the kernel's emotion moves them into <head>).
 */
const loginForm = (page: Page) =>
  page.evaluate(() => {
    const skip = new Set(['id', 'for', 'aria-describedby', 'autofocus']);
    const walk = (node: Node): string => {
      if (node.nodeType === Node.TEXT_NODE) return (node.textContent ?? '').trim();
      if (!(node instanceof Element) || node.tagName === 'STYLE') return '';
      const attrs = [...node.attributes]
        .filter((a) => !skip.has(a.name))
        .map((a) => {
          if (a.name !== 'style' || !(node instanceof HTMLElement || node instanceof SVGElement)) return `${a.name}=${a.value}`;
          const style = node.style;
          const longhands = [...Array(style.length).keys()].map((i) => `${style[i]}:${style.getPropertyValue(style[i])}`).sort();
          return `style=${longhands.join(';')}`;
        })
        .sort();
      return `<${node.tagName.toLowerCase()} ${attrs.join(' ')}>${[...node.childNodes].map(walk).join('')}</>`;
    };
    const form = document.querySelector('form');
    return form ? walk(form) : null;
  });

describe('pre-rendered login page (issue 15)', () => {
  it('without JavaScript: the form is there, a wrong password says so, the right one signs in', async () => {
    const name = await newAccount();
    const context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.panel.url}/auth/login`);
    await expect(page.locator('h1').innerText()).resolves.toBe('Welcome back');
    expect(await page.locator('noscript').count()).toBe(0);

    await page.fill('input[name=login]', name);
    await page.fill('input[name=password]', 'not-the-password');
    await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await expect(page.locator('[role=alert]').first().innerText()).resolves.toContain('Invalid username/email or password.');
    // the login name stays, the password never comes back
    expect(await page.inputValue('input[name=login]')).toBe(name);
    expect(await page.inputValue('input[name=password]')).toBe('');

    await page.fill('input[name=password]', PASSWORD);
    await Promise.all([page.waitForURL('**/auth/after-login'), page.click('button[type=submit]')]);
    const cookies = await context.cookies(env.panel.url);
    expect(cookies.find((c) => c.name === 'user_token')?.value).toBeTruthy();
    // signed in: the session answers with the account
    const session = await context.request.get(`${env.panel.url}/api/user/session`);
    expect(session.status()).toBe(200);
    expect(((await session.json()) as { user_info: { username: string } }).user_info.username).toBe(name);
    await context.close();
  });

  it('with JavaScript: text typed before the kernel mounts is kept, and the mounted form is the same form, never gone from the screen', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    // every animation frame, what the visitor sees of the login field: missing, or its opacity
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { __frames: string[] }).__frames = seen;
      const sample = () => {
        const input = document.querySelector('input[name=login]');
        if (!input) seen.push('missing');
        else {
          let opacity = 1;
          for (let el: Element | null = input; el; el = el.parentElement) opacity *= Number(getComputedStyle(el).opacity);
          seen.push(String(opacity));
        }
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    const { held, release } = heldKernel();
    await page.route('**/assets/kernel-*.js', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${env.panel.url}/auth/login`, { waitUntil: 'commit' });
    await page.waitForSelector('form input[name=login]');
    const before = await loginForm(page);
    expect(await page.getAttribute('#app', 'data-prerendered')).toBe('/auth/login');

    await page.type('input[name=login]', 'early-bird');
    await page.type('input[name=password]', 'abcdef');
    // the caret in the middle of the password
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    release();

    // the kernel's page replaced the server's
    await page.waitForFunction(() => !document.getElementById('app')?.hasAttribute('data-prerendered'), undefined, { timeout: 30_000 });
    expect(await page.inputValue('input[name=login]')).toBe('early-bird');
    expect(await page.inputValue('input[name=password]')).toBe('abcdef');
    const focus = await page.evaluate(() => {
      const el = document.activeElement as HTMLInputElement | null;
      return { name: el?.name, start: el?.selectionStart, end: el?.selectionEnd };
    });
    expect(focus).toEqual({ name: 'password', start: 4, end: 4 });
    expect(before).toContain('name=login');
    expect(await loginForm(page)).toBe(before);

    // a few frames after the swap, then: the field was on screen and fully opaque in every frame
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const frames = await page.evaluate(() => (window as unknown as { __frames: string[] }).__frames);
    const first = frames.findIndex((f) => f !== 'missing');
    expect(first).toBeGreaterThanOrEqual(0);
    expect(frames.slice(first).filter((f) => f !== '1')).toEqual([]);

    // the mounted form is the kernel's: a wrong password is answered in place, no page load
    await page.fill('input[name=password]', 'wrong-password');
    await page.click('button[type=submit]');
    await expect(page.locator('[role=alert]').first().innerText()).resolves.toContain('Invalid username/email or password.');
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });

  it('comes in the stored language (the locale cookie mirrors it) and stays in it after the mount', async () => {
    const context = await env.browser.newContext();
    const page = await context.newPage();
    // a visitor who chose German before: stored, and mirrored in the cookie as the sdk does
    await page.goto(`${env.panel.url}/sw.js`);
    await page.evaluate(() => {
      localStorage.setItem('locale', 'de');
      document.cookie = 'locale=de; path=/; samesite=lax';
    });
    const { held, release } = heldKernel();
    await page.route('**/assets/kernel-*.js', async (route: Route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${env.panel.url}/auth/login`, { waitUntil: 'commit' });
    await page.waitForSelector('form');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    const heading = await page.locator('h1').innerText();
    expect(heading).not.toBe('Welcome back');
    release();
    await page.waitForFunction(() => !document.getElementById('app')?.hasAttribute('data-prerendered'), undefined, { timeout: 30_000 });
    expect(await page.locator('h1').innerText()).toBe(heading);

    // switching the language moves the cookie along, so the next first page comes in French
    await page.selectOption('[data-testid=language-picker]', 'fr');
    await page.waitForFunction(() => document.cookie.includes('locale=fr'));
    const next = await context.newPage();
    await next.route('**/assets/kernel-*.js', (route) => route.abort());
    await next.goto(`${env.panel.url}/auth/login`);
    expect(await next.getAttribute('html', 'lang')).toBe('fr');
    await context.close();
  });

  it("a legal page comes with the host's text; the kernel takes it over without asking for the text again", { timeout: 90_000 }, async () => {
    const set = env.panel.cli(['settings', 'set', 'legal_privacy_policy', 'We keep your e-mail address.\n\nNothing else.']);
    expect(set.status, set.stderr).toBe(0);

    // the panel reads the settings the CLI wrote within a few seconds (its copy is refreshed by version)
    await expect
      .poll(async () => (await fetch(`${env.panel.url}/api/legal/privacy-policy`)).json().then((body: { content: string }) => body.content), { timeout: 20_000 })
      .toContain('We keep your e-mail address.');

    const noScript = await env.browser.newContext({ javaScriptEnabled: false });
    const bare = await noScript.newPage();
    await bare.goto(`${env.panel.url}/privacy-policy`);
    await expect(bare.locator('article').innerText()).resolves.toContain('We keep your e-mail address.');
    await noScript.close();

    const context = await env.browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/legal/')) asked.push(request.url());
    });
    await page.goto(`${env.panel.url}/privacy-policy`);
    await page.waitForFunction(() => !document.getElementById('app')?.hasAttribute('data-prerendered'), undefined, { timeout: 30_000 });
    expect(await page.locator('article').innerText()).toContain('Nothing else.');
    expect(await page.locator('[aria-busy]').count()).toBe(0);
    expect(asked).toEqual([]);
    // the other document, reached in the app, is asked for as any page's data is
    await page.getByRole('link', { name: 'Terms of service' }).last().click();
    await page.waitForURL('**/terms-of-service');
    await expect.poll(() => asked.length, { timeout: 15_000 }).toBe(1);
    await context.close();
  });
});
