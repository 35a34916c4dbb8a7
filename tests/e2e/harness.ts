// End-to-end harness: the BUILT panel (dist/, made by `npm test` before vitest runs) started as a real
// process on a free port with its own data directory, driven by Debian's chromium through
// playwright-core. Nothing in the product is mocked; a test that needs an odd server answer (503,
// 500…) intercepts that one request in the browser.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'bin', 'orepanel.mjs');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningPanel {
  url: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** runs the panel's CLI (`orepanel …`) against this panel's data directory */
  cli(args: string[]): { status: number | null; stdout: string; stderr: string };
  stop(): Promise<void>;
}

/** Starts `orepanel serve` from the built dist/ on a free port with a fresh data directory. */
export async function startPanel(extraEnv: Record<string, string> = {}): Promise<RunningPanel> {
  if (!existsSync(join(ROOT, 'dist', 'server', 'cli.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does it).');
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'orepanel-e2e-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    REDIS_URL: '',
    // no proxy in front: nothing to drain before a stop
    SHUTDOWN_DRAIN_SECONDS: '0',
    ...extraEnv,
  };
  const child: ChildProcess = spawn(process.execPath, [CLI, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the panel exited with ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/system/settings`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the panel did not start within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  return {
    url,
    dataDir,
    env,
    cli(args) {
      const res = spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
      return { status: res.status, stdout: res.stdout, stderr: res.stderr };
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill('SIGKILL');
            r(undefined);
          }, 5000);
          child.once('exit', () => {
            clearTimeout(t);
            r(undefined);
          });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium); .ci/run does it.`);
  }
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}

export interface PageProbe {
  page: Page;
  context: BrowserContext;
  /** console messages as "type: text" */
  console: string[];
  /** uncaught page errors */
  errors: string[];
}

/** A fresh browser context and page that records console output and page errors. */
export async function openPage(browser: Browser, options: { viewport?: { width: number; height: number }; locale?: string } = {}): Promise<PageProbe> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 800 }, locale: options.locale ?? 'en-US' });
  const page = await context.newPage();
  const probe: PageProbe = { page, context, console: [], errors: [] };
  page.on('console', (msg) => probe.console.push(`${msg.type()}: ${msg.text()}`));
  page.on('pageerror', (err) => probe.errors.push(String(err)));
  return probe;
}

/**
 * Resolves once the kernel has taken over the page the server sent pre-rendered (#app loses
 * data-prerendered at the swap): before that a click is the plain HTML page's, not the app's.
 */
export async function kernelTookOver(page: Page): Promise<void> {
  await page.locator('#app:not([data-prerendered])').waitFor({ state: 'attached', timeout: 15_000 });
}

/** Registers a user through the real API from inside the page (so the browser gets the cookies). */
export async function registerThroughApi(page: Page, user: { username: string; email: string; password: string; first_name?: string; last_name?: string }): Promise<void> {
  const status = await page.evaluate(async (body) => {
    const res = await fetch('/api/user/auth/register', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ first_name: 'Test', last_name: 'User', ...body }),
    });
    return res.status;
  }, user);
  if (status !== 201) throw new Error(`register answered ${status}`);
}

export function uniqueName(prefix = 'user'): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

export interface E2eEnvironment {
  readonly panel: RunningPanel;
  readonly browser: Browser;
}

/**
 * Starts one panel and one browser for the calling test file (before its tests) and stops both
 * after them. Read the returned object's fields inside tests, not at import time.
 */
export function usePanelAndBrowser(extraEnv: Record<string, string> = {}): E2eEnvironment {
  const env = {} as { panel: RunningPanel; browser: Browser };
  beforeAll(async () => {
    env.panel = await startPanel(extraEnv);
    env.browser = await launchBrowser();
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.panel?.stop();
  });
  return env;
}

/** The built CLI (`orepanel …`) against a data directory, before its panel runs (accounts, settings). */
export function cliFor(dataDir: string): (args: string[]) => string {
  return (args) => {
    const res = spawnSync(process.execPath, [CLI, ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn' }, encoding: 'utf8' });
    if (res.status !== 0) throw new Error(`orepanel ${args.join(' ')} exited with ${res.status}:\n${res.stdout}\n${res.stderr}`);
    return res.stdout;
  };
}

const SIGNED_IN_WAIT = { timeout: 20_000 };

/**
 * A browser context signed in through the real login API, left on the dashboard: the dashboard stores
 * the session's role and permissions, which the admin-route guards read (spec §2, §6).
 */
export async function signInThroughApi(browser: Browser, panelUrl: string, login: string, password: string): Promise<PageProbe> {
  const probe = await openPage(browser);
  await probe.page.goto(`${panelUrl}/auth/login`);
  await probe.page.locator('input[type="password"]').first().waitFor(SIGNED_IN_WAIT);
  const status = await probe.page.evaluate(
    async (body) => (await fetch('/api/user/auth/login', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).status,
    { login, password },
  );
  if (status !== 200) throw new Error(`login of ${login} answered ${status}`);
  await probe.page.goto(`${panelUrl}/dashboard`);
  await probe.page
    .getByRole('main')
    .getByRole('heading', { name: /Welcome back/, level: 1 })
    .waitFor(SIGNED_IN_WAIT);
  return probe;
}

/** The page's main region as one line of text (whitespace squashed). */
export async function mainText(page: Page): Promise<string> {
  return (await page.locator('main').innerText()).replace(/\s+/g, ' ').trim();
}

/** The balance the session reports, as the rest of the panel sees it. */
export function sessionCoins(page: Page): Promise<number> {
  return page.evaluate(async () => ((await (await fetch('/api/user/session')).json()) as { billing: { coins: number } }).billing.coins);
}
