// The server test kit as a plugin author uses it: a panel with the plugin installed the way the
// panel installs it (third-party by default), users of any role or permissions, a manual clock.
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TEST_START, startPluginPanel, TEST_PASSWORD, TEST_ROLES, type PluginPanel } from '@orepanel/sdk/testing/server';

const FIXTURES = new URL('../../tests/fixtures/plugins/', import.meta.url);
const fixture = (id: string) => new URL(`${id}/`, FIXTURES);
const KIT_TIMER = new URL('./fixtures/kit-timer/', import.meta.url);

type NotesTables = { fx_notes: { id: number; body: string } };
const leftovers = (id: string) => readdirSync(tmpdir()).filter((name) => name.startsWith(`orepanel-plugin-${id}-`));

describe('startPluginPanel: a third-party plugin (the default)', () => {
  let panel: PluginPanel;
  beforeAll(async () => {
    panel = await startPluginPanel({ plugin: fixture('fx-notes'), settings: { fx_greeting: 'bonjour' } });
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('serves it under /api/plugins/<id>, switched on, with the settings the test gave', async () => {
    expect(panel.pluginId).toBe('fx-notes');
    expect(panel.url('/fx-notes/ping')).toBe('/api/plugins/fx-notes/fx-notes/ping');
    const res = await panel.inject({ url: panel.url('/fx-notes/ping') });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ pong: 'bonjour' });
    // not under the first-party prefix
    expect((await panel.inject({ url: '/api/fx-notes/ping' })).statusCode).toBe(404);
  });

  it('runs its migrations and puts its routes behind the panel guards and input policy', async () => {
    const anonymous = await panel.inject({ method: 'POST', url: panel.url('/fx-notes'), payload: { body: 'hi' } });
    expect(anonymous.statusCode).toBe(401);
    const alice = await panel.signIn();
    const saved = await panel.inject({ method: 'POST', url: panel.url('/fx-notes'), as: alice, payload: { body: 'hi' } });
    expect(saved.statusCode).toBe(201);
    const unknownField = await panel.inject({ method: 'POST', url: panel.url('/fx-notes'), as: alice, payload: { body: 'x', extra: 1 } });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().error.code).toBe('VALIDATION_ERROR');
    const rows = await panel.db.withTables<NotesTables>().selectFrom('fx_notes').select('body').execute();
    expect(rows).toEqual([{ body: 'hi' }]);
  });

  it('signs users in with a role or with exactly the permissions given', async () => {
    const guarded = (user: Awaited<ReturnType<PluginPanel['signIn']>>) => panel.inject({ url: panel.url('/fx-notes/admin'), as: user });
    const plain = await panel.signIn();
    expect(plain.roleId).toBe(TEST_ROLES.default);
    expect((await guarded(plain)).statusCode).toBe(403);
    expect((await guarded(await panel.signIn(['admin.fx.view']))).statusCode).toBe(200);
    expect((await guarded(await panel.signIn(['admin.other']))).statusCode).toBe(403);
    expect((await guarded(await panel.signIn(TEST_ROLES.administrator))).statusCode).toBe(200);

    // a real session: the core's session endpoint knows the user, and the password is the kit's
    const session = await panel.inject({ url: '/api/user/session', as: plain });
    expect(session.json().user_info.username).toBe(plain.username);
    expect(await panel.app.inject({ url: panel.url('/fx-notes/mine'), headers: { cookie: plain.cookie } }).then((r) => r.json())).toEqual({ username: plain.username });
    const login = await panel.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: plain.username, password: TEST_PASSWORD } });
    expect(login.statusCode).toBe(200);
  });

  it('switches the plugin off and on as the plugins screen does', async () => {
    await panel.setEnabled(false);
    expect((await panel.inject({ url: panel.url('/fx-notes/ping') })).statusCode).toBe(404);
    await panel.setEnabled(true);
    expect((await panel.inject({ url: panel.url('/fx-notes/ping') })).statusCode).toBe(200);
  });
});

describe('startPluginPanel: first-party, clock and jobs', () => {
  it('installs a third-party plugin written as authors write one (client, locales, server)', async () => {
    const panel = await startPluginPanel({ plugin: new URL('../../tests/fixtures/third-party-src/fixture-healthy/', import.meta.url) });
    try {
      expect((await panel.inject({ url: panel.url('/greeting') })).json()).toEqual({ greeting: 'Hello from the fixture server' });
      const served = (await panel.inject({ url: '/api/system/plugins' })).json() as { id: string }[];
      expect(served.map((p) => p.id)).toContain('fixture-healthy');
    } finally {
      await panel.close();
    }
  });

  it('serves a first-party plugin under /api', async () => {
    const panel = await startPluginPanel({ plugin: fixture('fx-notes'), install: 'first-party' });
    try {
      expect(panel.url('/fx-notes/ping')).toBe('/api/fx-notes/ping');
      expect((await panel.inject({ url: panel.url('/fx-notes/ping') })).json()).toEqual({ pong: 'hello' });
    } finally {
      await panel.close();
    }
  });

  it('hands the plugin a clock that moves only when the test moves it, and runs its jobs when asked', async () => {
    const panel = await startPluginPanel({ plugin: KIT_TIMER });
    try {
      const state = async () => (await panel.inject({ url: panel.url('/timer') })).json() as { now: number; fired: number; ticks: number };
      expect(await state()).toEqual({ now: DEFAULT_TEST_START, fired: 0, ticks: 0 });
      const user = await panel.signIn();
      expect((await panel.inject({ method: 'POST', url: panel.url('/timer'), as: user })).json()).toEqual({ due: DEFAULT_TEST_START + 60_000 });
      panel.clock.advance(59_999);
      expect((await state()).fired).toBe(0);
      panel.clock.advance(1);
      expect(await state()).toEqual({ now: DEFAULT_TEST_START + 60_000, fired: 1, ticks: 0 });
      expect(panel.clock.pending).toBe(0);
      await panel.runJob('tick');
      expect((await state()).ticks).toBe(1);
    } finally {
      await panel.close();
    }
  });

  it('close() removes the data directory', async () => {
    const panel = await startPluginPanel({ plugin: KIT_TIMER, now: new Date('2030-05-01T00:00:00Z') });
    expect((await panel.inject({ url: panel.url('/timer') })).json().now).toBe(Date.UTC(2030, 4, 1));
    expect(existsSync(panel.dataDir)).toBe(true);
    await panel.close();
    expect(existsSync(panel.dataDir)).toBe(false);
    await panel.close();
  });
});

describe('startPluginPanel: a plugin the panel refuses', () => {
  it('says why, and leaves no data directory behind', async () => {
    await expect(startPluginPanel({ plugin: fixture('fx-throws'), install: 'first-party' })).rejects.toThrow(
      'startPluginPanel: the panel refused plugin "fx-throws": its register() failed: fx-throws could not reach its licence server',
    );
    await expect(startPluginPanel({ plugin: fixture('fx-throws') })).rejects.toThrow(/plugin "fx-throws" could not be switched on: .*could not reach its licence server/);
    await expect(startPluginPanel({ plugin: fixture('fx-invalid') })).rejects.toThrow(/the panel refused plugin "fx-invalid": its plugin.json is invalid/);
    expect(leftovers('fx-throws')).toEqual([]);
    expect(leftovers('fx-invalid')).toEqual([]);
  });

  it('installs a required plugin that is not the panel’s own only when given alongside', async () => {
    await expect(startPluginPanel({ plugin: fixture('fx-dependent') })).rejects.toThrow(/refused plugin "fx-dependent": it requires plugin "fx-notes"/);
    const panel = await startPluginPanel({ plugin: fixture('fx-dependent'), alongside: [fixture('fx-notes')] });
    try {
      expect((await panel.inject({ url: panel.url('/fx-dependent/ping') })).json()).toEqual({ pong: true });
      expect((await panel.inject({ url: '/api/plugins/fx-notes/fx-notes/ping' })).statusCode).toBe(200);
    } finally {
      await panel.close();
    }
  });
});
