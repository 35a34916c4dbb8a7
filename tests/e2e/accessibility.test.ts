// Accessibility checked by machine (issue 14): axe-core runs in chromium over every page a visitor, a
// customer and an administrator (admin.root) can open in the BUILT panel, at a desktop (1280×800) and a
// phone (390×844) width, and over the shell's overlays (the customisation panel, the developer debug
// panel, a confirm dialog); no serious or critical violation may remain. The page list comes from the
// manifests the panel serves (GET /api/system/plugins), so a new plugin's pages are checked without
// touching this file. Then the shell is used with the keyboard only: the sidebar, a dialog, the two
// panels, with the focus going back where it came from.
import { createRequire } from 'node:module';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFor, launchBrowser, openPage, signInThroughApi, startPanel, uniqueName, type PageProbe, type RunningPanel } from './harness';

const PASSWORD = 'correct-horse-1';
const WAIT = { timeout: 20_000 };
// read once; evaluated through the devtools protocol, which the panel's CSP (no inline scripts) allows
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;
// every feature switched on, so its pages show their real content rather than the switched-off notice
const FLAGS = [
  'afk_enabled',
  'j4r_enabled',
  'l4r_enabled',
  'code_redemption_enabled',
  'referrals_enabled',
  'allow_coins_sharing',
  'image_hosting_enabled',
  'leaderboard_enabled',
  'allow_public_profiles',
  'allow_servers',
  'store_enabled',
  'credits_recharge_enabled',
  'allow_tickets',
];
// paths not opened: the catch-all (the not-found page is opened as /no/such/page instead) and the
// logout route, which would end the session the rest of the pages are opened with
const NOT_OPENED = new Set(['*', '/auth/logout']);

interface Violation {
  rule: string;
  impact: string;
  help: string;
  where: string;
  targets: string[];
}

let dataDir: string;
let panel: RunningPanel;
let browser: Browser;
const names = { admin: uniqueName('root'), customer: uniqueName('cust') };
const uuids = { admin: '', customer: '' };
const probes: Partial<Record<keyof typeof names, PageProbe>> = {};
let routes: { path: string; auth?: boolean; admin?: boolean }[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-a11y-'));
  const cli = cliFor(dataDir);
  // one address opens every page of this file twice: lift the app-wide limit (spec default 100/min)
  // (one command for every setting: each run of the CLI starts the whole app)
  cli(['settings', 'set', 'rate_limit_per_minute', '5000', ...FLAGS.flatMap((flag) => [flag, 'true'])]);
  cli(['user', 'create', '--username', names.admin, '--email', `${names.admin}@example.com`, '--password', PASSWORD, '--role', '8']);
  cli(['user', 'create', '--username', names.customer, '--email', `${names.customer}@example.com`, '--password', PASSWORD, '--role', '1']);
  panel = await startPanel({ DATA_DIR: dataDir });
  browser = await launchBrowser();
  for (const who of ['admin', 'customer'] as const) {
    const probe = await signInThroughApi(browser, panel.url, names[who], PASSWORD);
    uuids[who] = await probe.page.evaluate(async () => ((await (await fetch('/api/user/session')).json()) as { user_info: { uuid: string } }).user_info.uuid);
    probes[who] = probe;
  }
  const served = (await (await fetch(`${panel.url}/api/system/plugins`)).json()) as { routes?: { path: string; auth?: boolean; admin?: boolean }[] }[];
  routes = served.flatMap((m) => m.routes ?? []).filter((r) => !NOT_OPENED.has(r.path));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await panel?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A route's path with its parameters filled where a real value is at hand: the accounts' own uuids,
 * the built-in customer role (1), a plugin that has settings. Paths naming records that would have to
 * be made first (tickets, servers, codes, templates, links, catalogue entries) are left out: their
 * pages are built from the same sdk parts (forms, lists, confirm panels) as the create and list pages
 * that are checked.
 */
function concretePath(path: string): string | null {
  if (!path.includes(':')) return path;
  const filled = path
    .replace(/^\/profile\/:uuid/, `/profile/${uuids.admin}`)
    .replace(/^\/mc-admin\/users\/:uuid/, `/mc-admin/users/${uuids.customer}`)
    .replace(/^\/mc-admin\/roles\/:id/, '/mc-admin/roles/1')
    .replace(/^\/mc-admin\/plugins\/:identifier/, '/mc-admin/plugins/earn-afk');
  return filled.includes(':') ? null : filled;
}

async function settle(page: Page): Promise<void> {
  await page.locator('main, [role="main"]').first().waitFor(WAIT);
  // pages load their data after they mount: wait for the requests to end (the AFK socket does not count)
  await page.waitForLoadState('networkidle', { timeout: 5000 }).catch(() => undefined);
  await page.waitForTimeout(150);
}

/** axe-core over the whole document; only serious and critical findings are kept. */
async function audit(page: Page, where: string): Promise<Violation[]> {
  const injected = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!injected) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Check = { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null };
    type Node = { target: unknown[]; html: string; any: Check[] };
    const axe = (window as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: Node[] }[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    // each finding names its element and, for contrast, the colours measured: enough to find the source
    const describe = (n: Node) => {
      const colours = n.any.map((c) => c.data).find((d) => d?.fgColor);
      const measured = colours ? ` [${colours.fgColor} on ${colours.bgColor} = ${colours.contrastRatio}]` : '';
      return `${n.target.map(String).join(' ')} ${n.html.slice(0, 90)}${measured}`;
    };
    return result.violations.map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.map(describe) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ ...v, where }));
}

/** The findings grouped by rule, then page: the message a failing run prints. */
function report(violations: Violation[]): string {
  const byRule = new Map<string, Violation[]>();
  for (const v of violations) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  return [...byRule.entries()]
    .map(([rule, list]) =>
      [
        `${rule} (${list[0]!.impact}): ${list[0]!.help}`,
        ...list.map((v) => `  ${v.where}: ${v.targets.slice(0, 4).join(' | ')}${v.targets.length > 4 ? ` …+${v.targets.length - 4}` : ''}`),
      ].join('\n'),
    )
    .join('\n');
}

/** Waits until nothing on the page is mid-animation (a resize may start the shell's transitions). */
async function stillFrames(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), undefined, WAIT).catch(() => undefined);
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/**
 * Audits each path at both widths, loading it once: the page is opened at the desktop width, audited,
 * narrowed to the phone's width (the media queries and the shell's own width listeners take over, as
 * when a window is resized) and audited again. `sentAway` lists the paths whose guard sent the
 * browser elsewhere.
 */
async function auditPaths(page: Page, paths: string[], who: string): Promise<{ violations: Violation[]; sentAway: string[] }> {
  const violations: Violation[] = [];
  const sentAway = new Set<string>();
  const [desktop, phone] = WIDTHS;
  for (const path of paths) {
    await page.setViewportSize({ width: desktop.width, height: desktop.height });
    await page.goto(`${panel.url}${path}`);
    await settle(page);
    const landed = new URL(page.url()).pathname;
    if (landed !== path) sentAway.add(`${path} -> ${landed}`);
    violations.push(...(await audit(page, `${who} ${desktop.name} ${path} (at ${landed})`)));
    await page.setViewportSize({ width: phone.width, height: phone.height });
    await stillFrames(page);
    violations.push(...(await audit(page, `${who} ${phone.name} ${path} (at ${landed})`)));
  }
  return { violations, sentAway: [...sentAway] };
}

const pageOf = (who: keyof typeof names): Page => (probes[who] as PageProbe).page;

describe('axe-core: no serious or critical violation', () => {
  it('on every page a visitor can open (signed out)', async () => {
    const paths = routes.filter((r) => r.auth === false).map((r) => concretePath(r.path));
    const probe = await openPage(browser);
    const { violations } = await auditPaths(probe.page, [...paths.filter((p): p is string => p !== null), '/no/such/page'], 'visitor');
    await probe.context.close();
    expect(violations.length, report(violations)).toBe(0);
  }, 300_000);

  it('on every page a customer can open', async () => {
    const paths = routes.filter((r) => r.auth !== false && !r.admin).map((r) => concretePath(r.path));
    expect(paths.length).toBeGreaterThan(10);
    const { violations, sentAway } = await auditPaths(
      pageOf('customer'),
      paths.filter((p): p is string => p !== null),
      'customer',
    );
    // opened as themselves: only the two-factor pages that need another account state send elsewhere
    expect(sentAway.filter((s) => !s.startsWith('/auth/2fa/'))).toEqual([]);
    expect(violations.length, report(violations)).toBe(0);
  }, 600_000);

  it('on every page an administrator can open', async () => {
    const paths = routes.filter((r) => r.admin).map((r) => concretePath(r.path));
    expect(paths.length).toBeGreaterThan(20);
    const { violations, sentAway } = await auditPaths(
      pageOf('admin'),
      paths.filter((p): p is string => p !== null),
      'admin',
    );
    // admin.root opens every admin page: none is checked as the dashboard its guard would send to
    expect(sentAway).toEqual([]);
    expect(violations.length, report(violations)).toBe(0);
  }, 900_000);

  it('with the customisation panel, the debug panel and a confirm dialog open', async () => {
    const page = pageOf('customer');
    const violations: Violation[] = [];
    for (const size of WIDTHS) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(`${panel.url}/dashboard`);
      await settle(page);
      await page.getByTestId('customization-gear').click();
      await page.getByTestId('customization-panel').waitFor(WAIT);
      violations.push(...(await audit(page, `customisation panel ${size.name}`)));
      await page.keyboard.press('Escape');
      await page.getByTestId('customization-panel').waitFor({ state: 'detached', ...WAIT });

      await page.keyboard.press('Control+i');
      await page.getByTestId('debug-panel').waitFor(WAIT);
      violations.push(...(await audit(page, `debug panel ${size.name}`)));
      await page.keyboard.press('Control+i');
      await page.getByTestId('debug-panel').waitFor({ state: 'detached', ...WAIT });

      if (size.name === 'phone') {
        // on a phone the sidebar is a drawer behind the top bar's menu button
        await page.getByTestId('menu-button').click();
        await page.locator('nav a[href$="/leaderboard"]').waitFor({ state: 'visible', ...WAIT });
        violations.push(...(await audit(page, 'sidebar drawer phone')));
        await page.keyboard.press('Escape');
      }

      await page.goto(`${panel.url}/account`);
      await settle(page);
      await openDeleteConfirm(page);
      violations.push(...(await audit(page, `confirm dialog ${size.name}`)));
      await page.keyboard.press('Escape');
      await page.locator('.swal2-popup').waitFor({ state: 'detached', ...WAIT });
    }
    expect(violations.length, report(violations)).toBe(0);
  }, 300_000);
});

/** The account page's "delete account" form: the password, then its confirmation dialog (sweetalert2). */
async function openDeleteConfirm(page: Page): Promise<void> {
  const password = page.locator('main input[type="password"]').last();
  await password.fill(PASSWORD);
  await password.press('Enter');
  await page.locator('.swal2-popup').waitFor(WAIT);
  // contrast is measured on what is shown: not halfway through the dialog's fade-in (a button mid-
  // transition reads as a blend of its colour and the backdrop)
  await page.waitForFunction(() => (document.querySelector('.swal2-container')?.getAnimations({ subtree: true }) ?? []).every((a) => a.playState !== 'running'), undefined, WAIT);
}

/** Presses Tab (Shift+Tab when `back`) until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(page: Page, selector: string, { back = false, max = 120 } = {}): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${max} presses of Tab did not reach ${selector}`);
}

/** Whether the focused element is inside (or is) the element `selector` finds. */
function focusWithin(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((s) => {
    const box = document.querySelector(s);
    return box !== null && box.contains(document.activeElement);
  }, selector);
}

describe('the shell with the keyboard only', () => {
  it('the sidebar: Tab reaches its links and Enter follows one', async () => {
    const page = pageOf('customer');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${panel.url}/dashboard`);
    await settle(page);
    await page.locator('body').focus();
    await tabTo(page, 'nav a[href$="/leaderboard"]');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/leaderboard', WAIT);
    await settle(page);
  }, 60_000);

  it('a confirm dialog: it takes the focus, Escape closes it without acting, the focus goes back to the form', async () => {
    const page = pageOf('customer');
    await page.goto(`${panel.url}/account`);
    await settle(page);
    await page.locator('body').focus();
    // the delete-account form's password field is the last password field of the page
    const fields = await page.locator('main input[type="password"]').count();
    for (let n = 0; n < fields; n++) {
      await page.keyboard.press('Tab');
      await tabTo(page, 'main input[type="password"]');
    }
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await page.locator('.swal2-popup').waitFor(WAIT);
    await expect.poll(() => focusWithin(page, '.swal2-popup')).toBe(true);
    await page.keyboard.press('Escape');
    await page.locator('.swal2-popup').waitFor({ state: 'detached', ...WAIT });
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('main form input[type="password"]') ?? false)).toBe(true);
    // nothing happened: the account still answers
    expect(await page.evaluate(async () => (await fetch('/api/user/session')).status)).toBe(200);
  }, 60_000);

  it('the customisation panel: the gear opens it with Enter, the focus moves in, Escape closes it and the focus is back on the gear', async () => {
    const page = pageOf('customer');
    await page.goto(`${panel.url}/dashboard`);
    await settle(page);
    await page.locator('body').focus();
    await tabTo(page, '[data-testid="customization-gear"]', { back: true });
    await page.keyboard.press('Enter');
    await page.getByTestId('customization-panel').waitFor(WAIT);
    await expect.poll(() => focusWithin(page, '[data-testid="customization-panel"]')).toBe(true);
    // Tab moves among the panel's own controls
    await page.keyboard.press('Tab');
    expect(await focusWithin(page, '[data-testid="customization-panel"]')).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('customization-panel').waitFor({ state: 'detached', ...WAIT });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('customization-gear');
  }, 60_000);

  it('the debug panel: Ctrl+I opens it with the focus on its open tab, the arrow keys change tabs, Escape closes it and the focus goes back', async () => {
    const page = pageOf('customer');
    await page.goto(`${panel.url}/dashboard`);
    await settle(page);
    await page.locator('body').focus();
    await tabTo(page, 'nav a[href$="/leaderboard"]');
    await page.keyboard.press('Control+i');
    await page.getByTestId('debug-panel').waitFor(WAIT);
    await expect.poll(() => focusWithin(page, '[data-testid="debug-panel"]')).toBe(true);
    const before = await page.evaluate(() => document.activeElement?.id);
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).not.toBe(before);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-selected'))).toBe('true');
    await page.keyboard.press('Escape');
    await page.getByTestId('debug-panel').waitFor({ state: 'detached', ...WAIT });
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('href') ?? '')).toMatch(/\/leaderboard$/);
  }, 60_000);
});
