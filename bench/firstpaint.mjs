// The first page's speed (issue 15), measured in Debian's chromium against the built panel:
// the time from navigation start until the login page's password field — or, signed in, the
// dashboard's greeting over its first cards with data — is visible and fully opaque. A script
// added before any of the page's own (addInitScript) watches the document with a MutationObserver
// and checks on every animation frame; the figure is performance.now() (0 = navigation start) at
// the first frame where the element has a size and it and all its ancestors compute opacity 1. The
// probe reports it with console.debug: the harness evaluates nothing in the page while it loads.
//
// Seven runs after one warm-up per figure, median and range:
//   loopback, cold      a new browser context (empty cache)
//   loopback, second    the same context, after one full visit (cache and service worker as a user has them)
//   Fast 3G, cold       CDP Network.emulateNetworkConditions (150 ms RTT, 1.6 Mbit/s down, 750 kbit/s up),
//                       service workers blocked (the emulation does not apply to them)
//   Fast 3G, second     first visit on loopback, then the emulation, then the measured visit
// plus the login page's cold requests and JS + CSS bytes (gzip -9 of each body, as bundle-budget.mjs),
// the part of those bytes no work on the panel's own code can remove (bench/shared-floor.mjs), and what
// the pre-rendered form needs before it is usable (its HTML).
// Each figure is printed against the issue's goal and against the reference dashboard's figures.
// The panel serves its files brotli-compressed (.br copies from the build, index.html in memory).
//
// Another build can be measured: BENCH_ROOT=/path/to/checkout (or `node bench/firstpaint.mjs <root>`);
// BENCH_BASE=/path/to/baseline-checkout (or a second argument) measures a baseline build in the same
// run, its runs alternating with this build's. BENCH_RUNS changes the number of runs (default 7);
// BENCH_ONLY picks the figures to measure (see ONLY below).
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ROOT, startPanel } from './lib.mjs';
import { sharedModulesTotal } from './shared-floor.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
/** BENCH_ONLY=dashboard or BENCH_ONLY="login:loopback cold,dashboard:loopback second" measures just those figures. */
const ONLY = (process.env.BENCH_ONLY ?? '')
  .split(',')
  .map((item) => item.trim())
  .filter(Boolean);
const measured = (name, condition) => ONLY.length === 0 || ONLY.includes(name) || ONLY.includes(`${name}:${condition}`);
const TIMEOUT = 60_000;
const PASSWORD = 'bench-password-1';
/** DevTools' "Fast 3G" as the issue defines it: bytes per second */
const FAST_3G = { offline: false, latency: 150, downloadThroughput: (1.6 * 1000 * 1000) / 8, uploadThroughput: (750 * 1000) / 8 };

const TARGETS = {
  login: { path: '/auth/login', selector: 'input[type="password"]', text: null },
  // the greeting renders with the first stat cards, once the session's data is there
  dashboard: { path: '/dashboard', selector: 'main h1', text: '^Welcome back' },
};

/** The issue's figures: Orepanel before the work, and MythicalDash v3 (the reference), login page. */
const ISSUE = {
  'loopback cold': { before: 646, reference: 190 },
  'loopback second': { before: 670, reference: 168 },
  'Fast 3G cold': { before: 2265, reference: 1213 },
  'Fast 3G second': { before: 906, reference: 323 },
};
const GOALS = {
  login: { 'loopback cold': 95, 'Fast 3G cold': 900 },
  dashboard: { 'loopback second': 150 },
};

/** Runs in the page before its own scripts: records when the target is first visible and opaque. */
function probe({ selector, text, prefix: FIGURE_PREFIX }) {
  const pattern = text ? new RegExp(text) : null;
  window.__firstPaint = null;
  // when the kernel replaced a page the server sent drawn (#app loses data-prerendered at the swap)
  window.__takeover = null;
  let drawnByServer = false;
  const takeover = new MutationObserver(() => {
    const app = document.getElementById('app');
    if (!app) return;
    if (app.hasAttribute('data-prerendered')) drawnByServer = true;
    else if (drawnByServer) {
      window.__takeover = performance.now();
      takeover.disconnect();
    }
  });
  takeover.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-prerendered'] });
  const shown = (el) => {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return false;
    if (pattern && !pattern.test(el.textContent ?? '')) return false;
    for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.opacity !== '1' || style.visibility === 'hidden' || style.display === 'none') return false;
    }
    return true;
  };
  const check = () => {
    if (window.__firstPaint !== null) return true;
    for (const el of document.querySelectorAll(selector)) {
      if (shown(el)) {
        window.__firstPaint = performance.now();
        // reported through the console: polling the page from the harness (waitForFunction) would
        // compile Playwright's injected script on the page's main thread in the middle of the load
        console.debug(`${FIGURE_PREFIX}${window.__firstPaint}`);
        observer.disconnect();
        return true;
      }
    }
    return false;
  };
  const observer = new MutationObserver(() => {
    if (window.__firstPaint === null) requestAnimationFrame(check);
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  // opacity changes by a transition mutate nothing: check every frame too
  const frame = () => {
    if (!check()) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const ms = (n) => `${Math.round(n).toLocaleString('en-US')} ms`;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * The machine's floors for the login figure, measured in the same run because they move with the
 * machine as much as the panel does: a bare page (one password field) and this build's own login
 * HTML with every script and preload taken out — the same markup as a static page — both served
 * brotli-compressed by a bare node:http server. The login page's cold figure over the second is how
 * far the panel is from "the speed of a static page".
 */
async function startFloors(panelUrl) {
  const loginHtml = await (await fetch(`${panelUrl}${TARGETS.login.path}`)).text();
  const staticLogin = loginHtml.replace(/<script type="module"[^>]*><\/script>/g, '').replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, '');
  if (!staticLogin.includes('type="password"')) throw new Error('the login page is not pre-rendered: no floor to compare it with');
  const pages = {
    'bare page (one password field)': '<!doctype html><html lang="en"><meta charset="utf-8"><title>floor</title><input type="password">',
    'the login HTML without scripts': staticLogin,
  };
  const floors = [];
  for (const [label, html] of Object.entries(pages)) {
    const body = brotliCompressSync(html);
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br', 'cache-control': 'no-store' });
      res.end(body);
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    floors.push({ label, url: `http://127.0.0.1:${server.address().port}`, server, figures: [] });
  }
  return floors;
}

/** The probe's console message that carries its figure. */
const FIGURE_PREFIX = '__firstPaint ';

/**
 * Navigates `page` to the target and answers the probe's figure (ms from navigation start) and, on a
 * page the server sent drawn, when the kernel took it over (read once the page is done loading).
 */
async function visit(page, url, target) {
  const reported = page.waitForEvent('console', { predicate: (message) => message.text().startsWith(FIGURE_PREFIX), timeout: TIMEOUT });
  await page.goto(`${url}${target.path}`, { waitUntil: 'commit', timeout: TIMEOUT });
  const figure = Number((await reported).text().slice(FIGURE_PREFIX.length));
  // let the page finish what it loads (the second visit finds it all cached)
  await page.waitForLoadState('networkidle', { timeout: TIMEOUT }).catch(() => {});
  const takeover = await page.evaluate(() => window.__takeover ?? null).catch(() => null);
  return { figure, takeover };
}

async function throttle(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', FAST_3G);
}

/** One measured load of `target` under `condition` in a fresh context. */
async function once(browser, url, target, condition, storageState) {
  const fast3g = condition.startsWith('Fast 3G');
  const second = condition.endsWith('second');
  const context = await browser.newContext({
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    storageState,
    serviceWorkers: fast3g && !second ? 'block' : 'allow',
  });
  try {
    await context.addInitScript(probe, { selector: target.selector, text: target.text, prefix: FIGURE_PREFIX });
    const page = await context.newPage();
    if (second) {
      await visit(page, url, target);
      await page.goto('about:blank');
    }
    if (fast3g) await throttle(page);
    return await visit(page, url, target);
  } finally {
    await context.close();
  }
}

/** The login page's cold load: every request until the network is idle, and the JS + CSS it downloads. */
async function coldRequests(browser, url) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  try {
    const page = await context.newPage();
    const finished = [];
    page.on('requestfinished', (req) => finished.push(req));
    const failed = [];
    page.on('requestfailed', (req) => failed.push(req));
    await page.goto(`${url}${TARGETS.login.path}`, { timeout: TIMEOUT });
    await page.locator(TARGETS.login.selector).first().waitFor({ state: 'visible', timeout: TIMEOUT });
    await page.waitForLoadState('networkidle', { timeout: TIMEOUT });
    let jsCss = 0;
    const lines = [];
    let brotli = 0;
    let compressible = 0;
    /** the page's HTML: all a pre-rendered form needs before it is usable when it posts without a script */
    let html = null;
    for (const req of finished) {
      const res = await req.response();
      if (!res) continue;
      const headers = res.headers();
      const type = headers['content-type'] ?? '';
      if (req.resourceType() === 'document') {
        const text = (await res.body().catch(() => Buffer.alloc(0))).toString('utf8');
        const inlineCss = [...text.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
        html = { bytes: gzipSync(text, { level: 9 }).length, css: gzipSync(inlineCss, { level: 9 }).length, postsWithoutScript: /<form\b[^>]*\bmethod="post"/i.test(text) };
      }
      const code = /javascript|css/.test(type);
      let size = 0;
      if (code) {
        size = gzipSync(await res.body().catch(() => Buffer.alloc(0)), { level: 9 }).length;
        jsCss += size;
      }
      if (/javascript|css|html|json/.test(type) && res.status() === 200) {
        compressible++;
        if (headers['content-encoding'] === 'br') brotli++;
      }
      lines.push(
        `${req.method()} ${new URL(req.url()).pathname}${new URL(req.url()).search} ${res.status()} ${headers['content-encoding'] ?? '-'}${code ? ` ${kb(size)} gz` : ''}`,
      );
    }
    for (const req of failed) lines.push(`${req.method()} ${new URL(req.url()).pathname} FAILED ${req.failure()?.errorText ?? ''}`);
    return { count: finished.length + failed.length, jsCss, lines, brotli, compressible, html };
  } finally {
    await context.close();
  }
}

/** A user, signed in once; its cookies and local storage seed every dashboard run. */
async function signedInState(browser, panel) {
  const username = `bench${Date.now().toString(36)}`;
  const created = panel.cli(['user', 'create', '--username', username, '--email', `${username}@example.com`, '--password', PASSWORD, '--role', '1']);
  if (created.status !== 0) throw new Error(`user create failed: ${created.stderr || created.stdout}`);
  const context = await browser.newContext({ locale: 'en-US' });
  try {
    const page = await context.newPage();
    await page.goto(`${panel.url}${TARGETS.login.path}`);
    await page.locator(TARGETS.login.selector).first().waitFor({ timeout: TIMEOUT });
    const status = await page.evaluate(
      async (body) => (await fetch('/api/user/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
      { login: username, password: PASSWORD },
    );
    if (status !== 200) throw new Error(`login answered ${status}`);
    // the dashboard stores the session's role and permissions, as after a real sign-in
    await page.goto(`${panel.url}${TARGETS.dashboard.path}`);
    await page.getByRole('heading', { name: /Welcome back/, level: 1 }).waitFor({ timeout: TIMEOUT });
    return await context.storageState();
  } finally {
    await context.close();
  }
}

function verdict(value, goal) {
  if (goal === undefined) return '';
  return value <= goal ? `goal ≤ ${ms(goal)} OK` : `goal ≤ ${ms(goal)} OVER`;
}

const loadNow = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Prints one build's figures against the goals and the issue's. */
function report(label, results, requests, sharedFloor) {
  console.log(`\n### ${label}`);
  console.log(`login page: password field visible and opaque (median of ${RUNS}, range)`);
  for (const [condition, r] of Object.entries(results.login)) {
    const goal = GOALS.login[condition] ?? (condition.endsWith('second') ? results.login[condition.replace('second', 'cold')]?.median : undefined);
    const label = GOALS.login[condition] === undefined && goal !== undefined ? `faster than cold (${ms(goal)}) ${r.median < goal ? 'OK' : 'OVER'}` : verdict(r.median, goal);
    console.log(
      `  ${condition.padEnd(16)} ${ms(r.median).padStart(9)} (${ms(r.min)}–${ms(r.max)})  ${label.padEnd(28)} issue: Orepanel ${ms(ISSUE[condition].before)}, reference ${ms(ISSUE[condition].reference)} (${(r.median / ISSUE[condition].reference).toFixed(2)}×)${r.takeover === null ? '' : `; kernel took over at ${ms(r.takeover)}`}`,
    );
  }
  console.log(`  requests, cold   ${String(requests.count).padStart(9)}     goal ≤ 12 ${requests.count <= 12 ? 'OK' : 'OVER'}                 issue: Orepanel 27, reference 29`);
  console.log(
    `  JS + CSS gzip -9 ${kb(requests.jsCss).padStart(9)}     goal ≤ 150 KB ${requests.jsCss <= 150 * 1024 ? 'OK' : 'OVER'}             issue: Orepanel 198 KB, reference 159 KB`,
  );
  console.log(`    of which at least ${kb(sharedFloor)}: the packages the kernel shares with plugins, whole (bench/shared-floor.mjs)`);
  if (requests.html?.postsWithoutScript) {
    console.log(`  needed before the form is usable: the HTML, ${kb(requests.html.bytes)} gzip, its CSS inline (${kb(requests.html.css)}); no script — the form posts without one`);
  }
  console.log(`signed-in dashboard: greeting over the first cards with data (median of ${RUNS}, range)`);
  for (const [condition, r] of Object.entries(results.dashboard)) {
    console.log(`  ${condition.padEnd(16)} ${ms(r.median).padStart(9)} (${ms(r.min)}–${ms(r.max)})  ${verdict(r.median, GOALS.dashboard[condition])}`);
  }
}

/** The floors, and each build's login cold figure over the static page's. */
function reportFloors(floors, builds) {
  if (floors.length === 0) return;
  console.log(`\n### the machine's floors (node:http, loopback, cold, median of ${RUNS}, range), measured alongside`);
  for (const floor of floors)
    console.log(`  ${floor.label.padEnd(34)} ${ms(median(floor.figures)).padStart(9)} (${ms(Math.min(...floor.figures))}–${ms(Math.max(...floor.figures))})`);
  const staticPage = median(floors[floors.length - 1].figures);
  for (const build of builds) {
    const cold = build.results.login['loopback cold'];
    if (cold) console.log(`  ${build.label}: login, loopback, cold = ${(cold.median / staticPage).toFixed(2)}× the static page`);
  }
}

/**
 * Measures the build in `root`; with `baseRoot` (BENCH_BASE) another build too, in the same run,
 * its runs alternating with this one's — on a loaded machine only figures taken side by side compare.
 */
export async function run(root = process.env.BENCH_ROOT ?? ROOT, baseRoot = process.env.BENCH_BASE) {
  const builds = [{ label: `this build (${root})`, root }, ...(baseRoot ? [{ label: `baseline (${baseRoot})`, root: join(baseRoot, '/') }] : [])];
  for (const build of builds) if (!existsSync(join(build.root, 'dist', 'plugins.json'))) throw new Error(`${build.root}dist/ is missing: run npm run build there`);
  console.log(`machine load (1/5/15 min) at start: ${loadNow()} — a shared machine: figures move with it${builds.length > 1 ? '; the builds run alternately' : ''}`);
  const browser = await launch();
  const running = [];
  try {
    for (const build of builds) {
      const panel = await startPanel({}, build.root);
      running.push(panel);
      const storageState = await signedInState(browser, panel);
      const requests = await coldRequests(browser, panel.url);
      console.log(`${build.label}: the login page, cold (service workers blocked), every request until the network is idle:`);
      for (const line of requests.lines) console.log(`  ${line}`);
      console.log(`  brotli: ${requests.brotli} of ${requests.compressible} text responses`);
      Object.assign(build, { panel, storageState, requests, results: { login: {}, dashboard: {} } });
    }
    const floors = measured('login', 'loopback cold') ? await startFloors(builds[0].panel.url) : [];
    running.push(...floors.map(({ server }) => ({ stop: () => new Promise((resolve) => server.close(resolve)) })));
    for (const [name, target] of Object.entries(TARGETS)) {
      for (const condition of Object.keys(ISSUE)) {
        if (!measured(name, condition)) continue;
        const figures = builds.map(() => []);
        const takeovers = builds.map(() => []);
        const withFloors = name === 'login' && condition === 'loopback cold' ? floors : [];
        for (let i = -1; i < RUNS; i++) {
          for (const [b, build] of builds.entries()) {
            const { figure, takeover } = await once(browser, build.panel.url, target, condition, name === 'dashboard' ? build.storageState : undefined);
            // run -1 is the warm-up
            if (i >= 0) figures[b].push(figure);
            if (i >= 0 && takeover !== null) takeovers[b].push(takeover);
          }
          for (const floor of withFloors) {
            const { figure } = await once(browser, floor.url, target, condition);
            if (i >= 0) floor.figures.push(figure);
          }
        }
        for (const [b, build] of builds.entries()) {
          build.results[name][condition] = {
            median: median(figures[b]),
            min: Math.min(...figures[b]),
            max: Math.max(...figures[b]),
            figures: figures[b],
            takeover: takeovers[b].length > 0 ? median(takeovers[b]) : null,
          };
        }
      }
    }
    // after the browser runs: the floor's rollup builds would compete with them for the CPU
    const sharedFloor = await sharedModulesTotal();
    for (const build of builds) report(build.label, build.results, build.requests, sharedFloor);
    reportFloors(floors, builds);
    console.log(`machine load (1/5/15 min) at end: ${loadNow()}`);
    return builds.map((b) => ({ label: b.label, ...b.results, requests: { count: b.requests.count, jsCss: b.requests.jsCss } }));
  } finally {
    await browser.close();
    for (const panel of running) await panel.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run(process.argv[2] ? join(process.argv[2], '/') : undefined, process.argv[3]);
