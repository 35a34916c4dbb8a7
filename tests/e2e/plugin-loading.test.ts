// Plugins load when they are needed (issue 10 item 5), in chromium against the built panel: the login
// page's first load requests only the entries of the plugins it uses (the auth plugin, which owns the
// page, and the plugins that install at start-up, with what they require) — not one entry
// per enabled plugin. A page reached by navigation then installs its plugin on the way and works.
// Requests are counted, nothing is timed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { installsAtStartup } from '../../sdk/manifest';
import type { ServedPluginManifest } from '../../sdk/types';
import { openPage, registerThroughApi, uniqueName, usePanelAndBrowser } from './harness';

const env = usePanelAndBrowser();

/** Records which plugins' entry bundles the page requests, by plugin id, in order. */
async function recordEntries(page: Page): Promise<{ served: ServedPluginManifest[]; requested: string[] }> {
  const served = (await (await fetch(`${env.panel.url}/api/system/plugins`)).json()) as ServedPluginManifest[];
  const owner = new Map(served.filter((m) => m.entry).map((m) => [m.entry as string, m.id]));
  const requested: string[] = [];
  page.on('request', (request) => {
    const id = owner.get(new URL(request.url()).pathname);
    if (id) requested.push(id);
  });
  return { served, requested };
}

/** The plugins whose `requires` (transitively) a plugin loads first, and the plugin itself. */
function withRequirements(served: ServedPluginManifest[], ids: string[]): string[] {
  const byId = new Map(served.map((m) => [m.id, m]));
  const out = new Set<string>();
  const add = (id: string) => {
    if (out.has(id)) return;
    out.add(id);
    for (const dep of byId.get(id)?.requires ?? []) add(dep);
  };
  for (const id of ids) add(id);
  return [...out].sort();
}

describe('plugins load when they are needed', () => {
  it('the login page fetches only the entries it uses; a page reached by navigation loads its plugin then and works', async () => {
    const { page, context, errors } = await openPage(env.browser);
    const { served, requested } = await recordEntries(page);
    const withEntries = served.filter((m) => m.entry).map((m) => m.id);
    expect(withEntries.length).toBeGreaterThan(10);

    await page.goto(`${env.panel.url}/auth/login`);
    await page.locator('input[type="password"]').first().waitFor({ state: 'visible', timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    const startup = served.filter(installsAtStartup).map((m) => m.id);
    expect([...new Set(requested)].sort()).toEqual(withRequirements(served, ['auth', ...startup]));
    // each entry once
    expect(requested.length).toBe(new Set(requested).size);

    // signed in, the dashboard loads its own plugin and those filling its slots (the servers widget)
    const name = uniqueName('lazy');
    await registerThroughApi(page, { username: name, email: `${name}@example.com`, password: 'correct-horse-1' });
    await page.goto(`${env.panel.url}/dashboard`);
    await page
      .getByRole('main')
      .getByRole('heading', { name: /Welcome back/, level: 1 })
      .waitFor({ timeout: 20_000 });
    await page.waitForLoadState('networkidle');
    expect(requested).toContain('dashboard');
    expect(requested).not.toContain('leaderboard');

    // the sidebar shows the leaderboard from its manifest alone; following it installs the plugin
    requested.length = 0;
    await page.locator('nav a[href="/leaderboard"]').first().click();
    await page.waitForURL('**/leaderboard');
    await page.getByRole('main').getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor({ timeout: 20_000 });
    expect(requested).toEqual(['leaderboard']);
    expect(await page.title()).toContain('Leaderboard');

    // back and forth: nothing is fetched again
    await page.goBack();
    await page
      .getByRole('main')
      .getByRole('heading', { name: /Welcome back/, level: 1 })
      .waitFor({ timeout: 20_000 });
    await page.goForward();
    await page.getByRole('main').getByRole('heading', { name: 'Leaderboard', level: 1 }).waitFor({ timeout: 20_000 });
    expect(requested).toEqual(['leaderboard']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
