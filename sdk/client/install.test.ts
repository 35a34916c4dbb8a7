import { SyncBailHook, SyncHook } from 'tapable';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Language, PluginManifest } from '../types';
import { createEventBus, type PluginFailure } from './events';
import { createPluginContext, installPlugin, type KernelHookTargets, type KernelParts } from './install';
import { definePlugin, PluginContractError, type NavigationTarget, type PluginContext } from './plugin';
import { registryStore } from './stores/registry';
import type { SessionSnapshot } from './stores/session';
import type { NavigationEvent } from './events';

function kernelHooks() {
  return {
    beforeNavigate: new SyncBailHook<[NavigationTarget], string | false | undefined>(['to']),
    afterNavigate: new SyncHook<[NavigationEvent]>(['location']),
    sessionLoaded: new SyncHook<[SessionSnapshot]>(['session']),
    sessionCleared: new SyncHook<[{ code: string | null }]>(['info']),
    localeChanged: new SyncHook<[Language]>(['locale']),
  };
}

const manifest = (extra: Partial<PluginManifest> = {}): PluginManifest => ({
  id: 'hello',
  name: 'Hello',
  version: '1.0.0',
  sdk: '^2.0.0',
  routes: [{ path: '/hello', component: 'HelloPage', auth: true }],
  slots: [{ slot: 'dashboard.widgets', component: 'HelloWidget' }],
  hooks: ['beforeNavigate', 'sessionLoaded'],
  events: ['session:changed', 'other:thing'],
  ...extra,
});

const loader = () => Promise.resolve({ default: () => null });
const target: NavigationTarget = { pathname: '/x', search: '', hash: '', from: null, route: null, pluginId: null };

let hooks: ReturnType<typeof kernelHooks>;
let failures: PluginFailure[];
let parts: KernelParts;

beforeEach(() => {
  registryStore.getState().reset();
  hooks = kernelHooks();
  failures = [];
  // tapable's hooks fit the sdk's structural hook type without adapters
  const targets: KernelHookTargets = hooks;
  parts = { hooks: targets, events: createEventBus(), report: (f) => failures.push(f) };
});

afterEach(() => vi.restoreAllMocks());

function stage(m: PluginManifest = manifest()) {
  return createPluginContext(m, parts);
}

describe('the plugin context refuses what plugin.json does not declare', () => {
  it('a route component', () => {
    const { context } = stage();
    expect(() => context.routes.provide('Foo', loader)).toThrow(PluginContractError);
    expect(() => context.routes.provide('Foo', loader)).toThrow(
      'plugin "hello" provides component "Foo" but plugin.json declares no route with component "Foo" (declared: HelloPage)',
    );
  });

  it('a slot component', () => {
    const { context } = stage(manifest({ slots: [] }));
    expect(() => context.slots.provide('HelloWidget', loader)).toThrow(
      'plugin "hello" provides component "HelloWidget" but plugin.json declares no slot with component "HelloWidget"',
    );
  });

  it('a component provided twice, or without a loader', () => {
    const { context } = stage();
    context.routes.provide('HelloPage', loader);
    expect(() => context.routes.provide('HelloPage', loader)).toThrow('plugin "hello" provides route component "HelloPage" twice');
    expect(() => context.slots.provide('HelloWidget', 'nope' as unknown as typeof loader)).toThrow(/without a loader function/);
  });

  it('a hook it does not declare, and a hook that does not exist', () => {
    const { context } = stage();
    expect(() => context.hooks.tap('afterNavigate', () => {})).toThrow('plugin "hello" taps hook "afterNavigate" but plugin.json does not declare it in "hooks"');
    expect(() => context.hooks.tap('beforeRun' as 'afterNavigate', () => {})).toThrow(
      'plugin "hello" taps unknown hook "beforeRun" (kernel hooks: beforeNavigate, afterNavigate, sessionLoaded, sessionCleared, localeChanged)',
    );
  });

  it('an event it does not declare', () => {
    const { context } = stage();
    expect(() => context.events.on('locale:changed', () => {})).toThrow('plugin "hello" listens to event "locale:changed" but plugin.json does not declare it in "events"');
  });

  it("emitting a kernel event or another plugin's event", () => {
    const { context } = stage();
    expect(() => context.events.emit('session:changed', {})).toThrow('plugin "hello" may only emit its own events, named "hello:<name>", not "session:changed"');
    expect(() => context.events.emit('other:thing')).toThrow(/may only emit its own events/);
    expect(() => context.events.emit('hello:')).toThrow(/may only emit its own events/);
  });

  it('accepts what is declared', () => {
    const { context } = stage();
    expect(() => {
      context.routes.provide('HelloPage', loader);
      context.slots.provide('HelloWidget', loader);
      context.hooks.tap('beforeNavigate', () => undefined);
      context.events.on('session:changed', () => {});
      context.events.emit('hello:greeted', { who: 'world' });
    }).not.toThrow();
  });
});

describe('installPlugin', () => {
  const good = definePlugin({
    id: 'hello',
    setup(ctx) {
      ctx.routes.provide('HelloPage', loader);
      ctx.slots.provide('HelloWidget', loader);
    },
  });

  it('commits the loaders of a plugin whose setup keeps to its manifest', () => {
    const result = installPlugin(good, manifest(), parts);
    expect(result.ok).toBe(true);
    const state = registryStore.getState();
    expect(state.installed).toEqual(['hello']);
    expect(state.routes.hello.HelloPage).toBe(loader);
    expect(state.slots.hello.HelloWidget).toBe(loader);
    expect(failures).toEqual([]);
  });

  it('refuses a declared route that setup() did not provide', () => {
    const lazy = definePlugin({
      id: 'hello',
      setup(ctx) {
        ctx.slots.provide('HelloWidget', loader);
      },
    });
    const result = installPlugin(lazy, manifest(), parts);
    expect(result.ok).toBe(false);
    expect(failures[0]).toEqual({
      pluginId: 'hello',
      phase: 'contract',
      reason: 'plugin "hello" declares route "/hello" with component "HelloPage" in plugin.json but setup() did not provide it',
    });
    expect(registryStore.getState().installed).toEqual([]);
  });

  it('is all-or-nothing: a setup that throws after registering leaves nothing behind', () => {
    const handler = vi.fn();
    const broken = definePlugin({
      id: 'hello',
      setup(ctx) {
        ctx.routes.provide('HelloPage', loader);
        ctx.events.on('session:changed', handler);
        ctx.hooks.tap('beforeNavigate', () => '/elsewhere');
        throw new Error('boom');
      },
    });
    const result = installPlugin(broken, manifest(), parts);
    expect(result.ok).toBe(false);
    expect(failures[0]).toMatchObject({ pluginId: 'hello', phase: 'setup', reason: 'plugin "hello" failed in setup(): boom' });
    expect(registryStore.getState().routes.hello).toBeUndefined();
    expect(hooks.beforeNavigate.taps).toHaveLength(0);
    parts.events!.emit('session:changed', { loggedIn: true, uuid: null, role: null, permissions: [] });
    expect(handler).not.toHaveBeenCalled();
  });

  it('reports an undeclared registration in setup as a contract failure', () => {
    const sneaky = definePlugin({
      id: 'hello',
      setup(ctx) {
        ctx.routes.provide('AdminPage', loader);
      },
    });
    const result = installPlugin(sneaky, manifest(), parts);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.failure.phase).toBe('contract');
      expect(result.failure.reason).toBe('plugin "hello" provides component "AdminPage" but plugin.json declares no route with component "AdminPage" (declared: HelloPage)');
    }
  });

  it('refuses an incompatible sdk range with a readable reason', () => {
    const result = installPlugin(good, manifest({ sdk: '^3.0.0' }), parts);
    expect(result.ok).toBe(false);
    expect(failures[0]).toEqual({
      pluginId: 'hello',
      phase: 'sdk',
      reason: 'plugin "hello" was refused: it needs sdk ^3.0.0 but this panel provides sdk 2.0.0 (plugin API v2)',
    });
  });

  it('refuses a non-plugin export and an id that does not match plugin.json', () => {
    expect(installPlugin({ setup() {} }, manifest(), parts).ok).toBe(false);
    expect(failures[0].reason).toBe('plugin "hello" was refused: its client bundle does not export a definePlugin() object as default');
    const other = definePlugin({ id: 'other', setup() {} });
    expect(installPlugin(other, manifest(), parts).ok).toBe(false);
    expect(failures[1].reason).toBe('plugin "hello" was refused: plugin.json says id "hello" but its definePlugin() id is "other"');
  });

  it('refuses an async setup', () => {
    const asyncSetup = definePlugin({ id: 'hello', setup: (async () => {}) as unknown as (ctx: PluginContext) => void });
    const result = installPlugin(asyncSetup, manifest({ routes: [], slots: [] }), parts);
    expect(result.ok).toBe(false);
    expect(failures[0].reason).toMatch(/setup\(\) must be synchronous/);
  });

  it('reports through the sdk by default: console, registry and plugin:failed', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const result = installPlugin({}, manifest(), { hooks });
    expect(result.ok).toBe(false);
    expect(registryStore.getState().failed.hello.phase).toBe('contract');
    expect(error).toHaveBeenCalled();
  });
});

describe('isolation of taps and handlers', () => {
  const twoPlugins = (first: (ctx: PluginContext) => void, second: (ctx: PluginContext) => void) => {
    const a = installPlugin(definePlugin({ id: 'first', setup: first }), manifest({ id: 'first', routes: [], slots: [] }), parts);
    const b = installPlugin(definePlugin({ id: 'second', setup: second }), manifest({ id: 'second', routes: [], slots: [] }), parts);
    expect(a.ok && b.ok).toBe(true);
    return [a, b];
  };

  it('a throwing hook tap is reported and the other taps still run', () => {
    const seen: string[] = [];
    twoPlugins(
      (ctx) =>
        ctx.hooks.tap('sessionLoaded', () => {
          throw new Error('tap exploded');
        }),
      (ctx) => ctx.hooks.tap('sessionLoaded', (s) => void seen.push(`second saw ${String(s.loggedIn)}`)),
    );
    expect(() => hooks.sessionLoaded.call({ loggedIn: true, user: null, billing: null, stats: null, permissions: [], role: 1 })).not.toThrow();
    expect(seen).toEqual(['second saw true']);
    expect(failures).toEqual([{ pluginId: 'first', phase: 'hook', target: 'sessionLoaded', reason: 'plugin "first" threw in its sessionLoaded tap: tap exploded' }]);
  });

  it('a throwing beforeNavigate tap does not bail; the next tap decides', () => {
    twoPlugins(
      (ctx) =>
        ctx.hooks.tap('beforeNavigate', () => {
          throw new Error('nope');
        }),
      (ctx) => ctx.hooks.tap('beforeNavigate', (to) => (to.pathname === '/x' ? '/y' : undefined)),
    );
    expect(hooks.beforeNavigate.call(target)).toBe('/y');
    expect(failures).toHaveLength(1);
  });

  it('a throwing event handler is reported and the other handlers still run', () => {
    const seen: unknown[] = [];
    twoPlugins(
      (ctx) =>
        ctx.events.on('session:changed', () => {
          throw new Error('handler exploded');
        }),
      (ctx) => ctx.events.on('session:changed', (payload) => void seen.push(payload.loggedIn)),
    );
    parts.events!.emit('session:changed', { loggedIn: true, uuid: 'u', role: 1, permissions: [] });
    expect(seen).toEqual([true]);
    expect(failures).toEqual([{ pluginId: 'first', phase: 'event', target: 'session:changed', reason: 'plugin "first" threw handling event "session:changed": handler exploded' }]);
  });

  it('a rejected async handler is reported too', async () => {
    twoPlugins(
      (ctx) =>
        ctx.events.on('other:thing', async () => {
          throw new Error('later');
        }),
      () => {},
    );
    parts.events!.emit('other:thing', 1);
    await Promise.resolve();
    await Promise.resolve();
    expect(failures[0]).toMatchObject({ pluginId: 'first', phase: 'event', reason: 'plugin "first" threw handling event "other:thing": later' });
  });

  it('events.off removes the handler given to on, and dispose silences everything', () => {
    const handler = vi.fn();
    const tap = vi.fn(() => undefined);
    const [a] = twoPlugins(
      (ctx) => {
        ctx.events.on('other:thing', handler);
        ctx.hooks.tap('beforeNavigate', tap);
      },
      () => {},
    );
    parts.events!.emit('other:thing', 1);
    hooks.beforeNavigate.call(target);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(tap).toHaveBeenCalledTimes(1);
    if (a.ok) a.plugin.dispose();
    parts.events!.emit('other:thing', 2);
    hooks.beforeNavigate.call(target);
    expect(handler).toHaveBeenCalledTimes(1);
    expect(tap).toHaveBeenCalledTimes(1);
    expect(registryStore.getState().installed).toEqual(['second']);
  });

  it('components cannot be provided after setup()', () => {
    let saved: PluginContext | null = null;
    const m = manifest({ slots: [] });
    const result = installPlugin(
      definePlugin({
        id: 'hello',
        setup(ctx) {
          saved = ctx;
          ctx.routes.provide('HelloPage', loader);
        },
      }),
      m,
      parts,
    );
    expect(result.ok).toBe(true);
    expect(() => saved!.routes.provide('HelloPage', loader)).toThrow(/after setup\(\)/);
  });

  it('ctx.log prefixes the plugin id', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    stage().context.log.warn('careful', 1);
    expect(warn).toHaveBeenCalledWith('[plugin:hello]', 'careful', 1);
  });
});

describe('overlays and diagnostics', () => {
  const withOverlay = (extra: Partial<PluginManifest> = {}) =>
    manifest({ routes: [], slots: [], hooks: [], events: [], overlays: [{ component: 'ToolsPanel', label: 'open', shortcut: 'Ctrl+I' }], ...extra });

  it('takes the overlay component plugin.json declares, refuses another, and requires it', () => {
    const { context, missingRegistrations } = stage(withOverlay());
    expect(() => context.overlays.provide('Other', loader)).toThrow(
      'plugin "hello" provides component "Other" but plugin.json declares no overlay with component "Other" (declared: ToolsPanel)',
    );
    expect(missingRegistrations()).toEqual(['plugin "hello" declares overlay "ToolsPanel" in plugin.json but setup() did not provide it']);
    context.overlays.provide('ToolsPanel', loader);
    expect(missingRegistrations()).toEqual([]);
  });

  it('commits the overlay loader to the registry', () => {
    const plugin = definePlugin({ id: 'hello', setup: (ctx) => ctx.overlays.provide('ToolsPanel', loader) });
    expect(installPlugin(plugin, withOverlay(), parts).ok).toBe(true);
    expect(registryStore.getState().overlays.hello.ToolsPanel).toBe(loader);
  });

  it('gives ctx.diagnostics only to a plugin that declares it, and only to read', () => {
    expect(() => stage(withOverlay()).context.diagnostics).toThrow('plugin "hello" reads ctx.diagnostics but plugin.json does not declare "diagnostics": true');
    const { diagnostics } = stage(withOverlay({ diagnostics: true })).context;
    expect(typeof diagnostics.snapshot).toBe('function');
    expect((diagnostics as unknown as Record<string, unknown>).addNetwork).toBeUndefined();
  });
});
