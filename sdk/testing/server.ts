/**
 * `@orepanel/sdk/testing/server` — test a plugin's server part in a real panel.
 *
 * `startPluginPanel` builds the panel on a fresh SQLite database in a temporary data directory, with
 * its core, the panel's own core plugins, the panel plugins yours `requires`, and your plugin —
 * installed the way the panel installs it (plugin.json validated, migrations run, settings declared,
 * register() then start() run as the panel runs them, every route behind the panel's guards and input
 * policy) and switched on. `signIn` gives you users of any role or permissions, `inject` sends
 * requests as them, and `clock` is the plugin's ctx.clock, moved by hand. Runs in vitest, the server
 * part straight from its TypeScript sources.
 *
 * @example
 * // my-plugin/tests/notes.test.ts
 * import { afterAll, beforeAll, expect, it } from 'vitest';
 * import { startPluginPanel, type PluginPanel } from '@orepanel/sdk/testing/server';
 *
 * let panel: PluginPanel;
 * beforeAll(async () => {
 *   panel = await startPluginPanel({ plugin: new URL('..', import.meta.url) });
 * });
 * afterAll(() => panel.close());
 *
 * it('keeps notes for signed-in users only', async () => {
 *   expect((await panel.inject({ method: 'POST', url: panel.url('/notes'), payload: { body: 'hi' } })).statusCode).toBe(401);
 *   const alice = await panel.signIn();
 *   const saved = await panel.inject({ method: 'POST', url: panel.url('/notes'), as: alice, payload: { body: 'hi' } });
 *   expect(saved.statusCode).toBe(201);
 * });
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp, servicesOf, type PanelServices } from '../../server/app';
import { MARKER_COOKIE, TOKEN_COOKIE } from '../../server/auth/cookies';
import { loadConfig } from '../../server/config';
import { findPackageRoot, panelPaths } from '../../server/paths';
import type { CoreDatabase } from '../server/database';
import type { SettingValue } from '../server/settings';
import { ManualClock } from './clock';
import { createTestRole, relaxRateLimits } from './panel-setup';

export { ManualClock } from './clock';

/** The roles every panel has from its first start (2 and up: 7 and 8 hold admin.root). */
export const TEST_ROLES = Object.freeze({ default: 1, vip: 2, admin: 7, administrator: 8 });

/** Where the manual clock starts unless told otherwise: 2025-01-01T00:00:00.000Z. */
export const DEFAULT_TEST_START = Date.UTC(2025, 0, 1);

/** The password of every user signIn() creates. */
export const TEST_PASSWORD = 'correct horse battery';

export interface PluginPanelOptions {
  /** your plugin's folder (the one holding plugin.json): a path, or a file URL such as `new URL('..', import.meta.url)` */
  plugin: string | URL;
  /**
   * How the panel gets it. 'third-party' (default): as an administrator installs it — in the data
   * directory, its routes under /api/plugins/<id>/, switched on as the plugins screen would.
   * 'first-party': as one of the panel's own plugins, its routes under /api.
   */
  install?: 'third-party' | 'first-party';
  /** plugin folders installed the same way before yours (one it `requires` that is not the panel's own) */
  alongside?: readonly (string | URL)[];
  /** the database: a fresh SQLite file in the temporary data directory */
  dialect?: 'sqlite';
  /** where ctx.clock starts (default DEFAULT_TEST_START); it moves only when the test moves it */
  now?: number | Date;
  /** settings written before your plugin starts: feature flags, your plugin's own settings */
  settings?: Readonly<Record<string, SettingValue>>;
  /** the panel's environment (APP_URL, SMTP…); DATA_DIR and DATABASE_URL are the kit's */
  env?: Readonly<Record<string, string>>;
  /** 'relaxed' (default) raises every rate limit far above what a test sends; 'defaults' keeps the panel's */
  rateLimits?: 'relaxed' | 'defaults';
}

/** Who signIn() makes: a role id (TEST_ROLES), or the exact permissions of a role made for the user. */
export type TestAccess = number | readonly string[];

/** A user with a live session, as after a login. */
export interface TestUser {
  readonly id: number;
  readonly uuid: string;
  readonly username: string;
  readonly email: string;
  readonly password: string;
  readonly roleId: number;
  /** the Cookie header a browser signed in as this user sends */
  readonly cookie: string;
}

/** A request to the panel; `as` sends it with that user's session cookie. */
export interface PanelRequest {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  url: string;
  query?: InjectOptions['query'];
  /** an object or array is sent as JSON */
  payload?: InjectOptions['payload'];
  headers?: InjectOptions['headers'];
  as?: TestUser | null;
}

/** What {@link startPluginPanel} returns. */
export interface PluginPanel {
  /** the panel (Fastify); `app.inject` reaches every route, the core's too */
  readonly app: FastifyInstance;
  /** your plugin's id */
  readonly pluginId: string;
  /** ctx.clock of every plugin in this panel */
  readonly clock: ManualClock;
  /** the panel's database, to arrange and check rows (`db.withTables<YourTables>()` for your own) */
  readonly db: Kysely<CoreDatabase>;
  /** the temporary data directory (removed by close()) */
  readonly dataDir: string;
  /** Where a route your plugin registered as `path` is served: /api/plugins/<id><path> or /api<path>. */
  url(path: string): string;
  /** A new user with a live session: of role 1 (Default) unless told otherwise. */
  signIn(access?: TestAccess): Promise<TestUser>;
  /** Sends a request through the whole pipeline (guards, input policy, error shape). */
  inject(request: PanelRequest): Promise<LightMyRequestResponse>;
  /** Writes a setting (core or plugin), as the settings screen would. */
  setSetting(key: string, value: SettingValue): Promise<void>;
  /** Runs one of your plugin's ctx.jobs now (`name` as your plugin gave it); jobs run only when asked. */
  runJob(name: string): Promise<void>;
  /** Switches your plugin on or off, as the plugins screen does (off: its routes answer 404). */
  setEnabled(enabled: boolean): Promise<void>;
  /** Closes the panel and removes the data directory. */
  close(): Promise<void>;
}

interface PluginFolder {
  id: string;
  dir: string;
  requires: string[];
  core: boolean;
}

function folderPath(location: string | URL): string {
  return resolve(location instanceof URL ? fileURLToPath(location) : location.startsWith('file:') ? fileURLToPath(location) : location);
}

/** The id, requirements and core flag of a plugin folder; the panel validates the rest. */
function readPluginFolder(dir: string): PluginFolder {
  const file = join(dir, 'plugin.json');
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`startPluginPanel: ${file} cannot be read: ${(error as Error).message}`);
  }
  const manifest = (typeof json === 'object' && json !== null ? json : {}) as { id?: unknown; requires?: unknown; core?: unknown };
  if (typeof manifest.id !== 'string') throw new Error(`startPluginPanel: ${file} has no id`);
  const requires = Array.isArray(manifest.requires) ? manifest.requires.filter((r): r is string => typeof r === 'string') : [];
  return { id: manifest.id, dir, requires, core: manifest.core === true };
}

/** The panel's own plugins a test panel needs: the core ones, and those `wanted` require, transitively. */
function panelPluginsFor(wanted: readonly PluginFolder[]): PluginFolder[] {
  const dir = join(findPackageRoot(), 'plugins');
  const all = new Map<string, PluginFolder>();
  for (const name of readdirSync(dir).sort()) {
    if (!existsSync(join(dir, name, 'plugin.json'))) continue;
    try {
      const folder = readPluginFolder(join(dir, name));
      all.set(folder.id, folder);
    } catch {
      // a broken panel plugin is the panel's problem; a test that needs it finds it refused
    }
  }
  const ownIds = new Set(wanted.map((w) => w.id));
  const chosen = new Map<string, PluginFolder>();
  const add = (id: string) => {
    const folder = all.get(id);
    if (!folder || chosen.has(id) || ownIds.has(id)) return;
    chosen.set(id, folder);
    folder.requires.forEach(add);
  };
  for (const folder of all.values()) if (folder.core) add(folder.id);
  for (const folder of wanted) folder.requires.forEach(add);
  return [...chosen.values()];
}

/**
 * Installs a plugin folder into the data directory as an administrator would (DATA_DIR/plugins/<id>/),
 * its server.js the TypeScript source of its server part, so a test runs what the author wrote.
 */
function installThirdParty(dataDir: string, folder: PluginFolder): void {
  const target = join(dataDir, 'plugins', folder.id);
  mkdirSync(target, { recursive: true });
  for (const file of ['plugin.json', 'custom.css', 'custom.js']) {
    if (existsSync(join(folder.dir, file))) copyFileSync(join(folder.dir, file), join(target, file));
  }
  // the mail templates the manifest declares are read from the installed folder, as the panel does
  if (existsSync(join(folder.dir, 'mail'))) cpSync(join(folder.dir, 'mail'), join(target, 'mail'), { recursive: true });
  const entry = ['index.ts', 'index.tsx', 'index.mts', 'index.js'].map((name) => join(folder.dir, 'server', name)).find((path) => existsSync(path));
  if (entry) writeFileSync(join(target, 'server.js'), `export { default } from ${JSON.stringify(entry)};\n`);
}

let users = 0;

/**
 * Starts a panel with your plugin installed and switched on.
 * @throws Error naming the reason when the panel refuses your plugin (an invalid plugin.json, a failed
 *   migration, a register() or start() that throws, a service asked for in register(), a requirement
 *   that is missing…)
 */
export async function startPluginPanel(options: PluginPanelOptions): Promise<PluginPanel> {
  if ((options.dialect ?? 'sqlite') !== 'sqlite') throw new Error(`startPluginPanel: dialect "${String(options.dialect)}" is not supported (sqlite)`);
  const install = options.install ?? 'third-party';
  const plugin = readPluginFolder(folderPath(options.plugin));
  const alongside = (options.alongside ?? []).map((location) => readPluginFolder(folderPath(location)));
  const ours = [...alongside, plugin];

  const dataDir = mkdtempSync(join(tmpdir(), `orepanel-plugin-${plugin.id}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  let app: FastifyInstance | null = null;
  try {
    // the panel's plugin folders are linked, not copied: their server parts load from the sources
    const bundled = join(dataDir, 'panel-plugins');
    mkdirSync(bundled);
    const linked = install === 'first-party' ? [...panelPluginsFor(ours), ...ours] : panelPluginsFor(ours);
    for (const folder of linked) symlinkSync(folder.dir, join(bundled, folder.id), 'dir');
    if (install === 'third-party') for (const folder of ours) installThirdParty(dataDir, folder);

    const clock = new ManualClock(options.now ?? DEFAULT_TEST_START);
    const config = loadConfig({ LOG_LEVEL: 'silent', ...options.env, DATA_DIR: dataDir, DATABASE_URL: '' });
    app = await buildApp({
      config,
      logger: false,
      // from the sources in the panel's checkout; from their builds in the @orepanel/sdk package
      builtPlugins: panelPaths().built,
      pluginDirs: [bundled],
      publicDir: join(dataDir, 'no-public'),
      buildManifest: join(dataDir, 'plugins.json'),
      jobs: false,
      clock,
    });
    const services = servicesOf(app);
    const refusal = (id: string) => services.plugins.refused.find((r) => r.id === id)?.reason;
    for (const folder of ours) {
      const reason = refusal(folder.id);
      if (reason) throw new Error(`startPluginPanel: the panel refused plugin "${folder.id}": ${reason}`);
    }
    if ((options.rateLimits ?? 'relaxed') === 'relaxed') await relaxRateLimits(services);
    for (const [key, value] of Object.entries(options.settings ?? {})) await services.settings.set(key, value);
    for (const folder of ours) {
      if (services.plugins.isEnabled(folder.id)) continue;
      try {
        await services.plugins.setEnabled(folder.id, true);
      } catch (error) {
        throw new Error(`startPluginPanel: plugin "${folder.id}" could not be switched on: ${(error as Error).message}`, { cause: error });
      }
    }
    return pluginPanel(app, services, plugin.id, install, clock, dataDir, removeDir);
  } catch (error) {
    await app?.close().catch(() => undefined);
    removeDir();
    throw error;
  }
}

function pluginPanel(
  app: FastifyInstance,
  services: PanelServices,
  pluginId: string,
  install: 'third-party' | 'first-party',
  clock: ManualClock,
  dataDir: string,
  removeDir: () => void,
): PluginPanel {
  const base = install === 'third-party' ? `/api/plugins/${pluginId}` : '/api';
  let closed = false;
  return {
    app,
    pluginId,
    clock,
    db: services.database.db,
    dataDir,
    url: (path) => `${base}${path.startsWith('/') ? path : `/${path}`}`,
    async signIn(access = TEST_ROLES.default) {
      const roleId = typeof access === 'number' ? access : await createTestRole(services, access);
      const tag = `${randomBytes(4).toString('hex')}${++users}`;
      const created = await services.auth.createUser({
        username: `tester_${tag}`,
        email: `tester_${tag}@example.com`,
        firstName: 'Test',
        lastName: 'User',
        password: TEST_PASSWORD,
        role: roleId,
      });
      const session = await services.sessions.create({ userId: created.id, ip: '127.0.0.1', userAgent: 'orepanel-test', twoFaPending: false });
      return Object.freeze({
        id: created.id,
        uuid: created.uuid,
        username: created.username,
        email: `tester_${tag}@example.com`,
        password: TEST_PASSWORD,
        roleId,
        cookie: `${TOKEN_COOKIE}=${session.token}; ${MARKER_COOKIE}=${session.publicId}`,
      });
    },
    inject({ as, headers, ...request }) {
      return app.inject({ ...request, headers: { ...(as ? { cookie: as.cookie } : {}), ...headers } });
    },
    setSetting: (key, value) => services.settings.set(key, value),
    runJob: (name) => services.scheduler.runNow(`${pluginId}.${name}`),
    setEnabled: (enabled) => services.plugins.setEnabled(pluginId, enabled),
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        removeDir();
      }
    },
  };
}
