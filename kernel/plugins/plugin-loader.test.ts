// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { definePlugin, type PluginContext } from '@orepanel/sdk';
import type { PluginFailure } from '../../sdk/client/events';
import { installPlugin } from '../../sdk/client/install';
import { registryStore } from '../../sdk/client/stores/registry';
import { sdkRangeProblem } from '../../sdk/manifest';
import type { ServedPluginManifest } from '../../sdk/types';
import { createKernelHooks, pluginHookTargets } from '../lifecycle';
import type { SystemLoader } from '../modules/system-registry';
import { installPlugins, PLUGINS_URL, type PluginLoaderDeps } from './plugin-loader';

const origin = 'http://localhost:3000';

function manifest(id: string, extra: Partial<ServedPluginManifest> = {}): ServedPluginManifest {
  return {
    id,
    name: id,
    version: '1.0.0',
    sdk: '^1.0.0',
    client: true,
    entry: `/plugins/${id}/${id}-abc.js`,
    integrity: `sha384-${id}`,
    locales: ['en', 'fr'],
    localeFiles: { en: `/plugins/${id}/locales/en-1.json`, fr: `/plugins/${id}/locales/fr-1.json` },
    routes: [],
    ...extra,
  };
}

function harness(served: ServedPluginManifest[], modules: Record<string, unknown>, language: 'en' | 'fr' = 'en', bundled: string[] = []) {
  const setupOrder: string[] = [];
  const imported: string[] = [];
  const integrity: Record<string, string> = {};
  const registry = {
    import: vi.fn(async (url: string) => {
      imported.push(url);
      const id = Object.keys(modules).find((key) => url.endsWith(`/plugins/${key}/${key}-abc.js`));
      const module = id ? modules[id] : undefined;
      if (module instanceof Error) throw module;
      if (!module) throw new Error(`Error loading ${url} (SystemJS https://github.com/systemjs/systemjs/blob/main/docs/errors.md#3)`);
      return module as Record<string, unknown>;
    }),
    addImportMap: vi.fn((map: { integrity?: Record<string, string> }) => Object.assign(integrity, map.integrity)),
  } as unknown as SystemLoader;
  const catalogueRequests: string[] = [];
  const fetch = vi.fn(async (url: string) => {
    if (url === PLUGINS_URL) return new Response(JSON.stringify(served), { headers: { 'content-type': 'application/json' } });
    catalogueRequests.push(url);
    return new Response(JSON.stringify({ title: url }), { headers: { 'content-type': 'application/json' } });
  });
  const failures: PluginFailure[] = [];
  const report = (failure: PluginFailure) => failures.push(failure);
  const addCatalogue = vi.fn();
  const hooks = createKernelHooks();
  const run = (extra: Partial<PluginLoaderDeps> = {}) =>
    installPlugins({
      fetch,
      registry,
      addCatalogue,
      hasCatalogue: (namespace, lang) => bundled.includes(`${namespace}:${lang}`),
      language: () => language,
      install: (candidate, m) => installPlugin(candidate, m, { hooks: pluginHookTargets(hooks), report }),
      report,
      log: { error: vi.fn() },
      ...extra,
    });
  return { run, fetch, setupOrder, imported, integrity, failures, addCatalogue, catalogueRequests, registry };
}

function plugin(id: string, order: string[], setup?: (ctx: PluginContext) => void) {
  return {
    default: definePlugin({
      id,
      setup(ctx) {
        order.push(id);
        setup?.(ctx);
      },
    }),
  };
}

afterEach(() => registryStore.getState().reset());

describe('installing plugins (spec §4.3)', () => {
  it('refuses a plugin asking for an incompatible sdk major, with the readable reason, without downloading it', async () => {
    const order: string[] = [];
    const h = harness([manifest('future', { sdk: '^2.0.0' }), manifest('today')], { future: plugin('future', order), today: plugin('today', order) });
    const summary = await h.run();
    expect(summary.installed).toEqual(['today']);
    expect(summary.failed).toEqual(['future']);
    expect(h.failures).toEqual([{ pluginId: 'future', phase: 'sdk', reason: `plugin "future" was refused: ${sdkRangeProblem('^2.0.0')}` }]);
    expect(h.failures[0].reason).toContain('it needs sdk ^2.0.0 but this panel provides sdk 1.0.0');
    expect(h.imported.some((url) => url.includes('/future/'))).toBe(false);
  });

  it('sets plugins up so that `requires` come first', async () => {
    const order: string[] = [];
    const h = harness([manifest('wallet-ui', { requires: ['wallet'] }), manifest('wallet')], { 'wallet-ui': plugin('wallet-ui', order), wallet: plugin('wallet', order) });
    const summary = await h.run();
    expect(order).toEqual(['wallet', 'wallet-ui']);
    expect(summary.manifests.map((m) => m.id)).toEqual(['wallet', 'wallet-ui']);
  });

  it('loads each entry with the integrity of its manifest', async () => {
    const order: string[] = [];
    const h = harness([manifest('auth')], { auth: plugin('auth', order) });
    await h.run();
    expect(h.imported).toEqual([`${origin}/plugins/auth/auth-abc.js`]);
    expect(h.integrity).toEqual({ [`${origin}/plugins/auth/auth-abc.js`]: 'sha384-auth' });
  });

  it('refuses a manifest without an integrity (nothing is loaded without SRI)', async () => {
    const h = harness([manifest('bare', { integrity: undefined })], { bare: plugin('bare', []) });
    const summary = await h.run();
    expect(summary.failed).toEqual(['bare']);
    expect(h.failures[0].reason).toMatch(/no integrity/);
    expect(h.imported).toEqual([]);
  });

  it('a bundle that cannot load is skipped with a readable reason, and so are the plugins that require it', async () => {
    const order: string[] = [];
    const h = harness([manifest('broken'), manifest('needs-broken', { requires: ['broken'] }), manifest('fine')], {
      'needs-broken': plugin('needs-broken', order),
      fine: plugin('fine', order),
    });
    const summary = await h.run();
    expect(summary.installed).toEqual(['fine']);
    expect(order).toEqual(['fine']);
    const broken = h.failures.find((f) => f.pluginId === 'broken');
    expect(broken?.phase).toBe('load');
    expect(broken?.reason).toMatch(/could not be loaded \(network error, missing file, or its bytes do not match the integrity sha384-broken\)/);
    expect(h.failures.find((f) => f.pluginId === 'needs-broken')?.reason).toMatch(/requires plugin "broken", which failed/);
  });

  it('a plugin whose setup throws is skipped; the others are installed', async () => {
    const order: string[] = [];
    const h = harness([manifest('thrower'), manifest('fine')], {
      thrower: plugin('thrower', order, () => {
        throw new Error('boom');
      }),
      fine: plugin('fine', order),
    });
    const summary = await h.run();
    expect(summary.installed).toEqual(['fine']);
    expect(h.failures).toEqual([expect.objectContaining({ pluginId: 'thrower', phase: 'setup', reason: expect.stringContaining('boom') })]);
  });

  it('refuses a plugin whose requirement is not installed, naming it', async () => {
    const h = harness([manifest('orphan', { requires: ['ghost'] })], { orphan: plugin('orphan', []) });
    const summary = await h.run();
    expect(summary.failed).toEqual(['orphan']);
    expect(h.failures[0].reason).toMatch(/requires plugin "ghost", which is not installed or not enabled/);
  });

  it("loads each plugin's catalogues for the fallback and the current language into its namespace", async () => {
    const h = harness([manifest('auth')], { auth: plugin('auth', []) }, 'fr');
    await h.run();
    expect(h.catalogueRequests.sort()).toEqual(['/plugins/auth/locales/en-1.json', '/plugins/auth/locales/fr-1.json']);
    expect(h.addCatalogue).toHaveBeenCalledWith('auth', 'en', expect.any(Object));
    expect(h.addCatalogue).toHaveBeenCalledWith('auth', 'fr', expect.any(Object));
  });

  it("does not fetch a catalogue the kernel's file already bundled", async () => {
    const h = harness([manifest('auth')], { auth: plugin('auth', []) }, 'fr', ['auth:en']);
    await h.run();
    expect(h.catalogueRequests).toEqual(['/plugins/auth/locales/fr-1.json']);
  });

  it('counts a plugin without a browser part as installed (its dependents may load)', async () => {
    const order: string[] = [];
    const h = harness([manifest('wallet', { client: false, entry: undefined, integrity: undefined }), manifest('shop', { requires: ['wallet'] })], { shop: plugin('shop', order) });
    const summary = await h.run();
    expect(summary.installed).toEqual(['wallet', 'shop']);
    expect(h.imported).toEqual([`${origin}/plugins/shop/shop-abc.js`]);
  });

  it('uses the manifests index.html carried instead of fetching the list (same checks and order)', async () => {
    const order: string[] = [];
    const h = harness([], { wallet: plugin('wallet', order), 'wallet-ui': plugin('wallet-ui', order), future: plugin('future', order) });
    const summary = await h.run({ manifests: [manifest('wallet-ui', { requires: ['wallet'] }), manifest('wallet'), manifest('future', { sdk: '^2.0.0' })] });
    expect(h.fetch.mock.calls.map(([url]) => url)).not.toContain(PLUGINS_URL);
    expect(order).toEqual(['wallet', 'wallet-ui']);
    expect(summary.failed).toEqual(['future']);
  });

  it('rejects when the plugin list itself cannot be fetched (the caller reports the whole step)', async () => {
    const h = harness([], {});
    const failing = vi.fn(async () => new Response('down', { status: 502 }));
    await expect(
      installPlugins({
        fetch: failing,
        registry: h.registry,
        addCatalogue: vi.fn(),
        hasCatalogue: () => false,
        language: () => 'en',
        install: () => {
          throw new Error('not reached');
        },
        report: vi.fn(),
      }),
    ).rejects.toThrow(/answered 502/);
  });
});
