// The spec's letter in chromium against the BUILT panel (issue 14): /assets/main.css preloaded and
// answering; an ad slot with spec §9's defaults only once a client id is set (the provider's script is
// intercepted: nothing reaches the internet), never on admin pages or for administrators; a route whose
// feature is switched off says so; and a dropped realtime connection (the AFK socket) shows the
// reconnecting banner, then /ws, then comes back to the page once the panel answers again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page, Request, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
const CLIENT = 'ca-pub-1234567890123456';
const PROVIDER = /^https:\/\/pagead2\.googlesyndication\.com\//;

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
const names = { admin: uniqueName('root'), customer: uniqueName('cust') };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};
const providerRequests: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-letter-'));
  const cli = cliFor(dataDir);
  // one address opens every page of this file: lift the app-wide limit (spec default 100/min)
  cli(['settings', 'set', 'rate_limit_per_minute', '5000']);
  cli(['user', 'create', '--username', names.admin, '--email', `${names.admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  cli(['user', 'create', '--username', names.customer, '--email', `${names.customer}@example.com`, '--password', PASSWORD, '--role', '1']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  for (const who of ['admin', 'customer'] as const) {
    const probe = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
    // the ad provider is played here: its script is an empty file, and every request is counted
    await probe.context.route(PROVIDER, (route) => {
      providerRequests.push(`${who} ${route.request().url()}`);
      return route.fulfill({ status: 200, contentType: 'application/javascript', body: '/* ad provider stand-in */' });
    });
    probes[who] = probe;
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const pageOf = (who: keyof typeof names): Page => (probes[who] as PageProbe).page;

async function configure(values: Record<string, string | boolean>): Promise<void> {
  const answer = await pageOf('admin').evaluate(async (body) => {
    const res = await fetch('/api/admin/settings', { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ values: body }) });
    return `${res.status} ${await res.text()}`;
  }, values);
  expect(answer).toMatch(/^200 /);
}

/** Opens `path` and records the panel's own requests until `ready` is in the page. */
async function openRecording(page: Page, path: string, ready: (page: Page) => Locator): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (request: Request) => seen.push(new URL(request.url()).pathname);
  page.on('request', onRequest);
  await page.goto(`${panel.url}${path}`);
  await ready(page)
    .first()
    .waitFor({ ...WAIT, state: 'attached' });
  // the ads step runs after the plugins: give it the moment it needs
  await page.waitForTimeout(500);
  page.off('request', onRequest);
  return seen;
}

describe('/assets/main.css (spec §7)', () => {
  it('is preloaded by index.html (its rules inline for the first frame), linked in their place once the page starts, answers 200 with the stylesheet, and applies', async () => {
    const page = pageOf('customer');
    await page.goto(`${panel.url}/dashboard`);
    await page.getByRole('heading', { name: /Welcome back/, level: 1 }).waitFor(WAIT);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLLinkElement>('link[href*="/assets/main.css"]')].map((l) => ({ rel: l.rel, as: l.getAttribute('as'), path: new URL(l.href).pathname })),
    );
    expect(links).toEqual([
      { rel: 'preload', as: 'style', path: '/assets/main.css' },
      { rel: 'stylesheet', as: null, path: '/assets/main.css' },
    ]);
    const bare = await page.request.get(`${panel.url}/assets/main.css`);
    expect(bare.status()).toBe(200);
    expect(bare.headers()['content-type']).toBe('text/css; charset=utf-8');
    expect(bare.headers()['cache-control']).toBe('no-cache');
    const linked = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="stylesheet"][href*="/assets/main.css"]')?.href ?? '');
    const versioned = await page.request.get(linked);
    expect(versioned.status()).toBe(200);
    expect(versioned.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await versioned.text()).toBe(await bare.text());
    // the inline copy the first frame was drawn with is gone once the file applies
    await page.waitForFunction(() => document.getElementById('op-main-css') === null, undefined, WAIT);
    // the stylesheet is in force on the page
    expect(await page.evaluate(() => [...document.styleSheets].some((sheet) => (sheet.href ?? '').includes('/assets/main.css') && sheet.cssRules.length > 0))).toBe(true);
  });
});

describe('ads (spec §1, §4.4, §5, §9)', () => {
  const AD = '.adswrapper ins.adsbygoogle';
  const welcome = (page: Page) => page.getByRole('heading', { name: /Welcome back/, level: 1 });
  const adSlot = (page: Page) => page.locator(AD);

  it('while ads are off: no ads request, no provider script, no ad slot', async () => {
    providerRequests.length = 0;
    const seen = await openRecording(pageOf('customer'), '/dashboard', welcome);
    expect(seen).not.toContain('/api/system/ga-ads');
    expect(await pageOf('customer').locator('.adswrapper').count()).toBe(0);
    expect(providerRequests).toEqual([]);
  });

  it('switched on without a client id: the ads are skipped with the spec §8 warning, and still nothing is loaded', async () => {
    await configure({ google_ads_enabled: true, google_ads_slot_dashboard: '1111111111', google_ads_slot_earn: '2222222222' });
    providerRequests.length = 0;
    const probe = probes.customer as PageProbe;
    probe.console.length = 0;
    const seen = await openRecording(probe.page, '/dashboard', welcome);
    expect(seen).toContain('/api/system/ga-ads');
    expect(probe.console.some((line) => line.startsWith('warning: Failed to fetch AdSense client code'))).toBe(true);
    expect(await probe.page.locator('.adswrapper').count()).toBe(0);
    expect(providerRequests).toEqual([]);
  });

  it('an ad slot renders with the defaults only when a client id is set, on the dashboard and the earn pages', async () => {
    await configure({ google_ads_client_id: CLIENT });
    providerRequests.length = 0;
    const page = pageOf('customer');
    await openRecording(page, '/dashboard', adSlot);
    const ad = page.locator(AD).first();
    expect(await ad.getAttribute('data-ad-client')).toBe(CLIENT);
    expect(await ad.getAttribute('data-ad-slot')).toBe('1111111111');
    expect(await ad.getAttribute('data-ad-format')).toBe('auto');
    expect(await ad.getAttribute('data-full-width-responsive')).toBe('false');
    expect(await ad.getAttribute('data-adtest')).toBeNull();
    expect(await ad.evaluate((el) => (el as HTMLElement).style.display)).toBe('block');
    expect(await page.getByRole('complementary', { name: 'Advertisement' }).count()).toBe(1);
    // one provider script for the page (page-level ads, naming the publisher), asked once
    expect(providerRequests).toEqual([`customer https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js?client=${CLIENT}`]);
    expect(await page.evaluate(() => (window as unknown as { adsbygoogle: unknown[] }).adsbygoogle.length)).toBe(2);

    await page.getByRole('link', { name: 'Redeem a code' }).first().click();
    await page.waitForURL(/\/earn\/redeem$/, WAIT);
    // the dashboard's ad may still be in the page while its route fades out: wait for the earn page's
    await expect.poll(() => page.locator(`${AD}[data-ad-slot="2222222222"]`).count(), WAIT).toBe(1);
  });

  it('never on an admin page, and never for a holder of user.permission.adblocker (admin.root holds it)', async () => {
    const page = pageOf('admin');
    providerRequests.length = 0;
    await openRecording(page, '/dashboard', welcome);
    expect(await page.locator('.adswrapper').count()).toBe(0);
    await openRecording(page, '/mc-admin/settings', (p) => p.getByRole('heading', { name: 'Settings', level: 1 }));
    expect(await page.locator('.adswrapper').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-ad-free'))).toBe(true);
    expect(providerRequests).toEqual([]);
  });
});

describe('a switched-off feature (issue 14)', () => {
  it('says the feature is switched off on this panel, not "Page not found"', async () => {
    await configure({ code_redemption_enabled: false });
    try {
      const page = pageOf('customer');
      await page.goto(`${panel.url}/earn/redeem`);
      await page.getByRole('heading', { name: 'This feature is switched off' }).waitFor(WAIT);
      expect(page.url()).toBe(`${panel.url}/earn/redeem`);
      expect(await page.getByText('Page not found').count()).toBe(0);
      expect(await page.locator('#op-main').innerText()).toContain('An administrator can switch it on again');
    } finally {
      await configure({ code_redemption_enabled: true });
    }
  });
});

describe('a dropped realtime connection (spec §2 /ws)', () => {
  it('shows the reconnecting banner, then /ws, then returns to the page once the panel answers', { timeout: 120_000 }, async () => {
    const page = pageOf('customer');
    await configure({ google_ads_enabled: false });
    let outage = false;
    let live: WebSocketRoute | null = null;
    // the AFK socket goes through the test: connected to the panel, or refused during the outage
    await page.routeWebSocket(/\/api\/user\/earn\/afk\/socket$/, (socket) => {
      if (outage) {
        void socket.close({ code: 1011, reason: 'outage' });
        return;
      }
      live = socket;
      socket.connectToServer();
    });
    // during the outage the panel does not answer either
    await page.route(/\/api\/(system\/settings|user\/earn\/afk)$/, (route) => (outage ? route.abort('connectionrefused') : route.fallback()));

    await page.goto(`${panel.url}/earn/afk`);
    await page.getByText('Earning', { exact: true }).first().waitFor(WAIT);
    expect(live).not.toBeNull();

    outage = true;
    await (live as unknown as WebSocketRoute).close({ code: 1011, reason: 'dropped' });
    const banner = page.locator('[data-realtime-banner]');
    await banner.waitFor(WAIT);
    expect(await banner.innerText()).toMatch(/Connection lost\. Reconnecting in \d+ s \(attempt 1 of 5\)\./);
    // the page stays usable under the banner
    expect(await page.getByRole('navigation').first().isVisible()).toBe(true);

    // five attempts (1 + 2 + 4 + 8 + 15 s, with jitter), the panel asked, then the lost-connection page
    await page.waitForURL((url) => url.pathname === '/ws', { timeout: 70_000 });
    expect(new URL(page.url()).searchParams.get('from')).toBe('/earn/afk');
    await page.getByRole('heading', { name: 'Connection lost' }).waitFor(WAIT);
    expect(await page.getByRole('button', { name: 'Reconnect now' }).isVisible()).toBe(true);

    // the panel is back: the page notices by itself and returns, and the socket is live again
    outage = false;
    await page.waitForURL((url) => url.pathname === '/earn/afk', { timeout: 30_000 });
    await page.getByText('Earning', { exact: true }).first().waitFor(WAIT);
    expect(await banner.count()).toBe(0);
  });
});
