// Builds the ServerPluginContext one plugin receives: the shared services, narrowed to what that
// plugin may touch (its own settings plus the core's; its own tables plus the core's read-only views;
// its own name on its logs and events).
import type { FastifyBaseLogger } from 'fastify';
import {
  httpError,
  type PluginAudit,
  type PluginAuth,
  type PluginConfig,
  type PluginMail,
  type PluginFiles,
  type PluginObjectStorage,
  type PluginSecrets,
  type PluginCounters,
  type PluginSettings,
  type PluginJobs,
  type PluginWallet,
  type PluginAccounts,
  type ServerPluginContext,
  type WalletMovement,
  type WalletTransaction,
  type WalletTransfer,
  type AccountStatistics,
  type PluginSystem,
  type PanelBackup,
} from '../../sdk/server';
import type { Database } from '../db/connect';
import type { MailPreferences } from '../mail/mail-preferences';
import type { Clock } from '../realtime/clock';
import { scopedBroadcast, type BroadcastBus } from '../realtime/broadcast';
import { pluginLeases, type LeaseStore } from '../realtime/leases';
import type { EventBus } from '../events';
import type { Scheduler } from '../jobs/scheduler';
import type { PterodactylPanel } from '../../sdk/pterodactyl';
import type { SettingsStore } from '../settings/store';
import type { LoadedPlugin } from './host';
import { asPluginHandle } from '../db/plugin-view';
import type { NavBadges } from '../nav/nav-badges';
import type { ServiceRegistry } from './services';
import { TableBoundary } from './table-boundary';
import { tableRulesFor } from './table-rules';

export interface ContextServices {
  database: Database;
  settings: SettingsStore;
  auth: PluginAuth;
  events: EventBus;
  audit: PluginAudit;
  mail: PluginMail;
  mailPreferences: MailPreferences;
  files: PluginFiles;
  objectStorage: PluginObjectStorage;
  secrets: PluginSecrets;
  wallet: PluginWallet;
  counters: PluginCounters;
  accounts: PluginAccounts;
  clock: Clock;
  leases: LeaseStore;
  /** ctx.broadcast's transport: Redis pub/sub when REDIS_URL is set, else this process */
  broadcast: BroadcastBus;
  scheduler: Scheduler;
  /** whether a plugin is enabled now: its jobs skip their runs while it is not */
  isActive: (pluginId: string) => boolean;
  services: ServiceRegistry;
  /** ctx.nav: the counts plugins give for their sidebar items */
  nav: NavBadges;
  /** ctx.pterodactyl: one client for every plugin (the settings are the core's) */
  pterodactyl: PterodactylPanel;
  system: PluginSystem;
  /** ctx.panelBackup, handed only to first-party plugins holding the "panel-backup" privilege */
  panelBackup: PanelBackup;
  accountStats: AccountStatistics;
  config: PluginConfig;
  log: FastifyBaseLogger;
}

function scopedSettings(store: SettingsStore, pluginId: string): PluginSettings {
  const readable = (key: string) => {
    const owner = store.ownerOf(key);
    if (owner !== 'core' && owner !== pluginId) {
      throw new Error(`plugin "${pluginId}" may not read setting "${key}" (${owner ? `it belongs to ${owner}` : 'it is not declared'})`);
    }
    return key;
  };
  return {
    get: (key) => store.get(readable(key)),
    getEntry: (key) => store.getEntry(readable(key)),
    getMany: (keys) => store.getMany(keys.map(readable)),
    set: (key, value) => {
      if (store.ownerOf(key) !== pluginId) throw new Error(`plugin "${pluginId}" may only change its own declared settings, not "${key}"`);
      return store.set(key, value);
    },
  };
}

const JOB_NAME = /^[a-z][a-z0-9-]{0,63}$/;

function pluginJobs(scheduler: Scheduler, pluginId: string, isActive: (id: string) => boolean): PluginJobs {
  const full = (name: string) => {
    if (!JOB_NAME.test(name)) throw new TypeError(`jobs: "${name}" is not a valid job name`);
    return `${pluginId}.${name}`;
  };
  return Object.freeze({
    every(name: string, intervalMs: number, run: () => Promise<string | void>) {
      if (!Number.isSafeInteger(intervalMs) || intervalMs < 1) throw new TypeError('jobs: the interval must be a positive whole number of milliseconds');
      // a disabled plugin must not act, but its job stays listed (the health page shows why it is idle)
      scheduler.every(full(name), intervalMs, async () => (isActive(pluginId) ? run() : 'skipped: the plugin is disabled'));
    },
    runNow: (name: string) => scheduler.runNow(full(name)),
    kick: (name: string) => scheduler.kick(full(name)),
    statuses: () => scheduler.statuses().map(({ name, lastRunAt, lastOk, lastMessage }) => ({ name, lastRunAt, lastOk, lastMessage })),
  });
}

/**
 * The wallet as one plugin sees it: an `effect` runs in the movement's transaction through the
 * plugin's checked handle, so it writes its own tables there and nothing else.
 */
function boundedWallet(wallet: PluginWallet, boundary: TableBoundary): PluginWallet {
  const bound = <M extends { effect?: (trx: WalletTransaction) => Promise<void> }>(movement: M): M => {
    const effect = movement.effect;
    return effect ? { ...movement, effect: (trx: WalletTransaction) => effect(trx.withPlugin(boundary)) } : movement;
  };
  return Object.freeze({
    balance: (userId: number) => wallet.balance(userId),
    credit: (movement: WalletMovement) => wallet.credit(bound(movement)),
    debit: (movement: WalletMovement) => wallet.debit(bound(movement)),
    transfer: (transfer: WalletTransfer) => wallet.transfer(bound(transfer)),
    entries: (userId: number, page?: { page?: number; perPage?: number }) => wallet.entries(userId, page),
  });
}

/**
 * What one run of a plugin's register() and start() left registered in the core (event handlers,
 * jobs, services, nav badges, broadcast subscriptions), so that it can be taken back: the plugin is
 * removed, its update replaces it, or its start failed half-way — all without a restart.
 */
export class PluginRegistrations {
  private readonly undo: (() => void | Promise<void>)[] = [];
  /** registrations under a name only one version may hold at a time (jobs, nav badges) */
  private readonly named: { apply: () => void; remove: () => void | Promise<void> }[] = [];
  private suspended = false;
  private retired = false;
  /** the ids of the services it provides */
  readonly provided: string[] = [];

  add(undo: () => void | Promise<void>): void {
    if (this.retired) void Promise.resolve(undo()).catch(() => undefined);
    else this.undo.push(undo);
  }

  /** A registration made under a name (applied already): an update's new version takes the name over. */
  addNamed(apply: () => void, remove: () => void | Promise<void>): void {
    this.named.push({ apply, remove });
  }

  /** Lets go of the named registrations, so the next version can make its own; resume() takes them back. */
  async suspend(): Promise<void> {
    if (this.suspended || this.retired) return;
    this.suspended = true;
    for (const { remove } of this.named) await remove();
  }

  /** The next version failed to start: this one holds its names again. */
  resume(): void {
    if (!this.suspended || this.retired) return;
    this.suspended = false;
    for (const { apply } of this.named) apply();
  }

  /** Takes everything back, newest first; one failing undo does not keep the others. */
  async retire(): Promise<void> {
    if (!this.suspended) await this.suspend().catch(() => undefined);
    this.retired = true;
    for (const undo of this.undo.splice(0).reverse()) {
      try {
        await undo();
      } catch {
        // nothing left to do about a registration that cannot be taken back: the others still go
      }
    }
  }
}

/** The context's registering parts wrapped so `registrations` can take back what they register. */
function tracked(ctx: ServerPluginContext, services: ContextServices, id: string, registrations: PluginRegistrations): Partial<ServerPluginContext> {
  const provided = registrations.provided;
  registrations.add(() => void services.services.withdraw(id, provided));
  return {
    events: {
      on: (name, handler) => {
        const off = ctx.events.on(name, handler);
        registrations.add(off);
        return off;
      },
      emit: (name, payload) => ctx.events.emit(name, payload),
    },
    jobs: Object.freeze({
      ...ctx.jobs,
      every(name: string, intervalMs: number, run: () => Promise<string | void>) {
        ctx.jobs.every(name, intervalMs, run);
        registrations.addNamed(
          () => ctx.jobs.every(name, intervalMs, run),
          () => services.scheduler.remove(`${id}.${name}`),
        );
      },
    }),
    nav: Object.freeze({
      badge: (name: string, provider: Parameters<ServerPluginContext['nav']['badge']>[1]) => {
        ctx.nav.badge(name, provider);
        registrations.addNamed(
          () => ctx.nav.badge(name, provider),
          () => services.nav.forget(id, name),
        );
      },
    }),
    services: {
      ...ctx.services,
      provide: (ref, implementation) => {
        ctx.services.provide(ref, implementation);
        provided.push(ref.id);
      },
    },
    broadcast: Object.freeze({
      backend: ctx.broadcast.backend,
      publish: (channel: string, message: Parameters<ServerPluginContext['broadcast']['publish']>[1]) => ctx.broadcast.publish(channel, message),
      subscribe: async (channel: string, handler: Parameters<ServerPluginContext['broadcast']['subscribe']>[1]) => {
        const off = await ctx.broadcast.subscribe(channel, handler);
        registrations.add(off);
        return off;
      },
    }),
  };
}

/**
 * The context one plugin's register() and start() receive. With `registrations`, what it registers
 * is recorded there to be taken back (third-party plugins: installed, updated and removed live).
 */
export function pluginContext(services: ContextServices, plugin: LoadedPlugin, registrations?: PluginRegistrations): ServerPluginContext {
  const ctx = baseContext(services, plugin);
  return registrations ? Object.freeze({ ...ctx, ...tracked(ctx, services, plugin.manifest.id, registrations) }) : ctx;
}

function baseContext(services: ContextServices, plugin: LoadedPlugin): ServerPluginContext {
  const id = plugin.manifest.id;
  // the database boundary: this plugin's tables, the core's read-only views, and its listed exceptions
  const boundary = new TableBoundary(tableRulesFor(plugin));
  return Object.freeze({
    id,
    manifest: Object.freeze(structuredClone(plugin.manifest)),
    db: asPluginHandle(services.database.db.withPlugin(boundary)),
    dialect: services.database.dialect,
    config: services.config,
    settings: scopedSettings(services.settings, id),
    auth: services.auth,
    events: services.events.forOwner(id),
    audit: services.audit,
    mail: services.mail,
    // a plugin asks about its own declared preferences only
    mailPreferences: Object.freeze({ accepting: (key: string, userIds: readonly number[]) => services.mailPreferences.accepting(id, key, userIds) }),
    files: services.files,
    objectStorage: services.objectStorage,
    secrets: services.secrets,
    wallet: boundedWallet(services.wallet, boundary),
    counters: services.counters,
    accounts: services.accounts,
    clock: services.clock,
    leases: pluginLeases(services.leases, id),
    // a disabled plugin's subscriptions stay (enabling needs no restart) but hear nothing
    broadcast: scopedBroadcast(services.broadcast, id, services.log.child({ plugin: id }), () => services.isActive(id)),
    jobs: pluginJobs(services.scheduler, id, services.isActive),
    pterodactyl: services.pterodactyl,
    system: services.system,
    panelBackup: plugin.origin === 'bundled' && (plugin.manifest.privileges ?? []).includes('panel-backup') ? services.panelBackup : null,
    accountStats: services.accountStats,
    services: services.services.forPlugin(id, plugin.manifest.requires ?? [], plugin.manifest.optional ?? []),
    nav: services.nav.forPlugin(plugin.manifest),
    log: services.log.child({ plugin: id }),
    httpError,
  });
}
