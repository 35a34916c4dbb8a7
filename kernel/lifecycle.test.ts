import { describe, expect, it, vi } from 'vitest';
import { createKernelHooks, START_ORDER, startKernel, tapKernelSteps, type StartupSteps } from './lifecycle';

function recordingSteps(overrides: Partial<StartupSteps> = {}) {
  const calls: string[] = [];
  const step = (name: string) => async () => {
    calls.push(name);
  };
  const steps: StartupSteps = {
    loadCustomAssets: step('custom-assets'),
    applyInterfaceSettings: step('interface-settings'),
    startEarlyRequests: () => void calls.push('early-requests'),
    loadCatalogues: step('catalogues'),
    installPlugins: step('plugins'),
    loadAds: step('ads'),
    mountApp: step('mount'),
    startSession: step('session'),
    registerServiceWorker: step('service-worker'),
    showApplicationError: () => calls.push('application-error'),
    ...overrides,
  };
  return { steps, calls };
}

function setup(overrides: Partial<StartupSteps> = {}) {
  const hooks = createKernelHooks();
  const { steps, calls } = recordingSteps(overrides);
  const log = { error: vi.fn(), warn: vi.fn() };
  tapKernelSteps(hooks, steps, log);
  return { hooks, calls, log };
}

describe('kernel start-up (spec §4)', () => {
  it('runs the steps in the spec order: custom assets, catalogues, plugins, ads, mount — then the session', async () => {
    const { hooks, calls, log } = setup();
    await startKernel(hooks);
    expect(calls).toEqual(['custom-assets', 'interface-settings', 'early-requests', 'catalogues', 'plugins', 'ads', 'mount', 'session', 'service-worker']);
    expect(log.error).not.toHaveBeenCalled();
    expect(log.warn).not.toHaveBeenCalled();
  });

  it('exposes the hooks as a frozen object, in start order', () => {
    const hooks = createKernelHooks();
    expect(Object.isFrozen(hooks)).toBe(true);
    expect(Object.keys(hooks).slice(0, START_ORDER.length)).toEqual([...START_ORDER]);
  });

  it('a step tapped by someone else runs in its place in the order', async () => {
    const { hooks, calls } = setup();
    hooks.plugins.tapPromise('extra', async () => {
      calls.push('extra-after-plugins');
    });
    await startKernel(hooks);
    expect(calls.indexOf('extra-after-plugins')).toBe(calls.indexOf('plugins') + 1);
    expect(calls.indexOf('extra-after-plugins')).toBeLessThan(calls.indexOf('ads'));
  });

  it("a failing plugin step logs 'Failed to initialize Vue plugins' and the start-up carries on", async () => {
    const { hooks, calls, log } = setup({
      installPlugins: async () => {
        throw new Error('GET /api/system/plugins answered 500');
      },
    });
    await startKernel(hooks);
    expect(log.error).toHaveBeenCalledWith('Failed to initialize Vue plugins', expect.any(Error));
    expect(calls).toEqual(['custom-assets', 'interface-settings', 'early-requests', 'catalogues', 'ads', 'mount', 'session', 'service-worker']);
  });

  it("a failing ads step warns 'Failed to fetch AdSense client code' and still mounts", async () => {
    const { hooks, calls, log } = setup({
      loadAds: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    await startKernel(hooks);
    expect(log.warn).toHaveBeenCalledWith('Failed to fetch AdSense client code', expect.any(TypeError));
    expect(calls).toContain('mount');
  });

  it("a failing mount logs 'Failed to mount Vue app' and shows the Application Error page", async () => {
    const { hooks, calls, log } = setup({
      mountApp: async () => {
        throw new Error('no #app');
      },
    });
    await startKernel(hooks);
    expect(log.error).toHaveBeenCalledWith('Failed to mount Vue app', expect.any(Error));
    expect(calls).toContain('application-error');
    // the session still starts: a logged-in user's refresh keeps working behind the error page
    expect(calls).toContain('session');
  });

  it("interface settings that fail log 'Failed to initialize performance optimizations' without stopping boot", async () => {
    const { hooks, calls, log } = setup({
      applyInterfaceSettings: async () => {
        throw new Error('matchMedia missing');
      },
    });
    await startKernel(hooks);
    expect(log.error).toHaveBeenCalledWith('Failed to initialize performance optimizations', expect.any(Error));
    expect(calls).toEqual(['custom-assets', 'early-requests', 'catalogues', 'plugins', 'ads', 'mount', 'session', 'service-worker']);
  });

  it('plugin-facing hooks are tap targets only through pluginHookTargets', async () => {
    const { pluginHookTargets } = await import('./lifecycle');
    const hooks = createKernelHooks();
    const targets = pluginHookTargets(hooks);
    expect(Object.keys(targets).sort()).toEqual(['afterNavigate', 'beforeNavigate', 'localeChanged', 'sessionCleared', 'sessionLoaded']);
    expect(targets.beforeNavigate).toBe(hooks.beforeNavigate);
  });
});
