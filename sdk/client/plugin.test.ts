import { describe, expect, it } from 'vitest';
import { definePlugin, describeNonPlugin, isOrepanelPlugin, PLUGIN_API_VERSION, PLUGIN_BRAND } from './plugin';

describe('definePlugin', () => {
  it('returns a frozen object branded for plugin API v2', () => {
    const plugin = definePlugin({ id: 'hello', setup() {} });
    expect(plugin.$$type).toBe('@orepanel/plugin');
    expect(plugin.$$type).toBe(PLUGIN_BRAND);
    expect(plugin.apiVersion).toBe(2);
    expect(PLUGIN_API_VERSION).toBe(2);
    expect(plugin.id).toBe('hello');
    expect(typeof plugin.setup).toBe('function');
    expect(Object.isFrozen(plugin)).toBe(true);
    expect(isOrepanelPlugin(plugin)).toBe(true);
  });

  it('passes the context to setup', () => {
    let received: unknown = null;
    const plugin = definePlugin({
      id: 'hello',
      setup(ctx) {
        received = ctx;
      },
    });
    const ctx = { id: 'hello' } as unknown as Parameters<typeof plugin.setup>[0];
    plugin.setup(ctx);
    expect(received).toBe(ctx);
  });

  it('refuses an invalid id or a missing setup', () => {
    expect(() => definePlugin({ id: 'Hello World', setup() {} })).toThrow(/not a valid plugin id/);
    expect(() => definePlugin({ id: 'x', setup() {} })).toThrow(/not a valid plugin id/);
    expect(() => definePlugin({ id: 'hello' } as unknown as Parameters<typeof definePlugin>[0])).toThrow(/no setup function/);
  });
});

describe('isOrepanelPlugin', () => {
  it('duck-types the brand and refuses look-alikes with a reason', () => {
    expect(isOrepanelPlugin(null)).toBe(false);
    expect(isOrepanelPlugin({ id: 'x', setup() {} })).toBe(false);
    expect(describeNonPlugin({ id: 'x', setup() {} })).toBe('its client bundle does not export a definePlugin() object as default');
    const fromTheFuture = { $$type: '@orepanel/plugin', apiVersion: 3, id: 'x', setup() {} };
    expect(isOrepanelPlugin(fromTheFuture)).toBe(false);
    expect(describeNonPlugin(fromTheFuture)).toBe('it was built for plugin API v3 but this panel runs plugin API v2');
    expect(describeNonPlugin({ $$type: '@orepanel/plugin', apiVersion: 2, id: 'x' })).toMatch(/malformed/);
  });
});
