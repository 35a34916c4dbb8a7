// Typed services between server plugins, in two phases (issue 10 item 2): the host runs every
// register() (routes, provided services) before any start() (services got, jobs and listeners), so a
// service is never asked for before it is provided. A consumer that lists the provider in `requires`
// gets the service in start(); one that does not list it, one that asks in register() and one that
// provides in start() are refused with the reason, and the rest keep serving. A third-party plugin
// enabled later runs both phases then.
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineServerPlugin, isServerPlugin } from '../../sdk/server';
import { phasesOf } from '../fixtures/service-plugins/phases';
import { REPO_PLUGINS, ROOT, startPanel, testDialects, userWithRole, type SignedInUser, type TestPanel } from './harness';

const SERVICE_PLUGINS = join(ROOT, 'tests', 'fixtures', 'service-plugins');

describe('defineServerPlugin with start()', () => {
  it('keeps start(), and refuses a start that is not a function', () => {
    const plugin = defineServerPlugin({
      id: 'sample',
      register: () => ({ n: 1 }),
      start(_ctx, registered) {
        void registered.n;
      },
    });
    expect(typeof plugin.start).toBe('function');
    expect(isServerPlugin(plugin)).toBe(true);
    expect(() => defineServerPlugin({ id: 'sample', register() {}, start: 'later' as never })).toThrow(/start must be a function/);
    expect(isServerPlugin({ ...plugin, start: 'later' })).toBe(false);
  });
});

describe.each(testDialects())('plugin services on %s', (dialect) => {
  let panel: TestPanel;
  let app: FastifyInstance;
  let root: SignedInUser;

  beforeAll(async () => {
    panel = await startPanel(dialect, {
      pluginDirs: [REPO_PLUGINS, SERVICE_PLUGINS],
      prepareDataDir: (dataDir) => {
        cpSync(join(ROOT, 'tests', 'fixtures', 'third-party', 'fx-late-consumer'), join(dataDir, 'plugins', 'fx-late-consumer'), { recursive: true });
      },
    });
    app = panel.app;
    root = await userWithRole(panel, 8);
  });
  afterAll(async () => {
    await panel?.close();
  });

  const reasonOf = (id: string) => panel.services.plugins.refused.find((r) => r.id === id)?.reason;

  it('runs every register() before any start(), requirements first', () => {
    expect(phasesOf(panel.database.dataDir)).toEqual(['fx-provider:register', 'fx-consumer:register', 'fx-provider:start', 'fx-consumer:start']);
  });

  it('hands the service to the consumer that lists its provider, in start()', async () => {
    const res = await app.inject({ url: '/api/fx-consumer/greet' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ greeting: 'hello ada' });
  });

  it('refuses a plugin that asks for a service whose provider it does not list, and keeps serving the rest', async () => {
    expect(reasonOf('fx-uninvited')).toBe(
      'its start() failed: plugin "fx-uninvited" uses service "fx-provider.greeting" but does not list plugin "fx-provider" in its plugin.json "requires"',
    );
    expect((await app.inject({ url: '/api/fx-uninvited/greet' })).statusCode).toBe(404);
    expect(panel.services.plugins.isActive('fx-consumer')).toBe(true);
  });

  it('refuses a plugin that asks for a service in register(), with the reason', async () => {
    expect(reasonOf('fx-early')).toMatch(/^its register\(\) failed: plugin "fx-early" asks for service "fx-provider.greeting" in its register\(\): .*ask in start\(\)/);
    expect((await app.inject({ url: '/api/fx-early/greet' })).statusCode).toBe(404);
  });

  it('refuses a plugin that provides a service in start(), with the reason', async () => {
    expect(reasonOf('fx-provides-late')).toMatch(/^its start\(\) failed: plugin "fx-provides-late" provides service "fx-provides-late.clock" after its register\(\)/);
    expect((await app.inject({ url: '/api/fx-provides-late/ping' })).statusCode).toBe(404);
  });

  it('the first-party providers and consumers start: the catalog, two-factor and OAuth grants are served', () => {
    for (const id of ['auth', 'server-catalog', 'servers', 'account', 'earn-j4r']) expect(reasonOf(id)).toBeUndefined();
  });

  it('a third-party plugin enabled later runs register() then start(), and gets the service it requires', async () => {
    expect((await app.inject({ url: '/api/plugins/fx-late-consumer/greet' })).statusCode).toBe(404);
    const res = await app.inject({ method: 'POST', url: '/api/admin/plugins/fx-late-consumer/enable', headers: { cookie: root.cookie } });
    expect(res.statusCode).toBe(200);
    const greet = await app.inject({ url: '/api/plugins/fx-late-consumer/greet' });
    expect(greet.json()).toEqual({
      greeting: 'hello grace',
      askedInRegister: expect.stringMatching(/^plugin "fx-late-consumer" asks for service "fx-provider.greeting" in its register\(\)/),
    });
  });
});
