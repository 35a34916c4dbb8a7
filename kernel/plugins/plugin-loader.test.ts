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
import { preparePlugins, PLUGINS_URL, type PluginLoaderDeps, type PluginSet } from './plugin-loader';

const origin = 'http://localhost:3000';

function manifest(id: string, extra: Partial<ServedPluginManifest> = {}): ServedPluginManifest {
  return {
    id,
    name: id,
    version: '1.0.0',
    sdk: '^2.0.0',
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
  const prepare = (extra: Partial<PluginLoaderDeps> = {}) =>
    preparePlugins({
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
  /** prepares, then installs every offered plugin (as if each were needed), in the served order */
  const run = async (extra: Partial<PluginLoaderDeps> = {}) => {
    const set = await prepare(extra);
    const results = await Promise.all(set.offered.map(async (id) => [id, await set.install(id)] as const));
    return { ...set, installed: results.filter(([, ok]) => ok).map(([id]) => id), failed: [...set.refused, ...results.filter(([, ok]) => !ok).map(([id]) => id)] };
  };
  return { prepare, run, fetch, setupOrder, imported, integrity, failures, addCatalogue, catalogueRequests, registry };
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
    const h = harness([manifest('future', { sdk: '^3.0.0' }), manifest('today')], { future: plugin('future', order), today: plugin('today', order) });
    const set = await h.run();
    expect(set.installed).toEqual(['today']);
    expect(set.failed).toEqual(['future']);
    expect(set.offered).toEqual(['today']);
    expect(h.failures).toEqual([{ pluginId: 'future', phase: 'sdk', reason: `plugin "future" was refused: ${sdkRangeProblem('^3.0.0')}` }]);
    expect(h.failures[0].reason).toContain('it needs sdk ^3.0.0 but this panel provides sdk 2.0.0');
    expect(await set.install('future')).toBe(false);
    expect(h.imported.some((url) => url.includes('/future/'))).toBe(false);
  });

  it('sets plugins up so that `requires` come first', async () => {
    const order: string[] = [];
    const h = harness([manifest('wallet-ui', { requires: ['wallet'] }), manifest('wallet')], { 'wallet-ui': plugin('wallet-ui', order), wallet: plugin('wallet', order) });
    const set = await h.run();
    expect(order).toEqual(['wallet', 'wallet-ui']);
    expect(set.manifests.map((m) => m.id)).toEqual(['wallet', 'wallet-ui']);
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
    const set = await h.run();
    expect(set.failed).toEqual(['bare']);
    expect(h.failures[0].reason).toMatch(/no integrity/);
    expect(h.imported).toEqual([]);
  });

  it('a bundle that cannot load is skipped with a readable reason, and so are the plugins that require it', async () => {
    const order: string[] = [];
    const h = harness([manifest('broken'), manifest('needs-broken', { requires: ['broken'] }), manifest('fine')], {
      'needs-broken': plugin('needs-broken', order),
      fine: plugin('fine', order),
    });
    const set = await h.run();
    expect(set.installed).toEqual(['fine']);
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
    const set = await h.run();
    expect(set.installed).toEqual(['fine']);
    expect(h.failures).toEqual([expect.objectContaining({ pluginId: 'thrower', phase: 'setup', reason: expect.stringContaining('boom') })]);
  });

  it('refuses a plugin whose requirement is not installed, naming it', async () => {
    const h = harness([manifest('orphan', { requires: ['ghost'] })], { orphan: plugin('orphan', []) });
    const set = await h.run();
    expect(set.failed).toEqual(['orphan']);
    expect(h.failures[0].reason).toMatch(/requires plugin "ghost", which is not installed or not enabled/);
  });

  it("loads each plugin's catalogues for the fallback and the current language into its namespace, with its entry", async () => {
    const h = harness([manifest('auth')], { auth: plugin('auth', []) }, 'fr');
    const set = await h.prepare();
    expect(h.catalogueRequests).toEqual([]);
    await set.install('auth');
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
    const set = await h.run();
    expect(set.installed).toEqual(['wallet', 'shop']);
    expect(h.imported).toEqual([`${origin}/plugins/shop/shop-abc.js`]);
  });

  it('uses the manifests index.html carried instead of fetching the list (same checks and order)', async () => {
    const order: string[] = [];
    const h = harness([], { wallet: plugin('wallet', order), 'wallet-ui': plugin('wallet-ui', order), future: plugin('future', order) });
    const set = await h.run({ manifests: [manifest('wallet-ui', { requires: ['wallet'] }), manifest('wallet'), manifest('future', { sdk: '^3.0.0' })] });
    expect(h.fetch.mock.calls.map(([url]) => url)).not.toContain(PLUGINS_URL);
    expect(order).toEqual(['wallet', 'wallet-ui']);
    expect(set.failed).toEqual(['future']);
  });

  it('rejects when the plugin list itself cannot be fetched (the caller reports the whole step)', async () => {
    const h = harness([], {});
    const failing = vi.fn(async () => new Response('down', { status: 502 }));
    await expect(
      preparePlugins({
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

describe('plugins load when they are needed (issue 10)', () => {
  it('fetches no entry and no catalogue at start-up for a plugin that does not need start-up', async () => {
    const order: string[] = [];
    const h = harness([manifest('auth'), manifest('shop')], { auth: plugin('auth', order), shop: plugin('shop', order) });
    const set = await h.prepare();
    expect(set.offered).toEqual(['auth', 'shop']);
    expect(h.imported).toEqual([]);
    expect(h.catalogueRequests).toEqual([]);
    expect(order).toEqual([]);
    expect(registryStore.getState().installed).toEqual([]);
  });

  it('fetches an entry once, on its first need; later needs reuse it', async () => {
    const order: string[] = [];
    const h = harness([manifest('auth'), manifest('shop')], { auth: plugin('auth', order), shop: plugin('shop', order) });
    const set = await h.prepare();
    expect(await set.install('shop')).toBe(true);
    expect(await set.install('shop')).toBe(true);
    expect(h.imported).toEqual([`${origin}/plugins/shop/shop-abc.js`]);
    expect(order).toEqual(['shop']);
    expect(registryStore.getState().installed).toEqual(['shop']);
  });

  it('concurrent needs (a page and a slot at once) share one load and one setup', async () => {
    const order: string[] = [];
    const h = harness([manifest('shop')], { shop: plugin('shop', order) });
    const set = await h.prepare();
    const results = await Promise.all([set.install('shop'), set.install('shop'), set.install('shop')]);
    expect(results).toEqual([true, true, true]);
    expect(h.registry.import).toHaveBeenCalledTimes(1);
    expect(order).toEqual(['shop']);
  });

  it('loading a plugin first loads what it requires (downloads side by side, setups in order), and nothing else', async () => {
    const order: string[] = [];
    const h = harness([manifest('shop', { requires: ['wallet'] }), manifest('wallet', { requires: ['auth'] }), manifest('auth'), manifest('unrelated')], {
      shop: plugin('shop', order),
      wallet: plugin('wallet', order),
      auth: plugin('auth', order),
      unrelated: plugin('unrelated', order),
    });
    const set = await h.prepare();
    expect(await set.install('shop')).toBe(true);
    expect(order).toEqual(['auth', 'wallet', 'shop']);
    expect(h.imported.sort()).toEqual([`${origin}/plugins/auth/auth-abc.js`, `${origin}/plugins/shop/shop-abc.js`, `${origin}/plugins/wallet/wallet-abc.js`]);
    // a requirement needed again later is not loaded twice
    expect(await set.install('wallet')).toBe(true);
    expect(order).toEqual(['auth', 'wallet', 'shop']);
  });

  it('installs the plugins with "startup": true (and what they require) before the first page', async () => {
    const order: string[] = [];
    const h = harness([manifest('watcher', { startup: true, requires: ['base'] }), manifest('base'), manifest('page-only')], {
      watcher: plugin('watcher', order),
      base: plugin('base', order),
      'page-only': plugin('page-only', order),
    });
    await h.prepare();
    expect(order).toEqual(['base', 'watcher']);
    expect(h.imported.some((url) => url.includes('/page-only/'))).toBe(false);
    expect(registryStore.getState().installed).toEqual(['base', 'watcher']);
  });

  it('a plugin declaring hooks or events installs at start-up unless it says "startup": false', async () => {
    const order: string[] = [];
    const h = harness([manifest('listener', { events: ['session:changed'] }), manifest('page-bound', { events: ['session:changed'], startup: false })], {
      listener: plugin('listener', order),
      'page-bound': plugin('page-bound', order),
    });
    await h.prepare();
    expect(order).toEqual(['listener']);
  });

  it("a start-up plugin's hook taps are live once the start-up step ends", async () => {
    const seen: string[] = [];
    const h = harness([manifest('watcher', { hooks: ['afterNavigate'] })], {
      watcher: plugin('watcher', [], (ctx) => ctx.hooks.tap('afterNavigate', (to) => void seen.push(to.pathname))),
    });
    const hooks = createKernelHooks();
    await h.prepare({ install: (candidate, m) => installPlugin(candidate, m, { hooks: pluginHookTargets(hooks) }) });
    hooks.afterNavigate.call({ pathname: '/auth/login', search: '', hash: '', from: null });
    expect(seen).toEqual(['/auth/login']);
  });

  it("loads the catalogues of plugins with nav items at start-up (the sidebar's labels), not their entry", async () => {
    const h = harness([manifest('shop', { nav: [{ route: '/shop', label: 'nav.shop' }] }), manifest('quiet')], { shop: plugin('shop', []), quiet: plugin('quiet', []) }, 'fr');
    const set = await h.prepare();
    expect(h.catalogueRequests.sort()).toEqual(['/plugins/shop/locales/en-1.json', '/plugins/shop/locales/fr-1.json']);
    expect(h.imported).toEqual([]);
    // a language switch loads theirs, and those of the plugins installed since; not the others'
    await set.install('shop');
    h.catalogueRequests.length = 0;
    await set.loadLanguage('de');
    expect(h.catalogueRequests).toEqual([]); // shop publishes no "de" file: logged, nothing fetched
    const withDe = harness(
      [
        manifest('shop', { nav: [{ route: '/shop', label: 'nav.shop' }], localeFiles: { en: '/plugins/shop/locales/en-1.json', de: '/plugins/shop/locales/de-1.json' } }),
        manifest('quiet'),
      ],
      {},
    );
    await (await withDe.prepare()).loadLanguage('de');
    expect(withDe.catalogueRequests).toEqual(['/plugins/shop/locales/en-1.json', '/plugins/shop/locales/de-1.json']);
  });

  it('a plugin whose entry fails is reported once, stays failed for later needs, and downloads again after forgetFailedDownloads', async () => {
    const order: string[] = [];
    const modules: Record<string, unknown> = { 'needs-flaky': plugin('needs-flaky', order) };
    const h = harness([manifest('flaky'), manifest('needs-flaky', { requires: ['flaky'] })], modules);
    const set: PluginSet = await h.prepare();
    expect(await set.install('needs-flaky')).toBe(false);
    expect(await set.install('needs-flaky')).toBe(false);
    expect(h.failures.map((f) => f.pluginId)).toEqual(['flaky', 'needs-flaky']);
    expect(h.imported.filter((url) => url.includes('/flaky/'))).toHaveLength(1);
    // the network is back: a retry downloads it again, and its dependent installs
    modules.flaky = plugin('flaky', order);
    set.forgetFailedDownloads();
    expect(await set.install('needs-flaky')).toBe(true);
    expect(order).toEqual(['flaky', 'needs-flaky']);
  });

  it('a plugin whose setup throws stays refused (a retry would run the same code)', async () => {
    const h = harness([manifest('thrower')], {
      thrower: plugin('thrower', [], () => {
        throw new Error('boom');
      }),
    });
    const set = await h.prepare();
    expect(await set.install('thrower')).toBe(false);
    set.forgetFailedDownloads();
    expect(await set.install('thrower')).toBe(false);
    expect(h.registry.import).toHaveBeenCalledTimes(1);
    expect(h.failures).toHaveLength(1);
  });
});
