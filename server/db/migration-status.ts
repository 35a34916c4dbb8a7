// Which migrations the database has applied, compared with the ones this code ships: the dashboard's
// "updates" component. Start-up applies every pending migration, so "pending" is normally empty; it
// is not when a migration failed (the plugin is refused and its migrations stay pending) or when the
// code was downgraded. "Unknown" names are applied migrations this code does not ship: another
// instance runs a newer release against the same database.
import type { Kysely } from 'kysely';
import type { ServerPluginMigration } from '../../sdk/server';

export interface MigrationSet {
  /** 'core' or a plugin id */
  owner: string;
  /** the migration table (op_migrations_core, op_migrations_<plugin>) */
  table: string;
  migrations: Readonly<Record<string, ServerPluginMigration>>;
}

export interface MigrationSetStatus {
  owner: string;
  applied: number;
  /** shipped but not applied, in the order they would run */
  pending: string[];
  /** applied but not shipped by this code */
  unknown: string[];
  /** the last applied migration by name order, and when it ran */
  latest: { name: string; applied_at: string } | null;
}

/** The status of each set, in the order given. One introspection query plus one query per set. */
export async function migrationStatus(db: Kysely<unknown>, sets: readonly MigrationSet[]): Promise<MigrationSetStatus[]> {
  const existing = new Set((await db.introspection.getTables()).map((t) => t.name));
  const typed = db as Kysely<Record<string, { name: string; timestamp: string }>>;
  const out: MigrationSetStatus[] = [];
  for (const set of sets) {
    const rows = existing.has(set.table) ? await typed.selectFrom(set.table).select(['name', 'timestamp']).execute() : [];
    const applied = new Map(rows.map((r) => [r.name, String(r.timestamp)]));
    const shipped = Object.keys(set.migrations).sort();
    const appliedNames = [...applied.keys()].sort();
    const last = appliedNames.at(-1);
    out.push({
      owner: set.owner,
      applied: applied.size,
      pending: shipped.filter((name) => !applied.has(name)),
      unknown: appliedNames.filter((name) => !(name in set.migrations)),
      latest: last === undefined ? null : { name: last, applied_at: applied.get(last)! },
    });
  }
  return out;
}
