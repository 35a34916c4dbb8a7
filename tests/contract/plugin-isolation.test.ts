// Contracts (b) and (c) in chromium, against the BUILT kernel (dist/public) and fixture plugins built
// with the same preset: a plugin that throws in setup, in render, in a hook tap or in an event handler
// breaks neither the host nor the other plugins; a plugin asking for an incompatible sdk major, or
// whose bytes do not match its integrity, is refused with a readable reason — and the real kernel
// hands a plugin its own React, router, i18next and sdk (hooks, router context and catalogues work).
// The plugins that tap hooks or hear events (and fx-setup-throws, "startup": true) install at
// start-up; the others when their page is first opened (issue 10).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedPluginManifest } from '../../sdk/types';
import { buildFixtures, DIST, type BuiltFixtures } from './support/fixtures';
import { startTestPanel, type TestPanel } from './support/panel-server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let fixtures: BuiltFixtures;
let panel: TestPanel;
let browser: Browser;

/** Served in this order: the failing plugins tap hooks and events BEFORE the healthy one. */
const SERVED_ORDER = ['fx-future', 'fx-setup-throws', 'fx-hook-throws', 'fx-event-throws', 'fx-tampered', 'fx-render-throws', 'fx-shared'];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium).`);
  fixtures = await buildFixtures(SERVED_ORDER);
  const plugins: ServedPluginManifest[] = SERVED_ORDER.map((id) => fixtures.served[id]);
  // fx-tampered is served with the integrity of another file: its bytes cannot match
  const tampered = plugins.find((p) => p.id === 'fx-tampered') as ServedPluginManifest;
  tampered.integrity = fixtures.served['fx-shared'].integrity;
  panel = await startTestPanel({ roots: [fixtures.publicDir, join(DIST, 'public')], plugins });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
});

afterAll(async () => {
  await browser?.close();
  await panel?.close();
  fixtures?.remove();
});

async function open(path: string): Promise<{ page: Page; errors: string[]; pageErrors: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  const pageErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(error.message));
  await page.goto(`${panel.url}${path}`);
  return { page, errors, pageErrors, close: () => context.close() };
}

describe('plugin contracts in the real kernel', () => {
  it('(a) a plugin page runs on the kernel React, router, i18next and sdk', async () => {
    const { page, close } = await open('/fx/shared');
    await page.getByTestId('fx-shared-page').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'click' }).click();
    await expect.poll(() => page.getByTestId('hooks').innerText()).toBe('hooks ok 1');
    expect(await page.getByTestId('router').innerText()).toBe('router ok /fx/shared');
    expect(await page.getByTestId('i18n').innerText()).toBe('Catalogue loaded');
    expect(await page.getByTestId('session').innerText()).toBe('session out');
    await close();
  });

  it('(b) failures in setup, render, hook taps and event handlers are reported; the host and the other plugins go on', async () => {
    const { page, errors, close } = await open('/fx/shared');
    await page.getByTestId('fx-shared-page').waitFor({ timeout: 20_000 });

    // setup: skipped and reported, naming the plugin and the reason
    expect(errors.join('\n')).toContain('[plugin:fx-setup-throws] (setup) plugin "fx-setup-throws" failed in setup(): fixture: setup failed on purpose');
    // hook taps and the event handler threw on the first navigation, yet the healthy plugin got both
    await expect.poll(() => page.getByTestId('counters').innerText()).toBe('afterNavigate=1 navigation=1');
    expect(errors.join('\n')).toContain('plugin "fx-hook-throws" threw in its afterNavigate tap: fixture: afterNavigate tap failed on purpose');
    expect(errors.join('\n')).toContain('plugin "fx-hook-throws" threw in its beforeNavigate tap: fixture: beforeNavigate tap failed on purpose');
    expect(errors.join('\n')).toContain('plugin "fx-event-throws" threw handling event "navigation": fixture: navigation handler failed on purpose');

    // render: the page of the throwing plugin shows an error card naming it; the host stays up
    await page.getByTestId('to-render-throws').click();
    await page.waitForURL('**/fx/render-throws');
    await page.locator('[data-plugin-error="fx-render-throws"]').waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('language-picker').isVisible()).toBe(true);
    expect(errors.join('\n')).toContain('fixture: render failed on purpose');

    // and the healthy plugin still works after all of that
    await page.goBack();
    await page.getByTestId('fx-shared-page').waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByTestId('counters').innerText()).toBe('afterNavigate=3 navigation=3');
    await page.getByRole('button', { name: 'click' }).click();
    await expect.poll(() => page.getByTestId('hooks').innerText()).toBe('hooks ok 1');
    await close();
  });

  it('(c) a plugin asking for an incompatible sdk major is refused with the readable reason, before it is downloaded', async () => {
    const { page, errors, close } = await open('/fx/shared');
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.getByTestId('fx-shared-page').waitFor({ timeout: 20_000 });
    expect(errors.join('\n')).toContain('plugin "fx-future" was refused: it needs sdk ^3.0.0 but this panel provides sdk 2.0.0 (plugin API v2)');
    await page.goto(`${panel.url}/fx/future`);
    await expect.poll(() => page.locator('body').innerText(), { timeout: 20_000 }).toContain('404');
    expect(await page.getByTestId('fx-future-page').count()).toBe(0);
    expect(requested.some((url) => url.includes('/plugins/fx-future/'))).toBe(false);
    await close();
  });

  it("a page file that fails to load raises 'preload-error' (spec §8) and shows an error card whose retry loads it", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route('**/plugins/fx-shared/SharedPage-*.js', (route) => route.abort('connectionreset'));
    await page.addInitScript(() => {
      const seen: unknown[] = [];
      (window as unknown as { preloadErrors: unknown[] }).preloadErrors = seen;
      window.addEventListener('preload-error', (event) => seen.push((event as CustomEvent<{ pluginId: string; component: string }>).detail));
    });
    await page.goto(`${panel.url}/fx/shared`);
    const card = page.locator('[data-plugin-error="fx-shared"]');
    await card.waitFor({ timeout: 20_000 });
    const detail = await page.evaluate(() => (window as unknown as { preloadErrors: { pluginId: string; component: string }[] }).preloadErrors[0]);
    expect(detail).toMatchObject({ pluginId: 'fx-shared', component: 'SharedPage' });
    // the network is back: retry fetches the file again and the page shows
    await page.unroute('**/plugins/fx-shared/SharedPage-*.js');
    await card.getByRole('button').click();
    await page.getByTestId('fx-shared-page').waitFor({ timeout: 20_000 });
    await context.close();
  });

  it('a bundle whose bytes do not match its integrity is refused when its page is first opened: the page shows an error card naming it', async () => {
    const { page, errors, close } = await open('/fx/tampered');
    const card = page.locator('[data-plugin-error="fx-tampered"]');
    await card.waitFor({ timeout: 20_000 });
    expect(await card.getAttribute('role')).toBe('alert');
    expect(await page.getByTestId('fx-tampered-page').count()).toBe(0);
    expect(errors.join('\n')).toMatch(/plugin "fx-tampered" was skipped: its bundle \/plugins\/fx-tampered\/fx-tampered-[\w-]+\.js could not be loaded/);
    await close();
  });
});
