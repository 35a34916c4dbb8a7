// The first page of a load (issue 15), in chromium against the built panel. Nothing is timed (the
// bench measures: npm run bench firstpaint); these are the rules that make it fast:
//   - the first page is shown with no loading state in between and does not fade in; the next
//     navigation still plays its transition;
//   - custom.css and custom.js are not requested while they are empty; once one is set it loads
//     first, by its revision, an address the browser may keep for a year.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { kernelTookOver, openPage, registerThroughApi, uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

/**
 * Records, from before the page's own scripts run, whether a plugin's loading state or the kernel's
 * loading screen was ever in the document, and the transition phase of the first page shown.
 */
async function watchFirstPage(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen = { loading: [] as string[], firstPhase: null as string | null, firstHeading: null as string | null };
    (window as unknown as { __firstPage: typeof seen }).__firstPage = seen;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll<HTMLElement>('[data-plugin-loading]')) {
        const id = el.dataset.pluginLoading ?? '';
        if (!seen.loading.includes(id)) seen.loading.push(id);
      }
      const shown = document.querySelector<HTMLElement>('#app [data-page-transition]');
      if (shown && seen.firstPhase === null) seen.firstPhase = shown.dataset.transitionPhase ?? '';
      const heading = document.querySelector('#app main h1');
      if (heading && seen.firstHeading === null) seen.firstHeading = heading.textContent;
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
}

/** Which plugins showed a loading state (their ids), the first page's transition phase and its first heading. */
const firstPage = (page: Page) =>
  page.evaluate(() => (window as unknown as { __firstPage: { loading: string[]; firstPhase: string | null; firstHeading: string | null } }).__firstPage);

describe('the first page of a load', () => {
  it('the login page: shown at once, without a loading state or a fade-in; a later navigation plays its transition', async () => {
    const { page, context, errors } = await openPage(env.browser);
    await watchFirstPage(page);
    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.locator('#app [data-page-transition]').first().waitFor({ timeout: 20_000 });
    expect(await firstPage(page)).toMatchObject({ loading: [], firstPhase: 'idle' });
    // the page came drawn by the server: the next one is the app's once the kernel has it
    await kernelTookOver(page);

    // the next page comes in as the settings say (fade by default)
    const phases: string[] = [];
    await page.exposeFunction('__phase', (phase: string) => phases.push(phase));
    await page.evaluate(() => {
      new MutationObserver(() => {
        const shown = document.querySelectorAll<HTMLElement>('#app [data-page-transition]');
        for (const el of shown) (window as unknown as { __phase(p: string): void }).__phase(el.dataset.transitionPhase ?? '');
      }).observe(document.getElementById('app') as HTMLElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-transition-phase'] });
    });
    await page.locator('a[href="/auth/register"]').first().click();
    await page.waitForURL('**/auth/register', { timeout: 20_000 });
    await page.locator('#app [data-page-transition][data-transition-phase="idle"]').first().waitFor({ timeout: 20_000 });
    expect(phases).toContain('out');
    expect(phases).toContain('in');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('the signed-in dashboard: its shell and page come with the first render, greeting the user (no skeleton first)', async () => {
    const { page, context } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    const name = uniqueName('first');
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
    await watchFirstPage(page);
    await page.goto(`${env.panel.url}/dashboard`);
    await page
      .getByRole('main')
      .getByRole('heading', { name: /Welcome back/, level: 1 })
      .waitFor({ timeout: 20_000 });
    const seen = await firstPage(page);
    expect(seen.firstPhase).toBe('idle');
    // the page itself never waited behind a loading state (slots filled by other plugins may)
    expect(seen.loading).not.toContain('dashboard');
    // the session came before the mount: the first heading on screen is the greeting, not the skeleton's title
    expect(seen.firstHeading).toMatch(/Welcome back/);
    await context.close();
  });
});

describe('preload hints', () => {
  it("the login page names its plugin's entry and page chunks after the kernel's script; each is downloaded once", async () => {
    const html = await (await fetch(`${env.panel.url}/auth/login`)).text();
    const kernelAt = html.search(/<script type="module" src="\/assets\/kernel-/);
    const hinted = [...html.matchAll(/<link rel="preload" href="(\/plugins\/[^"]+)" as="script"/g)].map((m) => ({ url: m[1], at: m.index ?? 0 }));
    expect(kernelAt).toBeGreaterThan(0);
    expect(hinted.some((h) => /^\/plugins\/auth\/auth-/.test(h.url))).toBe(true);
    expect(hinted.some((h) => /^\/plugins\/auth\/LoginPage-/.test(h.url))).toBe(true);
    expect(hinted.every((h) => h.at > kernelAt)).toBe(true);

    const { page, context, errors } = await openPage(env.browser);
    const requested: string[] = [];
    page.on('request', (request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/plugins/')) requested.push(path);
    });
    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    for (const { url } of hinted) expect(requested.filter((path) => path === url)).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a page sent already drawn leaves the kernel's hint out (the kernel is fetched after its first frame, once); a page the kernel draws keeps it", async () => {
    const KERNEL_HINT = /<link rel="modulepreload" href="(\/assets\/kernel-app-[\w-]+\.js)">/;
    const login = await (await fetch(`${env.panel.url}/auth/login`)).text();
    expect(login).toContain('data-prerendered="/auth/login"');
    expect(login).not.toMatch(/<link rel="modulepreload" href="\/assets\//);
    const drawnByKernel = await (await fetch(`${env.panel.url}/dashboard`)).text();
    expect(drawnByKernel).not.toContain('data-prerendered');
    const kernel = KERNEL_HINT.exec(drawnByKernel)?.[1];
    expect(kernel).toBeTruthy();

    const { page, context, errors } = await openPage(env.browser);
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto(`${env.panel.url}/auth/login`);
    await kernelTookOver(page);
    expect(requested.filter((path) => path === kernel)).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('custom.css and custom.js', () => {
  it('are not requested while empty; once set the stylesheet loads by its revision, cached for good', async () => {
    const { page, context } = await openPage(env.browser);
    const asked: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/system/custom.')) asked.push(`${url.pathname}${url.search}`);
    });
    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    expect(asked).toEqual([]);

    // the host sets a stylesheet from the command line; the running panel follows
    const set = env.panel.cli(['settings', 'set', 'custom_css', 'body { outline: 3px solid rgb(255, 0, 0); }']);
    expect(set.status, set.stderr).toBe(0);
    let html = '';
    for (let i = 0; i < 50 && !html.includes('custom.css?v='); i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      html = await (await fetch(`${env.panel.url}/auth/login`)).text();
    }
    const revision = /custom\.css\?v=([A-Za-z0-9_-]+)/.exec(html)?.[1];
    expect(revision).toBeTruthy();
    // a page sent drawn carries the stylesheet itself: its first frame already has the host's styles
    expect(html).toContain(`<link rel="stylesheet" href="/api/system/custom.css?v=${revision}" data-orepanel="custom">`);

    // the answers as the browser's network saw them (CDP)
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    const answers: { url: string; fromCache: boolean; cacheControl: string }[] = [];
    cdp.on('Network.responseReceived', (event) => {
      if (!new URL(event.response.url).pathname.startsWith('/api/system/custom.')) return;
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      answers.push({ url: event.response.url, fromCache: Boolean(event.response.fromDiskCache), cacheControl: headers['cache-control'] ?? '' });
    });
    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.evaluate(() => getComputedStyle(document.body).outlineColor)).toBe('rgb(255, 0, 0)');
    // the kernel's first step found it there: one stylesheet, not two
    await kernelTookOver(page);
    expect(await page.locator('link[data-orepanel="custom"]').count()).toBe(1);
    // the stylesheet only (custom.js is still empty), by its revision, cached for good
    expect([...new Set(asked)]).toEqual([`/api/system/custom.css?v=${revision}`]);
    expect(answers.length).toBeGreaterThan(0);
    expect(answers.every((a) => a.cacheControl.includes('immutable'))).toBe(true);

    env.panel.cli(['settings', 'set', 'custom_css', '']);
    await context.close();
  });
});

describe('the service worker (enableCaching)', () => {
  /** The files the worker's cache holds (not its index of when each was last named). */
  const kept = (page: Page) =>
    page.evaluate(async () =>
      (await (await caches.open('orepanel-hashed-v1')).keys()).map((request) => new URL(request.url).pathname).filter((path) => path !== '/sw-named-index.json'),
    );

  it('keeps the files a page used; a return visit reads them from its cache without the worker in front of the page; off removes it', async () => {
    const { page, context, errors } = await openPage(env.browser);
    await page.goto(`${env.panel.url}/auth/login`);
    await kernelTookOver(page);
    const kernelScript = await page.evaluate(() => new URL((document.querySelector('script[type="module"][src]') as HTMLScriptElement).src).pathname);
    // the page names its files to the worker when idle; the worker stores them
    await expect.poll(() => kept(page), { timeout: 20_000 }).toContain(kernelScript);
    const files = await kept(page);
    expect(files.some((path) => path.startsWith('/plugins/auth/'))).toBe(true);
    expect(files.every((path) => /^\/(assets|plugins)\/.+-[A-Za-z0-9_-]{6,}\.\w+$/.test(path))).toBe(true);

    await page.goto(`${env.panel.url}/auth/login`);
    await kernelTookOver(page);
    const sources = await page.evaluate(() => {
      type Routed = PerformanceResourceTiming & { workerMatchedSourceType?: string };
      const source = (entry: PerformanceEntry | undefined) => (entry as Routed | undefined)?.workerMatchedSourceType ?? 'none';
      const resources = performance.getEntriesByType('resource');
      return {
        navigation: source(performance.getEntriesByType('navigation')[0]),
        kernel: source(resources.find((entry) => new URL(entry.name).pathname.startsWith('/assets/kernel-'))),
        catalogue: source(resources.find((entry) => new URL(entry.name).pathname.startsWith('/locales/'))),
      };
    });
    // static routes: the page itself and what is not a hashed file go straight to the network, the
    // hashed files come from the worker's cache, and no request waited for the worker to start
    expect(sources).toEqual({ navigation: 'network', kernel: 'cache', catalogue: 'network' });

    // switched off in the customisation settings: the next load unregisters it
    await page.evaluate(() => localStorage.setItem('ui-settings', JSON.stringify({ performance: { enableCaching: false } })));
    await page.goto(`${env.panel.url}/auth/login`);
    await kernelTookOver(page);
    await expect.poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), { timeout: 20_000 }).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
