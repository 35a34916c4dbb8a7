// The migrations runner: Kysely's Migrator with in-code migrations, one migration table for the
// core and one per plugin (op_migrations_<id>), so each plugin's history is its own.
import { Migrator, sql, type ColumnDefinitionBuilder, type Kysely, type KyselyPlugin, type Migration, type MigrationResult } from 'kysely';
import type { DatabaseDialect, MigrationKit, ServerPluginMigration } from '../../sdk/server';

export const CORE_MIGRATION_TABLE = 'op_migrations_core';
/** Shared by every migrator: they run one after another, never at the same time. */
const MIGRATION_LOCK_TABLE = 'op_migrations_lock';

export function pluginMigrationTable(pluginId: string): string {
  return `op_migrations_${pluginId.replace(/-/g, '_')}`;
}

export function migrationKit(db: Kysely<unknown>, dialect: DatabaseDialect): MigrationKit {
  return {
    dialect,
    createTable(name) {
      const builder = db.schema.createTable(name);
      return dialect === 'mysql' ? builder.modifyEnd(sql`engine=InnoDB default charset=utf8mb4 collate=utf8mb4_unicode_ci`) : builder;
    },
    autoId(column: ColumnDefinitionBuilder) {
      const key = column.primaryKey();
      return dialect === 'postgres' ? key.generatedByDefaultAsIdentity() : key.autoIncrement();
    },
  };
}

export class MigrationError extends Error {
  constructor(
    readonly table: string,
    readonly migration: string | null,
    override readonly cause: unknown,
  ) {
    super(`migration ${migration ?? '(setup)'} of ${table} failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'MigrationError';
  }
}

/**
 * Applies every pending migration of one set, in name order. Returns the names applied now.
 * Throws a MigrationError naming the migration that failed. `guard` checks each statement of the
 * migrations themselves (a plugin's: its own tables only), not the runner's bookkeeping.
 */
export async function runMigrations(
  db: Kysely<unknown>,
  dialect: DatabaseDialect,
  table: string,
  migrations: Readonly<Record<string, ServerPluginMigration>>,
  guard?: KyselyPlugin,
): Promise<string[]> {
  const handle = (tx: Kysely<unknown>) => (guard ? tx.withPlugin(guard) : tx);
  const adapted: Record<string, Migration> = {};
  for (const [name, migration] of Object.entries(migrations)) {
    const down = migration.down;
    adapted[name] = {
      up: (tx) => migration.up(handle(tx as Kysely<unknown>), migrationKit(handle(tx as Kysely<unknown>), dialect)),
      down: down ? (tx) => down(handle(tx as Kysely<unknown>), migrationKit(handle(tx as Kysely<unknown>), dialect)) : undefined,
    };
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => adapted },
    migrationTableName: table,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r: MigrationResult) => r.status === 'Error');
  if (error) throw new MigrationError(table, failed?.migrationName ?? null, error);
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
