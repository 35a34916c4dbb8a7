// buildApp(): the whole API host as one Fastify instance — config, database and migrations,
// settings, sessions, the plugin host, the system and session routes, security headers, the error
// shape and the built browser files. Tests call it with a temporary data directory and
// source-mode plugins; server/main.ts calls it with the environment's configuration.
import { dirname, join } from 'node:path';
import multipart from '@fastify/multipart';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import type { Kysely } from 'kysely';
import { MAX_STORED_FILE_BYTES, type PluginAuth } from '../sdk/server';
import { adminRoutes } from './admin';
import { AuditLog } from './audit/audit-log';
import { AccountFigures } from './auth/account-statistics';
import { Accounts } from './auth/accounts';
import { createPluginAuth } from './auth/plugin-auth';
import { RoleDirectory } from './auth/roles';
import { routeGuardFor } from './auth/route-guard';
import { twoFaGateFor } from './auth/two-fa-gate';
import { SessionService } from './auth/sessions';
import { loadConfig, type Config } from './config';
import { openDatabase, type ConnectionErrorHandler, type Database } from './db/connect';
import { sharedSerializerFactory } from './http/schema-compilers';
import { CORE_MIGRATIONS } from './db/core-migrations';
import { CORE_MIGRATION_TABLE, runMigrations } from './db/migrate';
import { EventBus } from './events';
import { DiskFileStore } from './files/disk-store';
import { FileService } from './files/file-service';
import { S3FileStore } from './files/s3-store';
import { ObjectStorageService } from './files/object-storage';
import { classifyError, handleError, sendError, sendNotFound } from './http/errors';
import { applyInputDefaults, inputValidatorCompiler } from './http/input-policy';
import { originCheckFor } from './http/origin-check';
import { addSecurityHeaders, SECURITY_HEADERS } from './http/security-headers';
import { RouteRegistry } from './http/route-registry';
import { AbuseScreen } from './security/abuse-screen';
import { KnownDevices } from './security/known-devices';
import { RateLimitPolicies, rateLimitHooks, RATE_LIMIT_SETTINGS } from './security/rate-limit-policies';
import { MemoryRateLimitStore, RateLimiter, RedisRateLimitStore, type RateLimitStore } from './security/rate-limiter';
import { builtRenderer, PrerenderedPages, type PageRendererLoader, type PublicApi } from './http/prerender';
import { registerPrerenderForms } from './http/prerender-form';
import { RoutePreloads } from './http/route-preloads';
import { StaticFiles } from './http/static-files';
import { systemClock, type Clock } from './realtime/clock';
import { openBroadcastBus, type BroadcastBus } from './realtime/broadcast';
import { CacheSync } from './cluster/cache-sync';
import { secretKeyMatches, verifySecretKey } from './cluster/secret-check';
import { Readiness } from './cluster/readiness';
import { DatabaseHold } from './db/database-hold';
import { addHoldGate } from './http/hold-gate';
import { InstanceRegistry } from './cluster/instances';
import { metricsRoute, PanelMetrics } from './cluster/metrics';
import { healthRoutes } from './routes/health';
import { openLeaseStore, type LeaseStore } from './realtime/leases';
import { registerWebsockets } from './realtime/websocket';
import { Scheduler } from './jobs/scheduler';
import { MAIL_SETTINGS } from './mail/mail-settings';
import { Mailer } from './mail/mailer';
import { MailPreferences } from './mail/mail-preferences';
import { mailPreferenceRoutes } from './routes/mail-preferences';
import { panelPaths, type PanelPaths } from './paths';
import { pluginContext } from './plugins/context';
import { PluginHost } from './plugins/host';
import { ServiceRegistry } from './plugins/services';
import { createPterodactyl, type PanelTuning, type Pterodactyl } from './pterodactyl';
import { registerAdminPterodactyl } from './admin/pterodactyl';
import { activityRoutes } from './routes/activity';
import { apiDocsRoutes } from './routes/api-docs';
import { sessionRoutes } from './routes/session';
import { navBadgeRoutes } from './routes/nav-badges';
import { NavBadges } from './nav/nav-badges';
import { systemBootSource, systemRoutes } from './routes/system';
import { CORE_SETTINGS } from './settings/catalogue';
import { SecretBox } from './settings/secret-box';
import { featureFlagGuardFor } from './settings/feature-flag-guard';
import { SettingsStore } from './settings/store';
import { SystemState } from './system/system-state';
import { runLedgerConsistencyJob } from './wallet/consistency';
import { walletRoutes } from './routes/wallet';
import { UserCounters } from './wallet/counters';
import { PanelBackups } from './backup/panel-backups';
import { AccountChanges } from './accounts/account-changes';
import { Wallet } from './wallet/wallet';

/** The ledger check is a full scan: hourly is often enough to notice, rare enough to be cheap. */
export const LEDGER_JOB = 'wallet.consistency';
const LEDGER_JOB_INTERVAL_MS = 60 * 60 * 1000;

export interface BuildAppOptions {
  /** the configuration (default: loadConfig(process.env)) */
  config?: Config;
  /** false silences the logger (tests); default: pino at config.logLevel */
  logger?: boolean;
  /** folders of first-party plugins (default: the repo's plugins/); tests add fixture folders */
  pluginDirs?: string[];
  /** load server parts from dist/plugins-server (true) or from the TypeScript sources (false) */
  builtPlugins?: boolean;
  /** the built browser files (default: dist/public) */
  publicDir?: string;
  /** the renderer of pre-rendered public pages (default: the build's dist/server/prerender.js) */
  pageRenderer?: PageRendererLoader;
  /** the build manifest (default: dist/plugins.json) */
  buildManifest?: string;
  /** where rate-limit counts live (default: Redis when REDIS_URL is set, else in-process); tests pass a clocked one */
  rateLimitStore?: RateLimitStore;
  /** false: scheduled jobs (the mail queue…) run only when a test asks (services.scheduler.runNow) */
  jobs?: boolean;
  /** ctx.clock of the plugins (default: the system clock); tests pass one they move by hand */
  clock?: Clock;
  /** ctx.pterodactyl's timeouts, retries and backoff (default: 15 s, 3 retries from 500 ms); tests make them short */
  panel?: PanelTuning;
  /**
   * An open, migrated database to serve instead of opening one; the app leaves it open. Tests give a
   * second instance in the same process the first one's SQLite connection: two connections of one
   * process to one SQLite file wait for each other's locks synchronously, stalling both instances.
   */
  database?: Database;
  /** false: a short-lived app of the command line, not listed among the panel's instances (default true) */
  instance?: boolean;
  /** how often the cache counters are read (default: cluster/cache-sync.ts); tests make it short to catch a reload at its worst moment */
  cacheSyncPollMs?: number;
  /** ctx.objectStorage's multipart part size (default 8 MiB; at least S3's 5 MiB): tests use the smallest */
  objectStoragePartBytes?: number;
}

/** The services behind one app, for the CLI and tests (plugins get theirs through their context). */
export interface PanelServices {
  config: Config;
  database: Database;
  settings: SettingsStore;
  sessions: SessionService;
  roles: RoleDirectory;
  accounts: Accounts;
  auth: PluginAuth;
  events: EventBus;
  plugins: PluginHost;
  paths: PanelPaths;
  audit: AuditLog;
  /** every route served, with the guard its options ask for */
  routes: RouteRegistry;
  rateLimiter: RateLimiter;
  /** the core's and the plugins' named rate-limit policies */
  rateLimitPolicies: RateLimitPolicies;
  scheduler: Scheduler;
  mailer: Mailer;
  wallet: Wallet;
  counters: UserCounters;
  /** ctx.accounts: the changes plugins make to an account besides its coins */
  accountChanges: AccountChanges;
  clock: Clock;
  /** ctx.leases' store: Redis when REDIS_URL is set, else the database */
  leases: LeaseStore;
  /** ctx.broadcast's transport: Redis pub/sub when REDIS_URL is set, else this process */
  broadcast: BroadcastBus;
  /** ctx.pterodactyl and the panel accounts behind accountFor */
  pterodactyl: Pterodactyl;
  /** the archives of the whole panel (DATA_DIR/backups): the command line's and the backups plugin's */
  panelBackup: PanelBackups;
  /** tells the other instances what changed here, and reloads what changed there */
  cacheSync: CacheSync;
  /** /readyz: the stores answer, migrations done, not shutting down, no restore running */
  readiness: Readiness;
  /** held while a restore replaces the database: the API answers 503, jobs and cache reloads wait */
  hold: DatabaseHold;
  /** this instance's registration, its peers and the jobs' last runs */
  instances: InstanceRegistry;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}

const servicesByApp = new WeakMap<FastifyInstance, PanelServices>();

export function servicesOf(app: FastifyInstance): PanelServices {
  const services = servicesByApp.get(app);
  if (!services) throw new Error('not an Orepanel app');
  return services;
}

/** Opens the database and applies the core migrations; used by buildApp and the CLI. */
export async function openMigratedDatabase(config: Config, onConnectionError?: ConnectionErrorHandler): Promise<Database> {
  const database = openDatabase(config.database, onConnectionError);
  try {
    await runMigrations(database.db as unknown as Kysely<unknown>, database.dialect, CORE_MIGRATION_TABLE, CORE_MIGRATIONS);
    // before anything reads or seals a secret: a second instance with another key stops here
    await verifySecretKey(database.db as unknown as Kysely<unknown>, config.secretKey);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const config = options.config ?? loadConfig();
  const paths = panelPaths();
  // a third-party plugin enabled after start is served by an instance of its own (plugins/host.ts),
  // built from these same options and the same request pipeline (withPipeline below)
  const instanceOptions = {
    // one log line per request only when debugging; errors are always logged (http/errors.ts)
    logController: new LogController({ disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace' }),
    // a hop count trusts that many proxies in front of us (Fastify's own number form trusts none)
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    bodyLimit: 1024 * 1024,
    // a request that reaches a stopping instance on a connection already open is served (with
    // `Connection: close`) rather than refused: a proxy sends a refused GET elsewhere, but never a
    // POST it has already sent, so a 503 here would fail a gift or a purchase during a rolling restart
    return503OnClosing: false,
    // response serializers compiled once per schema, for every instance of the process
    schemaController: { compilersFactory: { buildSerializer: sharedSerializerFactory } },
    // bad input is a 4xx in our error shape, even when it fails before routing
    frameworkErrors: (error, _request, reply) => {
      const { status, body } = classifyError(error);
      reply.headers(SECURITY_HEADERS);
      sendError(reply, status, body);
    },
  } satisfies FastifyServerOptions;
  const app = Fastify({ ...instanceOptions, logger: options.logger === false ? false : { level: config.logLevel } });
  const log: FastifyBaseLogger = app.log;

  const ownDatabase = options.database === undefined;
  const database = options.database ?? (await openMigratedDatabase(config, (error) => log.warn({ err: error }, 'a database connection was lost; the next query opens a new one')));
  // a database handed over was opened for another app of this process: its key must be ours too
  if (!ownDatabase) await verifySecretKey(database.db as unknown as Kysely<unknown>, config.secretKey);
  const closeOwnDatabase = async () => {
    if (ownDatabase) await database.close();
  };
  app.addHook('onClose', closeOwnDatabase);

  const settings = new SettingsStore(database.db, config.secretKey);
  settings.declare('core', [...CORE_SETTINGS, ...RATE_LIMIT_SETTINGS, ...MAIL_SETTINGS]);
  const roles = new RoleDirectory(database.db, (error) => log.error({ err: error }, 'reloading roles failed'));
  await roles.load();
  const reportError = (error: unknown) => log.error({ err: error }, 'session bookkeeping failed');
  const sessions = new SessionService(database, roles, config.sessionTtlDays, reportError);
  const accounts = new Accounts(database.db, settings);
  const events = new EventBus(log);
  const audit = new AuditLog(database.db, sessions);
  // spec §3 zero_trust_enabled: a session is trusted only from the browser that signed in
  let zeroTrust = false;
  sessions.enforceZeroTrust({
    // the in-process copy answers without waiting; right after a change (no copy yet) the last known value
    enabled: () => {
      const value = settings.peek('zero_trust_enabled');
      if (value !== undefined) zeroTrust = value === true;
      return zeroTrust;
    },
    onForeignBrowser: (row, request) =>
      void audit
        .record(request, {
          action: 'session.foreign_browser_refused',
          actorUserId: null,
          targetUserId: row.user_id,
          details: { session: row.session_id, user_agent: String(request.headers['user-agent'] ?? '') },
        })
        .catch(reportError),
  });
  // every sign-in (whichever plugin starts the session) passes the anti-abuse screen
  const knownDevices = new KnownDevices(database.db, database.dialect);
  const auth = createPluginAuth(sessions, accounts, events, new AbuseScreen({ db: database.db, settings, roles, audit, log, knownDevices }));
  const routes = new RouteRegistry();
  let rateLimitStore: RateLimitStore;
  try {
    rateLimitStore = options.rateLimitStore ?? (config.redisUrl ? await RedisRateLimitStore.connect(config.redisUrl, `${config.redisPrefix}rl:`) : new MemoryRateLimitStore());
  } catch (error) {
    await closeOwnDatabase();
    throw error;
  }
  app.addHook('onClose', async () => {
    await rateLimitStore.close();
  });
  const clock = options.clock ?? systemClock;
  let leases: LeaseStore;
  try {
    leases = await openLeaseStore(config.redisUrl, database.db as unknown as Kysely<unknown>, clock, config.redisPrefix);
  } catch (error) {
    await rateLimitStore.close();
    await closeOwnDatabase();
    throw error;
  }
  app.addHook('onClose', async () => {
    await leases.close();
  });
  let broadcast: BroadcastBus;
  try {
    broadcast = await openBroadcastBus(config.redisUrl, log, config.redisPrefix);
  } catch (error) {
    await leases.close();
    await rateLimitStore.close();
    await closeOwnDatabase();
    throw error;
  }
  // after the plugins' preClose hooks: their sockets are closed and their subscriptions gone by then
  app.addHook('onClose', async () => {
    await broadcast.close();
  });
  // a restore replacing the database holds the rest of the panel still, here and on the other instances
  const hold = new DatabaseHold({ bus: broadcast, log });
  await hold.start();
  app.addHook('onClose', async () => hold.close());
  const readiness = new Readiness(database.db as unknown as Kysely<unknown>, broadcast, config.redisUrl !== null, () => hold.active);
  const rateLimiter = new RateLimiter(rateLimitStore, (error) => log.error({ err: error }, 'rate limit store failed; request let through'));
  // jobs wait while the database is away or being restored, and go on by themselves after
  const instances = new InstanceRegistry(database.db as unknown as Kysely<unknown>, paths.version, log);
  const scheduler = new Scheduler(
    log,
    options.jobs !== false,
    () => readiness.databaseUsable(),
    (status) => {
      metrics?.jobFinished(status);
      return instances.recordRun(status);
    },
    {
      acquire: (job, ttlMs) => leases.acquire(`core:job:${job}`, instances.id, ttlMs, false),
      release: (job) => leases.release(`core:job:${job}`, instances.id),
    },
  );
  // off unless METRICS_TOKEN or METRICS_ALLOW is set: nothing is counted that nobody reads
  const metricsOn = config.metricsToken !== null || config.metricsAllow !== null;
  const metrics = metricsOn
    ? new PanelMetrics({
        db: database.db as unknown as Kysely<unknown>,
        mailQueue: () => mailer.queueCounts(),
        openSockets: () => (app as unknown as { websocketServer?: { clients: Set<unknown> } }).websocketServer?.clients.size ?? 0,
      })
    : null;
  if (metrics) app.addHook('onResponse', async (request, reply) => metrics.observe(request, reply));
  const mailer = new Mailer(database.db, settings, scheduler, async () => config.appUrl ?? String((await settings.get('app_url')) ?? ''));
  // before the database closes: a running job finishes first
  app.addHook('preClose', async () => {
    await scheduler.stop();
    mailer.close();
  });
  const pterodactyl = createPterodactyl({ db: database.db, settings, audit, log, tuning: options.panel });
  // the panel password follows ours (best effort, never blocking the change)
  accounts.onPasswordSet((userId, password) => pterodactyl.accounts.syncPassword(userId, password));
  app.addHook('preClose', async () => {
    await pterodactyl.accounts.passwordSyncsSettled();
  });
  const secrets = new SecretBox(config.secretKey);
  const fileStore = config.files.store === 's3' ? new S3FileStore(config.files) : new DiskFileStore(config.files.dir);
  if (fileStore instanceof S3FileStore) app.addHook('onClose', async () => fileStore.close());
  const files = new FileService(fileStore);
  const objectStorage = new ObjectStorageService(options.objectStoragePartBytes);
  app.addHook('onClose', async () => objectStorage.close());
  const wallet = new Wallet(database);
  const counters = new UserCounters(database);
  const accountChanges = new AccountChanges(database.db, database.dialect);
  scheduler.every(LEDGER_JOB, LEDGER_JOB_INTERVAL_MS, () => runLedgerConsistencyJob(database.db));
  // services plugins offer each other (ctx.services)
  // find() answers null for an optional provider that is switched off now
  const pluginServices = new ServiceRegistry((id) => plugins.isActive(id));
  const navBadges = new NavBadges();
  const activeManifests = () => plugins.list().flatMap((p) => (plugins.isActive(p.manifest.id) ? [p.manifest] : []));
  const mailPreferences = new MailPreferences(database.db, activeManifests);
  const pluginConfig = Object.freeze({ appUrl: config.appUrl, dataDir: config.dataDir, sessionTtlDays: config.sessionTtlDays });
  // read-only views of the panel for operators' pages (ctx.system, ctx.accountStats)
  const system = new SystemState({ database, sharedStore: rateLimitStore, plugins: () => plugins, version: paths.version, log, instances });
  const accountStats = new AccountFigures(database.db, roles);

  const panelBackup = new PanelBackups({
    dataDir: config.dataDir,
    secretKey: config.secretKey,
    passphrase: config.backupPassphrase,
    database,
    databaseConfig: config.database,
    files: fileStore,
    panelVersion: paths.version,
    clock,
    plugins: () => plugins.list().map((p) => ({ id: p.manifest.id, version: p.manifest.version, enabled: plugins.isEnabled(p.manifest.id) })),
    migrationSets: async (tables) => [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: CORE_MIGRATIONS }, ...(await plugins.migrationSets(tables))],
    holdStill: (work) => hold.during(work),
    // every in-process copy of database state is read again here and on the other instances
    onRestored: async (name) => {
      // an archive taken under another key (BACKUP_PASSPHRASE) brings that key's secrets and check value
      if (!(await secretKeyMatches(database.db as unknown as Kysely<unknown>, config.secretKey)))
        log.error('the restored backup was made with another SECRET_KEY: its secrets cannot be read, and the panel will not start again with this key');
      await reloadEverything(name);
      await cacheSync.announce('panel');
    },
    log,
  });

  const rateLimitPolicies = new RateLimitPolicies();
  const plugins = new PluginHost({
    root: paths.root,
    discover: {
      bundledDirs: options.pluginDirs ?? [paths.pluginsDir],
      built: options.builtPlugins ?? paths.built,
      builtPluginsDir: paths.builtPluginsDir,
      buildManifest: options.buildManifest ?? paths.buildManifest,
      thirdPartyDir: join(config.dataDir, 'plugins'),
    },
    database,
    settings,
    rateLimitPolicies,
    mailTemplates: mailer.declared,
    log,
    services: pluginServices,
    context: (plugin, registrations) =>
      pluginContext(
        {
          database,
          settings,
          auth,
          events,
          audit,
          mail: mailer,
          mailPreferences,
          files,
          objectStorage,
          secrets,
          wallet,
          counters,
          accounts: accountChanges,
          clock,
          leases,
          broadcast,
          scheduler,
          isActive: (id) => plugins.isActive(id),
          services: pluginServices,
          nav: navBadges,
          pterodactyl: pterodactyl.panel,
          system,
          panelBackup,
          accountStats,
          config: pluginConfig,
          log,
        },
        plugin,
        registrations,
      ),
    onStateChange: (id, enabled) => void events.emit('plugin.state', { id, enabled }),
    onEnabledChanged: () => cacheSync.announce('plugins'),
    onPluginRoute: (id, route) => routes.claim(route, id),
    onPluginRoutesGone: (gone) => routes.forget(gone),
    onInstalledChanged: () => cacheSync.announce('plugins'),
  });
  // settings, roles, plugin states, and whatever plugins keep (they hear panel.restored): after a
  // restore, here or on another instance
  const reloadEverything = async (backup: string) => {
    await settings.ensureDefaults();
    await roles.load();
    await plugins.reload();
    await events.emit('panel.restored', { backup });
  };
  const cacheSync = new CacheSync({
    db: database.db as unknown as Kysely<unknown>,
    bus: broadcast,
    events,
    log,
    reload: {
      roles: () => roles.load(),
      settings: async () => settings.invalidate(),
      plugins: () => plugins.reload(),
      panel: () => reloadEverything('(restored on another instance)'),
    },
    held: () => hold.active,
    pollMs: options.cacheSyncPollMs,
  });
  hold.join(() => cacheSync.settled());
  hold.join(() => scheduler.settled());
  roles.announceWith(() => cacheSync.announce('roles'));
  settings.announceWith(() => cacheSync.announce('settings'));
  // a disabled plugin's subscriptions stay registered (enabling needs no restart) but stay silent
  events.onlyWhile((owner) => !plugins.knows(owner) || plugins.isActive(owner));
  await plugins.prepare();
  await settings.ensureDefaults();
  if (config.appUrl && (await settings.getEntry('app_url')).value === '') await settings.set('app_url', config.appUrl);
  await plugins.syncStates();
  await cacheSync.start();
  if (options.instance !== false) await instances.start();
  // after the jobs stopped (preClose hooks run in order): the instance is then really gone
  app.addHook('preClose', async () => {
    await instances.stop();
  });
  // before the bus and the database close
  app.addHook('preClose', async () => {
    await cacheSync.close();
  });

  servicesByApp.set(app, {
    config,
    database,
    settings,
    sessions,
    roles,
    accounts,
    auth,
    events,
    plugins,
    paths,
    audit,
    routes,
    rateLimiter,
    rateLimitPolicies,
    scheduler,
    mailer,
    wallet,
    counters,
    accountChanges,
    clock,
    leases,
    broadcast,
    pterodactyl,
    panelBackup,
    cacheSync,
    readiness,
    hold,
    instances,
  });

  // --- request pipeline ---------------------------------------------------------------------
  const originCheck = originCheckFor(config.appUrl);
  const limits = rateLimitHooks(rateLimiter, settings, sessions, (login) => accounts.lookupUserId(login), knownDevices, rateLimitPolicies);
  // the app and each late third-party plugin's instance get this same pipeline: whatever decides how
  // a request is checked belongs in here, so no route can be served without it
  const withPipeline = async (instance: FastifyInstance): Promise<FastifyInstance> => {
    // one input policy for every route, core and plugin alike (http/input-policy.ts)
    instance.setValidatorCompiler(inputValidatorCompiler);
    // before any route: upgrades to every route must pass through the router and its guards
    await registerWebsockets(instance);
    // multipart forms are parsed only where a route declares config.upload (http/input-policy.ts);
    // these are the ceilings, each route's own limits are applied when ctx.files reads the form
    await instance.register(multipart, { limits: { fileSize: MAX_STORED_FILE_BYTES, files: 20, fields: 20, parts: 40, fieldSize: 64 * 1024 } });
    instance.addHook('onRequest', addSecurityHeaders);
    addHoldGate(instance, hold);
    // a stopping instance (serve.ts gracefulShutdown) closes each connection after its answer, so a proxy
    // stops reusing them one by one instead of having them closed under a request it is sending
    instance.addHook('onRequest', async (_request, reply) => {
      if (readiness.shuttingDown) reply.header('connection', 'close');
    });
    // a request refused after its files were kept (a field the schema refused, a plugin rule) keeps none
    instance.addHook('onSend', files.discardRefused);
    instance.addHook('onRoute', (route: RouteOptions) => {
      applyInputDefaults(route, files);
      routes.record(route);
      // the app-wide request limit, the origin check, the feature flag, then the session/permission check (or, for
      // routes without one, the 2FA gate), then the route's own hooks
      const pre = [limits.appWide(route), originCheck(route), featureFlagGuardFor(settings, route), routeGuardFor(sessions, route), twoFaGateFor(sessions, route)].filter(
        (hook) => hook !== null,
      );
      if (pre.length > 0) {
        const own = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
        route.onRequest = [...pre, ...own];
      }
      // a named policy needs the validated body (the account name): it runs before the handler
      const policy = limits.policy(route);
      if (policy) {
        const own = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
        route.preHandler = [policy, ...own];
      }
    });
    instance.setErrorHandler(handleError);
    instance.setNotFoundHandler((_request, reply) => sendNotFound(reply));
    return instance;
  };
  await withPipeline(app);

  // --- routes ---------------------------------------------------------------------------------
  healthRoutes(app, readiness);
  metricsRoute(app, metrics, { token: config.metricsToken, allow: config.metricsAllow });
  // the counters plugins declare for the session's stats (plugin.json `stats`), whether or not they are on
  sessionRoutes(app, sessions, settings, counters, () => plugins.list().flatMap((p) => p.manifest.stats ?? []));
  systemRoutes(app, {
    settings,
    plugins,
    version: paths.version,
    debug: config.logLevel === 'debug' || config.logLevel === 'trace',
    redis: config.redisUrl !== null,
    sessions,
  });
  activityRoutes(app, sessions, audit);
  walletRoutes(app, sessions, wallet);
  mailPreferenceRoutes(app, auth, mailPreferences);
  navBadgeRoutes(app, auth, navBadges, {
    manifests: activeManifests,
    flagOn: async (flag) => settings.definition(flag)?.type === 'boolean' && (await settings.get(flag)) === true,
    log,
  });
  await adminRoutes(app, { database, sessions, roles, settings, plugins, audit, wallet, events, log });
  await app.register(async (scope) => registerAdminPterodactyl(scope, { panel: pterodactyl.panel, audit }), { prefix: '/api/admin' });
  await plugins.register(app, () => withPipeline(Fastify({ ...instanceOptions, loggerInstance: log })));
  // the document is built from the registry at each request: plugins switched on or off, or a
  // third-party one started later, show as they are
  apiDocsRoutes(app, { routes, plugins, sessions, version: paths.version });

  // index.html carries the plugin list and the public settings (two requests fewer at start-up)
  const boot = systemBootSource({ settings, plugins, version: paths.version, debug: config.logLevel === 'debug' || config.logLevel === 'trace', redis: config.redisUrl !== null });
  const publicDir = options.publicDir ?? paths.publicDir;
  // public pages plugins declare pre-renderable come rendered, and their forms work without a script (issue 15)
  // a pre-rendered page's `prerender.data`: its public API routes, asked in-process without cookies
  const publicApi: PublicApi = async (url) => {
    const answer = await app.inject({ method: 'GET', url, headers: { accept: 'application/json' } });
    let body: unknown = null;
    try {
      body = answer.json();
    } catch {
      return { status: 502, body: null };
    }
    return { status: answer.statusCode, body };
  };
  const prerendered = new PrerenderedPages(publicDir, boot, options.pageRenderer ?? builtRenderer(publicDir, log), log, publicApi);
  await registerPrerenderForms(app, { pages: prerendered, publicDir });
  // the requested route's plugin entry, page chunks and shell hinted after the kernel's script (issue 15)
  const buildManifest = options.buildManifest ?? paths.buildManifest;
  const preloads = new RoutePreloads({ servedJson: () => plugins.servedJson(), buildManifest, kernelModules: join(dirname(buildManifest), 'kernel-modules.json') });
  const staticFiles = new StaticFiles({ publicDir, pluginClientDirs: (id) => plugins.clientDirs(id), boot, variants: [prerendered, preloads] });
  app.get('/*', { schema: { params: { type: 'object', properties: { '*': { type: 'string', maxLength: 2048 } } } } }, staticFiles.handle);
  readiness.markMigrated();

  return app;
}
