// ctx.system: what the running panel is (version, start time, plugins, migrations) and whether the
// parts it depends on answer (the database, the shared store). Measured at each call: a status page
// must show the truth of now, and a failing part is an answer (ok: false), not an exception.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { DatabaseProbe, JobRun, MigrationSetState, PanelInstance, PluginsSummary, PluginSystem, SharedStoreProbe } from '../../sdk/server';
import type { InstanceRegistry } from '../cluster/instances';
import type { Database } from '../db/connect';
import { CORE_MIGRATIONS } from '../db/core-migrations';
import { CORE_MIGRATION_TABLE, pluginMigrationTable } from '../db/migrate';
import { migrationStatus, type MigrationSet } from '../db/migration-status';
import type { PluginHost } from '../plugins/host';
import type { RateLimitStore } from '../security/rate-limiter';

export interface SystemStateOptions {
  database: Database;
  /** the rate limiter's store: Redis when REDIS_URL is set */
  sharedStore: RateLimitStore;
  /** the host, once it exists (it is built with the contexts that hold this object) */
  plugins: () => PluginHost;
  version: string;
  log: FastifyBaseLogger;
  /** this instance and its peers (server/cluster/instances.ts) */
  instances: InstanceRegistry;
}

export class SystemState implements PluginSystem {
  readonly version: string;
  readonly startedAt = new Date(Date.now() - process.uptime() * 1000).toISOString();

  constructor(private readonly options: SystemStateOptions) {
    this.version = options.version;
  }

  async probeDatabase(): Promise<DatabaseProbe> {
    const { database, log } = this.options;
    const started = performance.now();
    try {
      await sql`select 1`.execute(database.db);
      return { dialect: database.dialect, ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
    } catch (error) {
      log.error({ err: error }, 'the database did not answer a probe');
      return { dialect: database.dialect, ok: false, latencyMs: null };
    }
  }

  async probeSharedStore(): Promise<SharedStoreProbe> {
    const store = this.options.sharedStore;
    try {
      await store.ping();
      return { kind: store.kind, ok: true };
    } catch (error) {
      this.options.log.error({ err: error }, 'the rate-limit store did not answer a probe');
      return { kind: store.kind, ok: false };
    }
  }

  plugins(): PluginsSummary {
    const host = this.options.plugins();
    const loaded = host.list();
    return {
      installed: loaded.length + host.refused.length,
      enabled: loaded.filter((p) => host.isActive(p.manifest.id)).length,
      refused: host.refused.map((r) => ({ id: r.id, reason: r.reason })),
    };
  }

  async migrations(): Promise<MigrationSetState[]> {
    const sets: MigrationSet[] = [{ owner: 'core', table: CORE_MIGRATION_TABLE, migrations: CORE_MIGRATIONS }];
    for (const plugin of this.options.plugins().list()) {
      const migrations = plugin.server?.migrations;
      if (migrations && Object.keys(migrations).length > 0) sets.push({ owner: plugin.manifest.id, table: pluginMigrationTable(plugin.manifest.id), migrations });
    }
    return migrationStatus(this.options.database.db as unknown as Kysely<unknown>, sets);
  }

  instances(): Promise<PanelInstance[]> {
    return this.options.instances.list();
  }

  jobRuns(): Promise<JobRun[]> {
    return this.options.instances.jobRuns();
  }
}
