// The server plugin host. prepare(): validate every discovered manifest, check its sdk range and
// requirements, import its server part, run its migrations and declare its settings and mail
// templates — refusing a plugin with a readable reason at any step while the rest go on. register():
// give each plugin an encapsulated Fastify scope under /api and run its register(), every plugin in
// `requires` order; then run every start(), in the same order (Kibana's setup/start: services are
// provided while registering and got from start on, so none is asked for before it is provided), and
// store the active plugins' missing mail templates (again when one is enabled later). Enabling or
// disabling a plugin takes effect at once: its routes answer 404 and its manifest is no longer
// served, with no restart.
//
// A third-party plugin (DATA_DIR/plugins/<id>/) is code the administrator has not reviewed: found
// for the first time it arrives disabled, and nothing of it runs — no import, no migration — until
// it is enabled. Then it starts with no restart. Fastify takes no routes once the app is ready, so a
// third-party plugin is served by a Fastify instance of its own, built when it starts by the app's
// own factory (the same options and request pipeline: guards, input policy, error shape); at start
// the app registers one dispatching scope under /api/plugins/:id that hands each request, before
// any of the app's route hooks touch it, to the router of that plugin's instance (fastify.routing).
//
// Third-party plugins are also installed, updated and removed while the panel runs (installPlugin,
// rescan, removePlugin): each version is checked from its folder before anything of it is used, an
// update starts the new server part on a new instance beside the running one and swaps them only
// once it started (a failure leaves the old one serving), and what a version registered in the core
// (handlers, jobs, services, badges, routes in the API document) is taken back when it goes.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Kysely, KyselyPlugin } from 'kysely';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, onRequestHookHandler, RouteOptions } from 'fastify';
import { sdkRangeProblem, orderByRequires } from '../../sdk/manifest';
import { httpError, isServerPlugin, SERVER_PLUGIN_API_VERSION, type ServerPlugin, type ServerPluginContext, type ServerPluginMigration } from '../../sdk/server';
import type { PluginManifest, ServedPluginManifest } from '../../sdk/types';
import { isUniqueViolation, type Database } from '../db/connect';
import { MigrationError, pluginMigrationTable, runMigrations } from '../db/migrate';
import type { DeclaredMailTemplate, MailTemplateCatalogue } from '../mail/template-catalogue';
import { CORE_TABLE_PREFIX, CORE_TABLES } from '../db/core-tables';
import type { RateLimitPolicies } from '../security/rate-limit-policies';
import type { SettingsStore } from '../settings/store';
import { sendNotFound } from '../http/errors';
import {
  builtFolderCandidate,
  discoverPlugins,
  thirdPartyCandidate,
  thirdPartyFolders,
  type BuildEntry,
  type DiscoverOptions,
  type PluginCandidate,
  type PluginOrigin,
} from './discover';
import { PluginRegistrations } from './context';
import {
  clearStaging,
  currentVersion,
  dropVersion,
  placeVersion,
  pruneVersions,
  removePluginFolder,
  stagingFolder,
  switchVersion,
  versionFolderName,
  VERSIONS_FOLDER,
} from './installed-versions';
import { PluginArchiveError, unpackPluginArchive, writeUnpacked } from './plugin-archive';
import { migrationGuard, tableDeclarationProblem, tableNamespaceRefusal } from './table-rules';
import type { ServiceRegistry } from './services';

export interface RouteRecord {
  method: string;
  url: string;
  auth: boolean;
  permission: string | null;
}

export interface LoadedPlugin {
  manifest: PluginManifest;
  origin: PluginOrigin;
  dir: string;
  server: ServerPlugin | null;
  build: BuildEntry | null;
  clientDir: string | null;
  css: string;
  js: string;
  routes: RouteRecord[];
}

export interface RefusedPlugin {
  id: string;
  origin: PluginOrigin;
  reason: string;
  manifest: PluginManifest | null;
}

/** A Fastify instance with the app's options and request pipeline, and no routes yet. */
export type InstanceFactory = () => Promise<FastifyInstance>;

export interface PluginHostOptions {
  /** the package root: sdk/manifest-validate.mjs is loaded from there in both layouts */
  root: string;
  discover: DiscoverOptions;
  database: Database;
  settings: SettingsStore;
  /** where a plugin's `rateLimitPolicies` are declared, before its routes (which name them) register */
  rateLimitPolicies: RateLimitPolicies;
  /** where a plugin's `mailTemplates` are declared; an active plugin's missing ones are stored */
  mailTemplates: MailTemplateCatalogue;
  log: FastifyBaseLogger;
  /**
   * builds the context handed to one plugin's register() and start() (the same object to both);
   * with `registrations`, what the plugin registers through it is recorded there to be taken back
   */
  context: (plugin: LoadedPlugin, registrations?: PluginRegistrations) => ServerPluginContext;
  /** the registry behind ctx.services: the host moves each plugin from its register phase to its start phase */
  services: ServiceRegistry;
  /** told after an administrator enabled or disabled a plugin */
  onStateChange?: (id: string, enabled: boolean) => void;
  /** an administrator enabled or disabled a plugin here (not a reload): the other instances must follow */
  onEnabledChanged?: (id: string, enabled: boolean) => Promise<void>;
  /** told of each route a plugin adds (the route registry names its owner: the API document lists it under the plugin) */
  onPluginRoute?: (id: string, route: RouteOptions) => void;
  /** told when a third-party version's routes are gone (removed, or replaced by its update) */
  onPluginRoutesGone?: (routes: readonly RouteOptions[]) => void;
  /** a plugin was installed, updated or removed here: the other instances must follow (they read the same DATA_DIR) */
  onInstalledChanged?: () => Promise<void>;
}

type ManifestValidator = typeof import('../../sdk/manifest-validate.mjs')['validateManifest'];

/** A found plugin whose folder passed checkCandidate, not yet admitted. */
type CheckedPlugin = LoadedPlugin & { id: string; requires: string[]; serverModule: string | null; installedVersion: string | null };

/** One running version of a third-party server part. */
interface Generation {
  instance: FastifyInstance;
  server: ServerPlugin;
  registrations: PluginRegistrations;
  /** the routes it added (taken out of the API document when it goes) */
  routes: RouteOptions[];
}

/** What installPlugin did. */
export interface InstalledPlugin {
  id: string;
  version: string;
  /** a new plugin (arrives disabled), or a new version of an installed one */
  action: 'installed' | 'updated';
  previousVersion: string | null;
}

/** What removePlugin did. */
export interface RemovedPlugin {
  id: string;
  droppedTables: string[];
}

function prefixFor(plugin: LoadedPlugin): string {
  return plugin.origin === 'third-party' ? `/api/plugins/${plugin.manifest.id}` : '/api';
}

/** Why a plugin may not own `url`, or null when it may. */
export function routeProblem(plugin: { id: string; origin: PluginOrigin }, url: string): string | null {
  if (plugin.origin === 'third-party') {
    const own = `/api/plugins/${plugin.id}`;
    return url === own || url.startsWith(`${own}/`) ? null : `a third-party plugin may only add routes under ${own}/ (tried ${url})`;
  }
  if (!url.startsWith('/api/')) return `plugin routes must live under /api/ (tried ${url})`;
  if (url.startsWith('/api/system/') || url === '/api/user/session' || url.startsWith('/api/plugins/')) {
    return `${url} is reserved for the core`;
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function migrationProblem(error: unknown): string {
  if (error instanceof MigrationError) return `its database migration ${error.migration ?? '(setup)'} failed: ${describe(error.cause)}`;
  return `its database migration failed: ${describe(error)}`;
}

/** The methods a third-party plugin's dispatching scope takes (Fastify adds HEAD to GET). */
const DISPATCHED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Imports a plugin's server part and checks it is one; a readable reason when it is not. */
async function importServerPart(id: string, module: string): Promise<ServerPlugin | string> {
  let exported: unknown;
  try {
    exported = ((await import(pathToFileURL(module).href)) as { default?: unknown }).default;
  } catch (error) {
    return `its server part failed to load: ${describe(error)}`;
  }
  if (!isServerPlugin(exported)) return 'its server part does not default-export defineServerPlugin({ … }) from @orepanel/sdk/server';
  if (exported.apiVersion !== SERVER_PLUGIN_API_VERSION) {
    return `its server part was built for plugin API v${String(exported.apiVersion)}, this panel provides v${SERVER_PLUGIN_API_VERSION}`;
  }
  if (exported.id !== id) return `its server part says id "${exported.id}" but plugin.json says "${id}"`;
  return exported;
}

/** Why a third-party plugin's last start failed (what it had registered was taken back: enabling it again retries). */
interface StartFailure {
  reason: string;
}

/** A plugin whose register() has run: what start() is handed. */
interface Registered {
  server: ServerPlugin;
  ctx: ServerPluginContext;
  /** what its register() returned */
  value: unknown;
}

export class PluginHost {
  private readonly loaded = new Map<string, LoadedPlugin>();
  /** load order: every plugin after the ones it requires */
  private order: string[] = [];
  readonly refused: RefusedPlugin[] = [];
  private enabled = new Set<string>();
  /** enabled plugins whose requirements are all active: the set routes and manifests follow */
  private active = new Set<string>();
  private servedCache: string | null = null;
  /** plugins whose server part has been imported and migrated (or that have none) */
  private readonly started = new Set<string>();
  /** third-party plugins not started yet: id → their server.js */
  private readonly pending = new Map<string, string>();
  private readonly failures = new Map<string, StartFailure>();
  private readonly starting = new Map<string, Promise<string | null>>();
  /** third-party plugins' running server parts, each on its own Fastify instance */
  private readonly mounted = new Map<string, Generation>();
  private newInstance: InstanceFactory | null = null;
  private validator: ManifestValidator | null = null;
  /** third-party: the version folder in use (installed-versions.ts), null for a plain folder */
  private readonly versionOf = new Map<string, string | null>();
  /** third-party: the client folder of the version before the last update (pages opened earlier still load from it) */
  private readonly previousClientDir = new Map<string, string>();
  /** installs, updates and removals one at a time: they change the same maps and folders */
  private changing: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PluginHostOptions) {}

  private refuse(id: string, origin: PluginOrigin, reason: string, manifest: PluginManifest | null): void {
    this.refused.push({ id, origin, reason, manifest });
    this.options.log.warn({ plugin: id, origin }, `plugin "${id}" refused: ${reason}`);
  }

  /** The manifest validator. It reads sdk/manifest.schema.json beside itself, so it is loaded from the package's sdk/ folder at run time rather than bundled into dist/server (where the schema is not). */
  private async manifestValidator(): Promise<ManifestValidator> {
    this.validator ??= (
      (await import(pathToFileURL(join(this.options.root, 'sdk', 'manifest-validate.mjs')).href)) as typeof import('../../sdk/manifest-validate.mjs')
    ).validateManifest;
    return this.validator;
  }

  /**
   * What can be told of a found plugin from its folder alone, without running any of it: a valid
   * manifest named like its folder, an sdk range this panel provides, no core powers claimed by a
   * third party, its server part present when it declares one. The plugin, or why not.
   */
  private checkCandidate(candidate: PluginCandidate, validateManifest: ManifestValidator): CheckedPlugin | { reason: string; manifest: PluginManifest | null } {
    if (candidate.problem) return { reason: candidate.problem, manifest: null };
    const checked = validateManifest(candidate.manifestJson);
    if (!checked.ok) return { reason: `its plugin.json is invalid: ${checked.errors.join('; ')}`, manifest: null };
    const manifest = checked.manifest;
    delete (manifest as { $schema?: string }).$schema;
    if (manifest.id !== candidate.folder) return { reason: `its plugin.json says id "${manifest.id}" but it lives in folder "${candidate.folder}"`, manifest };
    const rangeProblem = sdkRangeProblem(manifest.sdk);
    if (rangeProblem) return { reason: rangeProblem, manifest };
    // a core plugin is always on: a folder dropped in DATA_DIR/plugins must not be able to say so
    if (candidate.origin === 'third-party' && manifest.core === true) return { reason: 'a third-party plugin cannot be part of the core', manifest };
    // a privilege is a power of the core (ctx.panelBackup): only code shipped with the panel holds one
    if (candidate.origin === 'third-party' && (manifest.privileges ?? []).length > 0) {
      return { reason: `a third-party plugin cannot hold the privilege "${manifest.privileges![0]}"`, manifest };
    }
    if (manifest.server && !candidate.serverModule) {
      const where = candidate.origin === 'third-party' ? 'server.js' : 'its built server part (run npm run build)';
      return { reason: `it declares a server part but ${where} is missing`, manifest };
    }
    return {
      id: manifest.id,
      requires: manifest.requires ?? [],
      manifest,
      origin: candidate.origin,
      dir: candidate.dir,
      server: null,
      build: candidate.build,
      clientDir: candidate.clientDir,
      css: candidate.css,
      js: candidate.js,
      routes: [],
      serverModule: manifest.server ? candidate.serverModule : null,
      installedVersion: candidate.installedVersion,
    };
  }

  /** Everything up to route registration. Used by the server and by `orepanel migrate`. */
  async prepare(): Promise<void> {
    const { database, settings } = this.options;
    const validateManifest = await this.manifestValidator();
    const valid: CheckedPlugin[] = [];
    const seen = new Set<string>();
    for (const candidate of discoverPlugins(this.options.discover)) {
      const id = candidate.folder;
      const checked = this.checkCandidate(candidate, validateManifest);
      if (!('id' in checked)) {
        this.refuse(id, candidate.origin, checked.reason, checked.manifest);
        continue;
      }
      if (seen.has(checked.id)) {
        this.refuse(id, candidate.origin, `a plugin with id "${checked.id}" is already installed`, checked.manifest);
        continue;
      }
      seen.add(checked.id);
      valid.push(checked);
    }

    const { ordered, refused } = orderByRequires(valid);
    for (const r of refused) this.refuse(r.item.id, r.item.origin, r.reason, r.item.manifest);

    for (const item of ordered) {
      const missing = item.requires.find((dep) => !this.loaded.has(dep));
      if (missing) {
        this.refuse(item.id, item.origin, `it requires plugin "${missing}", which could not be loaded`, item.manifest);
        continue;
      }
      // a third-party server part is imported only once an administrator enables the plugin (start)
      if (item.serverModule && item.origin === 'bundled') {
        const server = await importServerPart(item.id, item.serverModule);
        if (typeof server === 'string') {
          this.refuse(item.id, item.origin, server, item.manifest);
          continue;
        }
        item.server = server;
      }
      const settingsProblem = settings.declarationProblem(item.id, item.manifest.settings ?? []);
      if (settingsProblem) {
        this.refuse(item.id, item.origin, settingsProblem, item.manifest);
        continue;
      }
      const tablesProblem = tableDeclarationProblem(item.manifest, this.loaded);
      if (tablesProblem) {
        this.refuse(item.id, item.origin, tablesProblem, item.manifest);
        continue;
      }
      // read, not stored: a template is stored once its plugin is active (seedMailTemplates)
      const mailTemplates = this.options.mailTemplates.read(item.id, item.dir, item.manifest.mailTemplates ?? []);
      if (typeof mailTemplates === 'string') {
        this.refuse(item.id, item.origin, mailTemplates, item.manifest);
        continue;
      }
      if (item.server?.migrations) {
        try {
          await runMigrations(database.db as unknown as Kysely<unknown>, database.dialect, pluginMigrationTable(item.id), item.server.migrations, migrationGuard(item));
        } catch (error) {
          this.refuse(item.id, item.origin, migrationProblem(error), item.manifest);
          continue;
        }
      }
      const policiesProblem = item.server ? this.rateLimitPolicyProblem(item.id, item.server, item.manifest) : null;
      if (policiesProblem) {
        this.refuse(item.id, item.origin, policiesProblem, item.manifest);
        continue;
      }
      settings.declare(item.id, item.manifest.settings ?? []);
      this.options.mailTemplates.declare(item.id, mailTemplates);
      if (item.server) this.options.rateLimitPolicies.declare(item.id, item.server.rateLimitPolicies ?? {});
      const { id: _id, requires: _requires, serverModule: _module, installedVersion: _version, ...plugin } = item;
      this.loaded.set(item.id, plugin);
      this.order.push(item.id);
      if (item.origin === 'third-party') this.versionOf.set(item.id, item.installedVersion);
      if (item.serverModule && item.origin === 'third-party') this.pending.set(item.id, item.serverModule);
      else this.started.add(item.id);
    }
  }

  /** Reads plugin_states, adding a row for each plugin seen for the first time. */
  async syncStates(): Promise<void> {
    const { db } = this.options.database;
    const rows = await db.selectFrom('plugin_states').selectAll().execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const now = new Date().toISOString();
    const enabled = new Set<string>();
    for (const id of this.order) {
      const plugin = this.loaded.get(id)!;
      const row = byId.get(id);
      if (!row) {
        // a third-party plugin runs only once an administrator has chosen to enable it
        const on = plugin.origin === 'bundled' && plugin.manifest.enabledByDefault !== false;
        try {
          await db
            .insertInto('plugin_states')
            .values({ id, enabled: on ? 1 : 0, installed_version: plugin.manifest.version, updated_at: now })
            .execute();
          if (on) enabled.add(id);
        } catch (error) {
          // another instance inserted the row first: its value stands
          if (!isUniqueViolation(error)) throw error;
          const other = await db.selectFrom('plugin_states').select('enabled').where('id', '=', id).executeTakeFirst();
          if (other?.enabled) enabled.add(id);
        }
      } else {
        if (row.installed_version !== plugin.manifest.version) {
          await db.updateTable('plugin_states').set({ installed_version: plugin.manifest.version, updated_at: now }).where('id', '=', id).execute();
        }
        if (row.enabled) enabled.add(id);
      }
      // core plugins cannot be disabled: the panel cannot work without them
      if (plugin.manifest.core) enabled.add(id);
    }
    this.enabled = enabled;
    this.recomputeActive();
  }

  private recomputeActive(): void {
    const active = new Set<string>();
    for (const id of this.order) {
      const plugin = this.loaded.get(id)!;
      if (this.enabled.has(id) && this.started.has(id) && (plugin.manifest.requires ?? []).every((dep) => active.has(dep))) active.add(id);
    }
    this.active = active;
    this.servedCache = null;
  }

  /**
   * Registers every first-party server part in its own scope (a throwing register is refused), a
   * dispatching scope for every third-party plugin with a server part; then starts every registered
   * first-party plugin (a throwing start is refused too), and the third-party plugins that are
   * enabled. `newInstance` builds the instance a third-party plugin is served by.
   *
   * Every bundled plugin registers and starts here, enabled or not, as it always registered: a
   * disabled plugin's routes answer 404 and its jobs and listeners stay silent until it is enabled,
   * which then needs no restart.
   */
  async register(app: FastifyInstance, newInstance: InstanceFactory): Promise<void> {
    this.newInstance = newInstance;
    const registered = new Map<string, Registered>();
    // every third-party plugin, found now or installed later, is reached through this one scope
    await this.registerDispatcher(app);
    for (const id of [...this.order]) {
      // unloaded earlier in this loop with a requirement that failed
      const plugin = this.loaded.get(id);
      if (!plugin || plugin.origin === 'third-party') continue;
      if (!plugin.server) continue;
      const server = plugin.server;
      const ctx = this.options.context(plugin);
      let failure: unknown = null;
      await app.register(
        async (scope) => {
          this.guardRoutes(scope, plugin, this.gateFor(id));
          try {
            registered.set(id, { server, ctx, value: await server.register(scope, ctx) });
          } catch (error) {
            failure = error;
          }
        },
        { prefix: prefixFor(plugin) },
      );
      if (failure) this.unload(id, `its register() failed: ${describe(failure)}`);
    }
    // every register() has run: now the starts, requirements first (the order is `requires` order)
    for (const id of [...this.order]) {
      const plugin = registered.get(id);
      // unloaded since (its own register or a requirement's failed) or a dispatcher (starts later)
      if (!plugin || !this.loaded.has(id)) continue;
      try {
        await this.startPhase(id, plugin);
      } catch (error) {
        this.unload(id, `its start() failed: ${describe(error)}`);
      }
    }
    app.addHook('onClose', async () => {
      await Promise.all([...this.mounted.values()].map((generation) => generation.instance.close()));
    });
    await this.startWaiting();
    await this.seedMailTemplates();
  }

  /**
   * Stores the active plugins' declared mail templates that are missing (at start-up and when one is
   * enabled): a template an administrator edited is left as it is.
   */
  private async seedMailTemplates(): Promise<void> {
    await this.options.mailTemplates.seed(this.active);
  }

  /** Moves a registered plugin to its start phase (services: get, no longer provide) and runs its start(). */
  private async startPhase(id: string, { server, ctx, value }: Registered): Promise<void> {
    this.options.services.startPhase(id);
    await server.start?.(ctx, value);
  }

  /** Keeps a plugin's routes inside what it may own, puts `gate` first on each, and lists them (also in `added`). */
  private guardRoutes(scope: FastifyInstance, plugin: LoadedPlugin, gate: onRequestHookHandler | null, added?: RouteOptions[]): void {
    const id = plugin.manifest.id;
    scope.addHook('onRoute', (route: RouteOptions) => {
      added?.push(route);
      const problem = routeProblem({ id, origin: plugin.origin }, route.url);
      if (problem) throw new Error(problem);
      if (gate) {
        const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
        route.onRequest = [gate, ...own];
      }
      if (route.method !== 'HEAD') {
        for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
          plugin.routes.push({ method, url: route.url, auth: route.config?.auth === true, permission: route.config?.permission ?? null });
        }
      }
      this.options.onPluginRoute?.(id, route);
    });
  }

  /**
   * /api/plugins/<id>/…: each request goes to the plugin's own instance while it is active, else 404.
   * The hand-over is a scope hook, so it runs before the route-level hooks the app's onRoute gives
   * the placeholder routes: the request meets the rate limit, origin check, guards and input policy
   * once, in the plugin's instance, with its body still unread. One scope for every id: Fastify takes
   * no routes once listening, and a plugin installed later is reached the same way.
   */
  private async registerDispatcher(app: FastifyInstance): Promise<void> {
    await app.register(
      async (scope) => {
        // answers here and never calls done: the app's own lifecycle for the request ends at this hook
        scope.addHook('onRequest', (request, reply, _done) => {
          const id = /^\/api\/plugins\/([a-z][a-z0-9-]{1,39})(?:[/?]|$)/.exec(request.url)?.[1];
          const generation = id ? this.mounted.get(id) : undefined;
          if (!id || !generation || !this.active.has(id)) {
            sendNotFound(reply);
            return;
          }
          reply.hijack();
          generation.instance.routing(request.raw, reply.raw);
        });
        const placeholder = (_request: unknown, reply: FastifyReply) => sendNotFound(reply);
        scope.route({ method: DISPATCHED_METHODS, url: '/:id', handler: placeholder });
        scope.route({ method: DISPATCHED_METHODS, url: '/:id/*', handler: placeholder });
      },
      { prefix: '/api/plugins' },
    );
  }

  /**
   * Imports a third-party plugin's server part, runs its migrations and builds its instance. The
   * reason it failed, or null; a failure is remembered (the plugins page shows it) and logged.
   */
  private ensureStarted(id: string): Promise<string | null> {
    if (this.started.has(id)) return Promise.resolve(null);
    let run = this.starting.get(id);
    if (!run) {
      // two administrators enabling it at once share one start
      run = this.start(id).finally(() => this.starting.delete(id));
      this.starting.set(id, run);
    }
    return run;
  }

  private rateLimitPolicyProblem(id: string, server: ServerPlugin, manifest: PluginManifest): string | null {
    const numberSettings = new Set((manifest.settings ?? []).filter((s) => s.type === 'number').map((s) => s.key));
    return this.options.rateLimitPolicies.problem(id, server.rateLimitPolicies ?? {}, numberSettings);
  }

  private async start(id: string): Promise<string | null> {
    const plugin = this.loaded.get(id)!;
    const launched = await this.launch(plugin, this.pending.get(id)!);
    if ('reason' in launched) {
      this.failures.set(id, { reason: launched.reason });
      this.options.log.error({ plugin: id, origin: plugin.origin }, `plugin "${id}" could not be started: ${launched.reason}`);
      return launched.reason;
    }
    plugin.server = launched.server;
    this.mounted.set(id, launched);
    this.pending.delete(id);
    this.started.add(id);
    this.failures.delete(id);
    return null;
  }

  /**
   * Imports a third-party server part, runs its migrations, and registers and starts it on an
   * instance of its own. When it fails, what it registered is taken back and its instance closed.
   */
  private async launch(plugin: LoadedPlugin, module: string): Promise<Generation | { reason: string }> {
    const id = plugin.manifest.id;
    const newInstance = this.newInstance;
    if (!newInstance) throw new Error('the plugin host starts third-party plugins only after register()');
    const server = await importServerPart(id, module);
    if (typeof server === 'string') return { reason: server };
    const policiesProblem = this.rateLimitPolicyProblem(id, server, plugin.manifest);
    if (policiesProblem) return { reason: policiesProblem };
    if (server.migrations) {
      const { database } = this.options;
      try {
        await runMigrations(database.db as unknown as Kysely<unknown>, database.dialect, pluginMigrationTable(id), server.migrations, migrationGuard(plugin));
      } catch (error) {
        return { reason: migrationProblem(error) };
      }
    }
    this.options.rateLimitPolicies.declare(id, server.rateLimitPolicies ?? {});
    const registrations = new PluginRegistrations();
    const routes: RouteOptions[] = [];
    let instance: FastifyInstance | null = null;
    const ctx = this.options.context(plugin, registrations);
    let value: unknown;
    let phase: 'register' | 'start' = 'register';
    try {
      instance = await newInstance();
      await instance.register(
        async (scope) => {
          // no gate: the dispatching scope lets requests through only while the plugin is active
          this.guardRoutes(scope, plugin, null, routes);
          value = await server.register(scope, ctx);
        },
        { prefix: prefixFor(plugin) },
      );
      await instance.ready();
      // the plugins it requires started before it (startWaiting, setEnabled): their services are there
      phase = 'start';
      await this.startPhase(id, { server, ctx, value });
    } catch (error) {
      await this.retire({ instance, registrations, routes });
      return { reason: `its ${phase}() failed: ${describe(error)}` };
    }
    return { instance, server, registrations, routes };
  }

  /** Takes back everything one running version registered, and closes its instance. */
  private async retire(generation: { instance: FastifyInstance | null; registrations: PluginRegistrations; routes: RouteOptions[] }): Promise<void> {
    await generation.registrations.retire();
    if (generation.routes.length > 0) this.options.onPluginRoutesGone?.(generation.routes);
    await generation.instance?.close().catch(() => undefined);
  }

  /**
   * Starts the enabled third-party plugins whose requirements have started (at start-up, and after
   * one is enabled: those that were waiting for it). With `switchOff`, one that fails is switched off
   * for every instance; without (following a change another instance made, or a restore), it stays
   * on in the database and is just not active here, its failure listed — one instance's trouble
   * (a slow disk, a race with that instance's own change) must not switch a plugin off for all.
   */
  private async startWaiting(switchOff = true): Promise<void> {
    for (const id of [...this.order]) {
      if (this.started.has(id) || !this.enabled.has(id)) continue;
      if (!(this.loaded.get(id)!.manifest.requires ?? []).every((dep) => this.started.has(dep))) continue;
      if ((await this.ensureStarted(id)) === null || !switchOff) continue;
      this.enabled.delete(id);
      await this.writeState(id, false);
    }
    this.recomputeActive();
  }

  private async writeState(id: string, enabled: boolean): Promise<void> {
    await this.options.database.db
      .updateTable('plugin_states')
      .set({ enabled: enabled ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  /**
   * Every loaded plugin's migrations, in load order, disabled plugins included (a restore recreates
   * their tables too). A third-party plugin that has not started is imported for them only when
   * `tables` names its migration table (an archive holds its tables): nothing of it runs otherwise.
   */
  async migrationSets(tables: ReadonlySet<string>): Promise<{ owner: string; table: string; migrations: Readonly<Record<string, ServerPluginMigration>>; guard: KyselyPlugin }[]> {
    const out: { owner: string; table: string; migrations: Readonly<Record<string, ServerPluginMigration>>; guard: KyselyPlugin }[] = [];
    for (const id of this.order) {
      const plugin = this.loaded.get(id)!;
      const table = pluginMigrationTable(id);
      let server = plugin.server;
      const module = this.pending.get(id);
      if (!server && module && tables.has(table)) {
        const imported = await importServerPart(id, module);
        if (typeof imported === 'string') throw new Error(`plugin "${id}": ${imported}`);
        server = imported;
      }
      if (server?.migrations) out.push({ owner: id, table, migrations: server.migrations, guard: migrationGuard(plugin) });
    }
    return out;
  }

  /**
   * After a restore replaced the database: reads the enabled states again (adding rows for plugins
   * the archive did not know), starts the third-party plugins now enabled, stores missing mail
   * templates, and tells of every plugin whose state changed.
   */
  async reload(): Promise<void> {
    await this.serial(() => this.followDisk());
    const before = new Set(this.enabled);
    await this.syncStates();
    await this.startWaiting(false);
    await this.seedMailTemplates();
    for (const id of this.order) {
      const now = this.enabled.has(id);
      if (now !== before.has(id)) this.options.onStateChange?.(id, now);
    }
  }

  // --- installing, updating and removing third-party plugins while the panel runs -------------

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.changing.then(work, work);
    this.changing = run.catch(() => undefined);
    return run;
  }

  private get thirdPartyDir(): string {
    return this.options.discover.thirdPartyDir;
  }

  /** The checked plugin a third-party folder holds, or why it cannot be taken. */
  private async checkFolder(dir: string, id: string, installedVersion: string | null): Promise<CheckedPlugin | { reason: string; manifest: PluginManifest | null }> {
    const checked = this.checkCandidate({ ...builtFolderCandidate(dir, id), installedVersion }, await this.manifestValidator());
    return checked;
  }

  /** Why a checked third-party plugin cannot join the loaded ones (as new, or as `id`'s next version), or its mail templates. */
  private admission(item: CheckedPlugin): DeclaredMailTemplate[] | string {
    const missing = item.requires.find((dep) => dep === item.id || !this.loaded.has(dep));
    if (missing) return `it requires plugin "${missing}", which is not installed`;
    const settingsProblem = this.options.settings.declarationProblem(item.id, item.manifest.settings ?? []);
    if (settingsProblem) return settingsProblem;
    const tablesProblem = tableDeclarationProblem(item.manifest, this.loaded) ?? tableNamespaceRefusal(item);
    if (tablesProblem) return tablesProblem;
    return this.options.mailTemplates.read(item.id, item.dir, item.manifest.mailTemplates ?? []);
  }

  private forgetRefusal(id: string): void {
    for (let i = this.refused.length - 1; i >= 0; i--) if (this.refused[i].id === id && this.refused[i].origin === 'third-party') this.refused.splice(i, 1);
  }

  /** Adds a checked third-party plugin, disabled unless its stored state says otherwise; none of its code runs. */
  private async admit(item: CheckedPlugin, mail: DeclaredMailTemplate[]): Promise<void> {
    this.options.settings.declare(item.id, item.manifest.settings ?? []);
    this.options.mailTemplates.declare(item.id, mail);
    const { id, requires: _requires, serverModule, installedVersion, ...plugin } = item;
    this.forgetRefusal(id);
    this.loaded.set(id, plugin);
    this.order.push(id);
    this.versionOf.set(id, installedVersion);
    if (serverModule) this.pending.set(id, serverModule);
    else this.started.add(id);
    await this.syncStates();
    await this.startWaiting(false);
  }

  /**
   * Installs an uploaded archive (plugin-archive.ts): a new plugin arrives disabled; an installed
   * one gets the new version, swapped in only once it started. Refused with nothing written when
   * the archive or its plugin.json is bad; refused with the old version in place when the new one
   * cannot be checked, migrated or started.
   */
  async installPlugin(archive: Buffer): Promise<InstalledPlugin> {
    let unpacked: ReturnType<typeof unpackPluginArchive>;
    try {
      unpacked = unpackPluginArchive(archive);
    } catch (error) {
      if (error instanceof PluginArchiveError) throw httpError(400, 'PLUGIN_ARCHIVE_REFUSED', error.message);
      throw error;
    }
    let manifestJson: unknown;
    try {
      manifestJson = JSON.parse(unpacked.files.get('plugin.json')!.toString('utf8'));
    } catch {
      throw httpError(400, 'PLUGIN_MANIFEST_INVALID', "The plugin's plugin.json is not valid JSON.");
    }
    const checked = (await this.manifestValidator())(manifestJson);
    if (!checked.ok) throw httpError(400, 'PLUGIN_MANIFEST_INVALID', `The plugin's plugin.json is invalid: ${checked.errors.join('; ')}.`);
    const { id } = checked.manifest;
    return this.serial(async () => {
      if (this.loaded.get(id)?.origin === 'bundled' || this.refused.some((r) => r.id === id && r.origin === 'bundled')) {
        throw httpError(409, 'PLUGIN_BUILT_IN', `"${id}" is the id of a plugin that ships with the panel; it cannot be installed over it.`);
      }
      const name = versionFolderName(checked.manifest.version, unpacked.sha256);
      if (this.loaded.has(id) && this.versionOf.get(id) === name) {
        throw httpError(409, 'PLUGIN_SAME_VERSION', `This build of plugin "${id}" ${checked.manifest.version} is already installed.`);
      }
      const staged = stagingFolder(this.thirdPartyDir);
      let placed = false;
      try {
        writeUnpacked(staged, unpacked.files);
        const item = await this.checkFolder(staged, id, name);
        if (!('id' in item)) throw httpError(422, 'PLUGIN_INVALID', `Plugin "${id}" cannot be installed: ${item.reason}.`);
        const mail = this.admission(item);
        if (typeof mail === 'string') throw httpError(422, 'PLUGIN_INVALID', `Plugin "${id}" cannot be installed: ${mail}.`);
        const dir = placeVersion(this.thirdPartyDir, id, staged, name);
        placed = true;
        const final = (await this.checkFolder(dir, id, name)) as CheckedPlugin;
        const existing = this.loaded.get(id);
        const previousVersion = existing?.manifest.version ?? null;
        if (existing) {
          const reason = await this.applyUpdate(existing, final, mail);
          if (reason !== null) throw httpError(422, 'PLUGIN_UPDATE_FAILED', `Plugin "${id}" was not updated (${existing.manifest.version} stays in use): ${reason}.`);
        } else {
          switchVersion(this.thirdPartyDir, id, name);
          await this.admit(final, mail);
        }
        placed = false;
        this.options.log.info({ plugin: id }, `plugin "${id}" ${final.manifest.version} ${existing ? 'updated' : 'installed'}`);
        await this.options.onInstalledChanged?.();
        return { id, version: final.manifest.version, action: existing ? 'updated' : 'installed', previousVersion };
      } finally {
        clearStaging(staged);
        // refused after it was placed: the version folder goes, the one in use stays
        if (placed) dropVersion(this.thirdPartyDir, id, name);
      }
    });
  }

  /**
   * Makes `item` (placed in its version folder) the plugin's version in use. A plugin that runs
   * starts the new server part beside the old one, which keeps serving until the new one started.
   * The reason it failed (nothing swapped), or null.
   */
  private async applyUpdate(existing: LoadedPlugin, item: CheckedPlugin, mail: DeclaredMailTemplate[], fromDisk = false): Promise<string | null> {
    const id = item.id;
    const { id: _id, requires: _requires, serverModule, installedVersion, ...next } = item;
    const running = this.mounted.get(id);
    let launched: Generation | null = null;
    if (serverModule && this.enabled.has(id)) {
      // what the old version provides, and its jobs and badges, are handed over to the new one's
      // register(); back to the old one if the new one fails
      const taken = this.options.services.withdraw(id, running?.registrations.provided ?? []);
      await running?.registrations.suspend();
      const outcome = await this.launch(next, serverModule);
      if ('reason' in outcome) {
        if (running) {
          running.registrations.resume();
          this.options.services.restore(id, taken);
          this.options.rateLimitPolicies.forget(id);
          this.options.rateLimitPolicies.declare(id, running.server.rateLimitPolicies ?? {});
        }
        return outcome.reason;
      }
      launched = outcome;
      next.server = outcome.server;
    }
    // the swap: from here on every request, manifest and page load is the new version's
    const previousFolder = this.versionOf.get(id) ?? null;
    if (!fromDisk && installedVersion) switchVersion(this.thirdPartyDir, id, installedVersion);
    this.loaded.set(id, next);
    this.versionOf.set(id, installedVersion);
    if (existing.clientDir && existing.clientDir !== next.clientDir) this.previousClientDir.set(id, existing.clientDir);
    this.options.settings.forget(id);
    this.options.settings.declare(id, item.manifest.settings ?? []);
    this.options.mailTemplates.forget(id);
    this.options.mailTemplates.declare(id, mail);
    this.failures.delete(id);
    if (launched) {
      this.mounted.set(id, launched);
      this.pending.delete(id);
      this.started.add(id);
    } else {
      this.mounted.delete(id);
      if (serverModule) {
        this.pending.set(id, serverModule);
        this.started.delete(id);
      } else {
        this.pending.delete(id);
        this.started.add(id);
      }
    }
    // a new requirement listed after it: it moves behind it
    const at = this.order.indexOf(id);
    if (item.requires.some((dep) => this.order.indexOf(dep) > at)) this.order = [...this.order.filter((other) => other !== id), id];
    this.recomputeActive();
    if (running) await this.retire(running);
    if (!fromDisk) {
      pruneVersions(this.thirdPartyDir, id, previousFolder);
      await this.options.database.db
        .updateTable('plugin_states')
        .set({ installed_version: item.manifest.version, updated_at: new Date().toISOString() })
        .where('id', '=', id)
        .execute();
    }
    this.options.onStateChange?.(id, this.enabled.has(id));
    await this.seedMailTemplates();
    return null;
  }

  /**
   * Finds the plugin folders that appeared in DATA_DIR/plugins since start (or since the last
   * rescan) and adds them, disabled; a folder that cannot be taken is listed as refused, with why.
   */
  rescan(): Promise<{ added: string[]; refused: RefusedPlugin[] }> {
    return this.serial(async () => {
      const added: string[] = [];
      const refused: RefusedPlugin[] = [];
      for (const folder of thirdPartyFolders(this.thirdPartyDir)) {
        if (this.loaded.has(folder) || this.refused.some((r) => r.id === folder && r.origin === 'bundled')) continue;
        this.forgetRefusal(folder);
        const candidate = thirdPartyCandidate(this.thirdPartyDir, folder);
        const item = this.checkCandidate(candidate, await this.manifestValidator());
        const mail = 'id' in item ? this.admission(item) : item.reason;
        if (!('id' in item) || typeof mail === 'string') {
          const manifest = 'id' in item ? item.manifest : item.manifest;
          this.refuse(folder, 'third-party', typeof mail === 'string' ? mail : 'its folder cannot be read', manifest);
          refused.push(this.refused[this.refused.length - 1]);
          continue;
        }
        await this.admit(item, mail);
        added.push(folder);
      }
      if (added.length > 0) await this.options.onInstalledChanged?.();
      return { added, refused };
    });
  }

  /**
   * Another instance installed, updated or removed a plugin (they share DATA_DIR): follows what
   * the folders say now, without touching the database (that instance did).
   */
  private async followDisk(): Promise<void> {
    const folders = new Set(thirdPartyFolders(this.thirdPartyDir));
    for (const plugin of this.list()) {
      const id = plugin.manifest.id;
      if (plugin.origin !== 'third-party') continue;
      if (!folders.has(id)) {
        await this.forgetPlugin(id);
        continue;
      }
      const version = currentVersion(join(this.thirdPartyDir, id));
      if (version === null || version === this.versionOf.get(id)) continue;
      const item = await this.checkFolder(join(this.thirdPartyDir, id, VERSIONS_FOLDER, version), id, version);
      const mail = 'id' in item ? this.admission(item) : item.reason;
      const reason = !('id' in item) ? item.reason : typeof mail === 'string' ? mail : await this.applyUpdate(plugin, item, mail, true);
      if (reason !== null) this.options.log.error({ plugin: id }, `plugin "${id}": the version another instance installed cannot be used here: ${reason}`);
    }
    for (const folder of folders) {
      if (this.loaded.has(folder) || this.refused.some((r) => r.id === folder)) continue;
      const item = this.checkCandidate(thirdPartyCandidate(this.thirdPartyDir, folder), await this.manifestValidator());
      const mail = 'id' in item ? this.admission(item) : null;
      if ('id' in item && Array.isArray(mail)) await this.admit(item, mail);
    }
  }

  /** Drops a third-party plugin from this process: its running version retired, its declarations forgotten. */
  private async forgetPlugin(id: string): Promise<void> {
    const running = this.mounted.get(id);
    this.mounted.delete(id);
    this.loaded.delete(id);
    this.order = this.order.filter((other) => other !== id);
    this.enabled.delete(id);
    this.pending.delete(id);
    this.started.delete(id);
    this.failures.delete(id);
    this.versionOf.delete(id);
    this.previousClientDir.delete(id);
    this.forgetRefusal(id);
    this.options.settings.forget(id);
    this.options.mailTemplates.forget(id);
    this.options.rateLimitPolicies.forget(id);
    this.recomputeActive();
    if (running) await this.retire(running);
  }

  /**
   * Removes a disabled third-party plugin: its folder, its state and — when `dropTables` — the
   * tables its plugin.json declares and its migration record (never a core table or another
   * plugin's). Its settings' stored values stay (a reinstall finds them) unless its data is dropped.
   */
  removePlugin(id: string, dropTables: boolean): Promise<RemovedPlugin> {
    return this.serial(async () => {
      const plugin = this.loaded.get(id);
      const refusal = this.refused.find((r) => r.id === id);
      if (!plugin && !refusal) throw httpError(404, 'PLUGIN_NOT_FOUND', `There is no plugin "${id}".`);
      if ((plugin?.origin ?? refusal!.origin) === 'bundled') throw httpError(409, 'PLUGIN_BUILT_IN', `Plugin "${id}" ships with the panel: it can be disabled, not removed.`);
      if (this.enabled.has(id)) throw httpError(409, 'PLUGIN_ENABLED', `Disable plugin "${id}" before removing it.`);
      const dependent = this.list().find((other) => (other.manifest.requires ?? []).includes(id));
      if (dependent) throw httpError(409, 'PLUGIN_REQUIRED', `Plugin "${dependent.manifest.id}" requires plugin "${id}": remove that one first.`);
      const manifest = plugin?.manifest ?? refusal?.manifest ?? null;
      const declared = manifest?.tables ?? [];
      await this.forgetPlugin(id);
      const droppedTables = dropTables ? await this.dropTables(id, declared) : [];
      const { db } = this.options.database;
      await db.deleteFrom('plugin_states').where('id', '=', id).execute();
      const settingKeys = (manifest?.settings ?? []).map((setting) => setting.key);
      if (dropTables && settingKeys.length > 0) {
        await db.deleteFrom('settings').where('key', 'in', settingKeys).execute();
        this.options.settings.invalidate();
      }
      removePluginFolder(this.thirdPartyDir, id);
      this.options.log.info({ plugin: id, droppedTables }, `plugin "${id}" removed`);
      await this.options.onInstalledChanged?.();
      return { id, droppedTables };
    });
  }

  /** Drops the plugin's declared tables that exist, and its migration record: the ones dropped. */
  private async dropTables(id: string, declared: readonly string[]): Promise<string[]> {
    const { db } = this.options.database;
    // declared order is creation order, mostly: the last ones may point at the first ones
    const own = [...declared.filter((table) => !CORE_TABLES.has(table) && !table.startsWith(CORE_TABLE_PREFIX))].reverse();
    const existing = new Set((await db.introspection.getTables()).map((table) => table.name));
    const dropped: string[] = [];
    for (const table of [...own, pluginMigrationTable(id)]) {
      if (!existing.has(table)) continue;
      await db.schema.dropTable(table).ifExists().execute();
      dropped.push(table);
    }
    return dropped;
  }

  /** Why the plugin's server part could not be started when it was last enabled, or null. */
  failureOf(id: string): string | null {
    return this.failures.get(id)?.reason ?? null;
  }

  /** A plugin that failed after loading: its routes stay in the router but answer 404 for good. */
  private unload(id: string, reason: string): void {
    const plugin = this.loaded.get(id)!;
    this.loaded.delete(id);
    this.order = this.order.filter((other) => other !== id);
    this.enabled.delete(id);
    this.options.mailTemplates.forget(id);
    this.refuse(id, plugin.origin, reason, plugin.manifest);
    for (const other of [...this.order]) {
      if ((this.loaded.get(other)!.manifest.requires ?? []).includes(id)) this.unload(other, `it requires plugin "${id}", which could not be loaded`);
    }
    this.recomputeActive();
  }

  private gateFor(id: string): onRequestHookHandler {
    return (_request, reply, done) => {
      if (this.active.has(id)) return done();
      sendNotFound(reply);
    };
  }

  /** True when `id` is a plugin this host discovered (loaded or refused). */
  knows(id: string): boolean {
    // asked once per event handler per event: a map lookup, not a walk of the list
    return this.loaded.has(id) || this.refused.some((r) => r.id === id);
  }

  isActive(id: string): boolean {
    return this.active.has(id);
  }

  get(id: string): LoadedPlugin | undefined {
    return this.loaded.get(id);
  }

  /** Loaded plugins in load order (requirements first). */
  list(): LoadedPlugin[] {
    return this.order.map((id) => this.loaded.get(id)!);
  }

  isEnabled(id: string): boolean {
    return this.enabled.has(id);
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const plugin = this.loaded.get(id);
    if (!plugin) {
      const refused = this.refused.find((r) => r.id === id);
      if (refused) throw httpError(409, 'PLUGIN_REFUSED', `Plugin "${id}" cannot be enabled: ${refused.reason}.`);
      throw httpError(404, 'PLUGIN_NOT_FOUND', `There is no plugin "${id}".`);
    }
    if (!enabled && plugin.manifest.core) throw httpError(409, 'PLUGIN_CORE', `Plugin "${id}" is part of the core and cannot be disabled.`);
    // a plugin whose requirements have not started yet is enabled now and starts along with them
    if (enabled && (plugin.manifest.requires ?? []).every((dep) => this.started.has(dep))) {
      const reason = await this.ensureStarted(id);
      if (reason !== null) throw httpError(409, 'PLUGIN_START_FAILED', `Plugin "${id}" could not be enabled: ${reason}.`);
    }
    await this.writeState(id, enabled);
    if (enabled) this.enabled.add(id);
    else this.enabled.delete(id);
    this.recomputeActive();
    this.options.onStateChange?.(id, enabled);
    if (enabled) {
      await this.startWaiting();
      await this.seedMailTemplates();
    }
    await this.options.onEnabledChanged?.(id, enabled);
  }

  /** The JSON of GET /api/system/plugins: active plugins, requirements first, with their build entry. */
  servedJson(): string {
    if (this.servedCache === null) {
      const served: ServedPluginManifest[] = this.list()
        .filter((p) => this.active.has(p.manifest.id))
        .map((p) => {
          // the mail templates are the server's business: every page load would carry them for nothing
          const { mailTemplates: _mailTemplates, ...manifest } = p.manifest;
          const out: ServedPluginManifest = manifest;
          if (p.build?.entry) out.entry = p.build.entry;
          if (p.build?.integrity) out.integrity = p.build.integrity;
          if (p.build?.localeFiles) out.localeFiles = p.build.localeFiles;
          return out;
        });
      this.servedCache = JSON.stringify(served);
    }
    return this.servedCache;
  }

  /** Active plugins' own stylesheet / script text, in load order. */
  assets(kind: 'css' | 'js'): string[] {
    return this.list()
      .filter((p) => this.active.has(p.manifest.id) && p[kind].trim() !== '')
      .map((p) => `/* plugin: ${p.manifest.id} */\n${p[kind]}`);
  }

  /**
   * Third-party plugins' client folders, for the static file server: the version in use, then the
   * one before the last update (a page opened before it still loads its lazy chunks and catalogues).
   */
  clientDirs(id: string): string[] {
    const plugin = this.loaded.get(id);
    if (plugin?.origin !== 'third-party') return [];
    const previous = this.previousClientDir.get(id);
    return [plugin.clientDir, previous].filter((dir): dir is string => typeof dir === 'string');
  }

  /** The version folder of a third-party plugin in use (null: a plain folder). */
  installedVersionOf(id: string): string | null {
    return this.versionOf.get(id) ?? null;
  }
}
