// The plugin itself: what a plugin's server/index.ts default-exports, and the context it is handed.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { PterodactylPanel } from '../pterodactyl';
import type { PluginServices } from '../services';
import type { PluginManifest } from '../types';
import type { PluginAudit } from './audit';
import type { PluginBroadcast } from './broadcast';
import type { PluginAuth } from './auth';
import type { DatabaseDialect, PluginReadableDatabase, ServerPluginMigration } from './database';
import type { PluginEvents } from './events';
import type { PluginFiles } from './files';
import type { RateLimitPolicy } from './http';
import { httpError } from './http-errors';
import type { PluginMail, PluginMailPreferences } from './mail';
import type { PluginNav } from './nav';
import type { PanelBackup } from './panel-backup';
import type { PluginObjectStorage } from './object-storage';
import type { PluginConfig, PluginSecrets, PluginSettings } from './settings';
import type { AccountStatistics, PluginSystem } from './system';
import type { PluginClock, PluginJobs, PluginLeases } from './time';
import type { PluginAccounts } from './accounts';
import type { PluginCounters, PluginWallet } from './wallet';

/** The plugin API version of this SDK (its major version). */
export const SERVER_PLUGIN_API_VERSION = 2;

export interface ServerPluginContext {
  readonly id: string;
  readonly manifest: Readonly<PluginManifest>;
  /**
   * Kysely over the panel's database, as this plugin may use it: the core's read-only user_public view
   * and user_counters table; add the tables plugin.json declares with `ctx.db.withTables<Tables>()`
   * (Tables: a type alias). Every query is checked: another table, a write to a view, a schema change
   * or a raw query throws, naming the plugin and the table.
   */
  readonly db: Kysely<PluginReadableDatabase>;
  readonly dialect: DatabaseDialect;
  readonly config: PluginConfig;
  readonly settings: PluginSettings;
  readonly auth: PluginAuth;
  readonly events: PluginEvents;
  readonly audit: PluginAudit;
  readonly mail: PluginMail;
  /** which accounts accept the kinds of mail the plugin declares (plugin.json "mailPreferences") */
  readonly mailPreferences: PluginMailPreferences;
  /** uploaded files: kept by type-from-bytes with image metadata removed, sent back privately */
  readonly files: PluginFiles;
  /** S3-compatible buckets opened with the plugin's own credentials (an off-site copy, an export) */
  readonly objectStorage: PluginObjectStorage;
  readonly secrets: PluginSecrets;
  readonly wallet: PluginWallet;
  readonly counters: PluginCounters;
  /** changes to a user's account besides coins: resource totals, AFK minutes (read accounts through user_public) */
  readonly accounts: PluginAccounts;
  readonly clock: PluginClock;
  readonly leases: PluginLeases;
  /** messages to every instance at once (Redis pub/sub with REDIS_URL), on channels of the plugin's own */
  readonly broadcast: PluginBroadcast;
  readonly jobs: PluginJobs;
  /** the host's Pterodactyl panel (settings pterodactyl_base_url, pterodactyl_api_key) */
  readonly pterodactyl: PterodactylPanel;
  /** the running panel: version, plugins, migrations, and whether the database and shared store answer */
  readonly system: PluginSystem;
  /**
   * Archives of the whole panel (every table and file) in DATA_DIR/backups, and restoring one. Only a
   * plugin shipped with the panel whose plugin.json lists "panel-backup" in `privileges` gets it;
   * null for every other plugin.
   */
  readonly panelBackup: PanelBackup | null;
  /** figures over every account, read-only */
  readonly accountStats: AccountStatistics;
  /** services other plugins offer (those in this plugin's `requires` and `optional`) and the ones it offers them */
  readonly services: PluginServices;
  /** the counts on the plugin's sidebar items (the `badge` its plugin.json names on a nav item) */
  readonly nav: PluginNav;
  readonly log: FastifyBaseLogger;
  readonly httpError: typeof httpError;
}

/**
 * A server plugin runs in two phases, as Kibana's setup/start, so that no service is asked for before
 * it is provided: the host calls every enabled plugin's register() in `requires` order, then every
 * start() in the same order. A third-party plugin enabled later runs both phases at that moment, after
 * the plugins it requires have run theirs.
 *
 * `Registered` is what register() returns, handed to start(): the parts a plugin built while
 * registering (its stores, its queue worker), kept per panel rather than in module variables (one
 * process may run several panels: the test kits do).
 */
export interface ServerPluginDefinition<Registered = void> {
  /** must equal the id in plugin.json */
  id: string;
  /** name → migration, applied in name order, recorded in the plugin's own migration table */
  migrations?: Readonly<Record<string, ServerPluginMigration>>;
  /**
   * name → the rate-limit policies the plugin's routes name (`config: { rateLimit: name }`); every
   * `setting` must be a number setting of the plugin's own plugin.json, and a name must not clash
   * with the core's or another plugin's.
   */
  rateLimitPolicies?: Readonly<Record<string, RateLimitPolicy>>;
  /**
   * Declares: adds the plugin's routes to `app`, an encapsulated scope under /api (third-party
   * plugins: /api/plugins/<id>), and provides the plugin's services (`ctx.services.provide`).
   * Route options `config: { auth: true }` or `config: { permission: 'x.y' }` guard a route; give
   * every route a JSON schema. Another plugin's service is not available yet: ctx.services.get
   * throws here (get it in start(), or when a request or a job runs, which is always after start).
   */
  register(app: FastifyInstance, ctx: ServerPluginContext): Registered | Promise<Registered>;
  /**
   * Optional; runs once every plugin this one requires has registered and started. Gets the services
   * of the plugins in `requires` (`ctx.services.get`) and starts what acts on its own: jobs
   * (`ctx.jobs.every`) and event listeners (`ctx.events.on`). ctx.services.provide throws here: a
   * service is provided in register(), so every consumer finds it in its own start(). A plugin
   * without start() is a single-phase plugin: register() does everything, as before.
   */
  start?(ctx: ServerPluginContext, registered: Registered): void | Promise<void>;
}

export const SERVER_PLUGIN_BRAND = '@orepanel/server-plugin';

export interface ServerPlugin extends Readonly<ServerPluginDefinition<unknown>> {
  readonly $$type: typeof SERVER_PLUGIN_BRAND;
  readonly apiVersion: typeof SERVER_PLUGIN_API_VERSION;
}

const PLUGIN_ID = /^[a-z][a-z0-9-]{1,39}$/;

export function defineServerPlugin<Registered = void>(definition: ServerPluginDefinition<Registered>): ServerPlugin {
  if (!definition || typeof definition !== 'object') throw new TypeError('defineServerPlugin: expected an object');
  if (typeof definition.id !== 'string' || !PLUGIN_ID.test(definition.id)) {
    throw new TypeError(`defineServerPlugin: "${String(definition.id)}" is not a valid plugin id`);
  }
  if (typeof definition.register !== 'function') {
    throw new TypeError(`defineServerPlugin(${definition.id}): register must be a function`);
  }
  if (definition.start !== undefined && typeof definition.start !== 'function') {
    throw new TypeError(`defineServerPlugin(${definition.id}): start must be a function when given`);
  }
  for (const [name, migration] of Object.entries(definition.migrations ?? {})) {
    if (!migration || typeof migration.up !== 'function') {
      throw new TypeError(`defineServerPlugin(${definition.id}): migration "${name}" has no up() function`);
    }
  }
  return Object.freeze({
    ...definition,
    migrations: definition.migrations ? Object.freeze({ ...definition.migrations }) : undefined,
    $$type: SERVER_PLUGIN_BRAND,
    apiVersion: SERVER_PLUGIN_API_VERSION,
  });
}

/** Duck-typed check the host uses on whatever a plugin's server module exports. */
export function isServerPlugin(value: unknown): value is ServerPlugin {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Record<keyof ServerPlugin, unknown>>;
  return v.$$type === SERVER_PLUGIN_BRAND && typeof v.id === 'string' && typeof v.register === 'function' && (v.start === undefined || typeof v.start === 'function');
}
