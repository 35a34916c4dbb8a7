import * as emotionReact from '@emotion/react';
import * as i18next from 'i18next';
import * as React from 'react';
import * as ReactRouterDom from 'react-router-dom';
import * as zustand from 'zustand';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as sdk from '@orepanel/sdk';
import { SHARED_MODULES } from './shared-modules';
import { createPluginRegistry, forgetFailedLoads, SHARED_MODULE_PREFIX } from './system-registry';

const declared = JSON.parse(readFileSync(new URL('../../sdk/shared-modules.json', import.meta.url), 'utf8')).modules as Record<string, string>;

describe('shared modules', () => {
  it('the kernel provides exactly the modules of sdk/shared-modules.json, eager and lazy as declared', () => {
    expect(Object.fromEntries(Object.entries(SHARED_MODULES).map(([name, m]) => [name, m.mode]))).toEqual(declared);
  });

  it('a fresh registry resolves every shared module to the kernel namespace (eager ones)', async () => {
    const registry = createPluginRegistry();
    for (const [name, entry] of Object.entries(SHARED_MODULES)) {
      if (entry.mode !== 'eager') continue;
      expect(registry.resolve(name)).toBe(SHARED_MODULE_PREFIX + name);
      const ns = await registry.import(name);
      const own = (await entry.load()) as Record<string, unknown>;
      for (const key of Object.keys(own)) expect(ns[key], `${name}.${key}`).toBe(own[key]);
    }
  });

  it('hands plugins the very instances the kernel runs with', async () => {
    const registry = createPluginRegistry();
    expect((await registry.import('react')).useState).toBe(React.useState);
    expect((await registry.import('react-router-dom')).useNavigate).toBe(ReactRouterDom.useNavigate);
    expect((await registry.import('i18next')).default).toBe(i18next.default);
    expect((await registry.import('zustand')).create).toBe(zustand.create);
    expect((await registry.import('@emotion/react')).css).toBe(emotionReact.css);
    expect((await registry.import('@orepanel/sdk')).definePlugin).toBe(sdk.definePlugin);
    expect((await registry.import('@orepanel/sdk')).i18n).toBe(sdk.i18n);
  });

  it('every registry is a new, empty one, wired the same way', () => {
    const a = createPluginRegistry();
    const b = createPluginRegistry();
    expect(a).not.toBe(b);
    expect(a).not.toBe(globalThis.System);
    expect(b.resolve('react')).toBe(`${SHARED_MODULE_PREFIX}react`);
  });

  it('refuses a bare import that is not shared (plugins must bundle their own packages)', () => {
    expect(() => createPluginRegistry().resolve('left-pad', 'http://panel.test/plugins/x/x.js')).toThrow(/left-pad/);
  });

  it('subpaths are shared only when listed', () => {
    const registry = createPluginRegistry();
    expect(registry.resolve('react/jsx-runtime')).toBe(`${SHARED_MODULE_PREFIX}react/jsx-runtime`);
    expect(() => registry.resolve('react-dom/server', 'http://panel.test/plugins/x/x.js')).toThrow();
  });

  it('forgets a failed load so that a retry fetches the file again', async () => {
    const registry = createPluginRegistry();
    let attempts = 0;
    const url = 'http://panel.test/plugins/x/Page-abc.js';
    (registry as unknown as { instantiate: () => Promise<never> }).instantiate = async () => {
      attempts++;
      throw new Error('network down');
    };
    await expect(registry.import(url)).rejects.toThrow('network down');
    await expect(registry.import(url)).rejects.toThrow('network down');
    expect(attempts).toBe(1);
    expect(forgetFailedLoads(registry)).toBe(1);
    await expect(registry.import(url)).rejects.toThrow('network down');
    expect(attempts).toBe(2);
  });
});
