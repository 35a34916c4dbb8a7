// Spec §1/§9: six languages, the stored locale wins, English is the fallback. Switching the language
// re-renders the kernel and every plugin's texts and survives a reload.
import { describe, expect, it } from 'vitest';
import { openPage, registerThroughApi, uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

describe('language switch', () => {
  it('switches the shell and the plugin pages to French, stores it under `locale`, keeps it after a reload', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    const name = uniqueName('lang');
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1', first_name: 'Ana' });
    await page.goto(`${env.panel.url}/dashboard`);
    const nav = page.locator('nav a[href="/dashboard"]').first();
    await expect.poll(() => nav.innerText(), { timeout: 15_000 }).toContain('Dashboard');

    await page.locator('[data-testid="language-picker"]:visible').first().selectOption('fr');
    await expect.poll(() => nav.innerText(), { timeout: 10_000 }).toContain('Tableau de bord');
    await expect.poll(() => page.locator('main').innerText()).toContain('Bon retour, Ana');
    expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('fr');
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');

    await page.reload();
    await expect.poll(() => page.locator('nav a[href="/dashboard"]').first().innerText(), { timeout: 15_000 }).toContain('Tableau de bord');
    await context.close();
  });

  it('a stored locale is used for the login page (only its catalogue + English are fetched), and from the first paint once its cookie mirrors it', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    // stored before the sdk mirrored the language in a cookie: the server cannot know it yet
    await page.evaluate(() => {
      localStorage.setItem('locale', 'de');
      document.cookie = 'locale=; path=/; max-age=0';
    });
    const localeFiles: string[] = [];
    page.on('request', (r) => {
      if (/\/locales\/[^/]+\.json$/.test(new URL(r.url()).pathname)) localeFiles.push(new URL(r.url()).pathname);
    });
    await page.reload();
    await page.locator('input[type="password"]').waitFor();
    // the server's page is English; the kernel mounts the stored language
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), { timeout: 15_000 }).toBe('de');
    await expect.poll(() => page.locator('h1').innerText(), { timeout: 15_000 }).toBe('Willkommen zurück');
    const langs = new Set(localeFiles.map((p) => /^(en|ro|fr|de|es|md)[-.]/.exec(p.split('/').pop() ?? '')?.[1]));
    expect([...langs].sort()).toEqual(['de', 'en']);
    // the kernel mirrored it in the cookie: the next first response is German before any script
    expect(await page.evaluate(() => document.cookie)).toContain('locale=de');
    const next = await context.newPage();
    await next.route('**/assets/kernel-*.js', (route) => route.abort());
    await next.goto(`${env.panel.url}/auth/login`);
    expect(await next.getAttribute('html', 'lang')).toBe('de');
    expect(await next.locator('h1').innerText()).toBe('Willkommen zurück');
    await context.close();
  });
});
