// Restoring an archive over the panel. In order:
// 1. open and verify the whole archive (a damaged one never touches the database) and check it is
//    not from a newer panel;
// 2. take a before-restore archive of the panel as it is;
// 3. replace the database: drop the panel's tables, recreate the schema by running this code's
//    migrations up to the state the archive recorded, empty what they seeded, insert the archive's
//    rows (parents first, in batches), move identity sequences past the restored ids, then apply
//    the migrations the archive's panel did not have yet (an older panel's backup comes forward).
//    SQLite and PostgreSQL do all of it in ONE transaction (their DDL is transactional): a failure,
//    or a process killed halfway, leaves the old data. MariaDB commits DDL implicitly, so there a
//    failure puts the before-restore archive back the same way before the error is rethrown;
// 4. files: the archive's files are added to the store while the database work runs (a key's bytes
//    never change, so an extra file harms nobody) and those the archive does not hold are removed
//    once the database has committed; a failure removes the ones it added;
// 5. the in-process copies of database state are read again (settings, roles, plugin states…).
// From step 2 to step 5 the rest of the panel is held still (options.holdStill: no API request, no
// job, no cache reload touches the database meanwhile — server/db/database-hold.ts).
//
// Kysely's Migrator cannot run inside a transaction (it takes its own), so the migrations run here
// through a small runner that calls each one's up() in name order and records it in its
// op_migrations_* table with the columns Kysely uses (name, timestamp).
import { sql, type Kysely } from 'kysely';
import type { DatabaseDialect } from '../../sdk/server';
import type { BackupManifest, BackupProgress, LocalBackup } from '../../sdk/server/panel-backup';
import { migrationKit } from '../db/migrate';
import type { StoredFileInfo } from '../files/store';
import type { OpenedArchive } from './archive-reader';
import { MIGRATION_LOCK_TABLE, parentsFirst, quoteIdentifier, readCatalog, type CatalogTable } from './catalog';
import { decodeCell } from './neutral-form';
import type { MigrationSet, PanelBackups, PanelBackupsOptions } from './panel-backups';
import type { TableStart } from './records';

type AnyDatabase = Kysely<Record<string, Record<string, unknown>>>;

/** bound parameters per INSERT: far below every dialect's ceiling (SQLite 32766, PostgreSQL and MariaDB 65535) */
const PARAMETERS_PER_INSERT = 4000;

function catalogOf(db: Kysely<unknown>, dialect: DatabaseDialect): Promise<CatalogTable[]> {
  return readCatalog(dialect, async (text) => (await sql.raw<Record<string, unknown>>(text).execute(db)).rows);
}

async function createMigrationTable(db: Kysely<unknown>, table: string): Promise<void> {
  // the same columns Kysely's Migrator makes, so `orepanel migrate` reads what this runner wrote
  await db.schema
    .createTable(table)
    .ifNotExists()
    .addColumn('name', 'varchar(255)', (c) => c.notNull().primaryKey())
    .addColumn('timestamp', 'varchar(255)', (c) => c.notNull())
    .execute();
}

/** Runs `names` of `set` in name order and records each one. */
async function runMigrationSet(db: Kysely<unknown>, dialect: DatabaseDialect, set: MigrationSet, names: readonly string[], onEach?: () => void): Promise<void> {
  await createMigrationTable(db, set.table);
  const handle = set.guard ? db.withPlugin(set.guard) : db;
  for (const name of [...names].sort()) {
    const migration = set.migrations[name];
    if (!migration) throw new Error(`migration ${name} of ${set.owner} is not in this code`);
    try {
      await migration.up(handle, migrationKit(handle, dialect));
    } catch (error) {
      throw new Error(`migration ${name} of ${set.owner === 'core' ? 'the core' : `plugin "${set.owner}"`} failed: ${(error as Error).message}`);
    }
    await (db as AnyDatabase).insertInto(set.table).values({ name, timestamp: new Date().toISOString() }).execute();
    onEach?.();
  }
}

async function dropEverything(db: Kysely<unknown>, dialect: DatabaseDialect): Promise<void> {
  const catalog = await catalogOf(db, dialect);
  const q = (name: string) => quoteIdentifier(dialect, name);
  for (const view of catalog.filter((t) => t.view)) await sql.raw(`drop view if exists ${q(view.name)}${dialect === 'postgres' ? ' cascade' : ''}`).execute(db);
  const tables = parentsFirst(catalog.filter((t) => !t.view && t.name !== MIGRATION_LOCK_TABLE)).reverse();
  for (const table of tables) await sql.raw(`drop table if exists ${q(table.name)}${dialect === 'postgres' ? ' cascade' : ''}`).execute(db);
}

/** Empties every table (children first): the migrations that recreated them seeded some rows. */
async function emptyEverything(db: Kysely<unknown>, dialect: DatabaseDialect): Promise<CatalogTable[]> {
  const catalog = await catalogOf(db, dialect);
  const tables = parentsFirst(catalog.filter((t) => !t.view && t.name !== MIGRATION_LOCK_TABLE));
  for (const table of [...tables].reverse()) await sql.raw(`delete from ${quoteIdentifier(dialect, table.name)}`).execute(db);
  return tables;
}

/** Moves each identity sequence (PostgreSQL) or auto-increment counter (MariaDB) past the restored ids. */
async function advanceIdentities(db: Kysely<unknown>, dialect: DatabaseDialect, tables: readonly CatalogTable[]): Promise<void> {
  if (dialect === 'sqlite') return; // explicit ids move SQLite's rowid and sqlite_sequence by themselves
  for (const table of tables) {
    if (!table.identity) continue;
    if (dialect === 'postgres') {
      await sql`select setval(pg_get_serial_sequence(${quoteIdentifier('postgres', table.name)}, ${table.identity}), coalesce((select max(${sql.ref(table.identity)}) from ${sql.table(table.name)}), 0) + 1, false)`.execute(
        db,
      );
    } else {
      const { rows } = await sql<{ m: number | string | null }>`select max(${sql.ref(table.identity)}) as m from ${sql.table(table.name)}`.execute(db);
      const max = rows[0]?.m;
      if (max !== null && max !== undefined) await sql.raw(`alter table ${quoteIdentifier('mysql', table.name)} auto_increment = ${BigInt(max) + 1n}`).execute(db);
    }
  }
}

interface FileWork {
  /** the keys in the store when the restore began */
  existing: Set<string>;
  /** keys this restore added (removed again when it fails) */
  added: string[];
  /** the keys the archive holds */
  archived: Set<string>;
}

/**
 * The database part of a restore, on `db` (a transaction, or MariaDB's one connection): drop,
 * recreate at the archive's migration state, insert, advance identities, migrate forward.
 */
async function replaceDatabase(
  db: Kysely<unknown>,
  dialect: DatabaseDialect,
  archive: OpenedArchive,
  sets: readonly MigrationSet[],
  backups: PanelBackups,
  options: PanelBackupsOptions,
  files: FileWork | null,
  progress: (progress: BackupProgress) => void,
): Promise<void> {
  const { manifest } = archive;
  if (dialect === 'sqlite') await sql`pragma defer_foreign_keys = on`.execute(db);
  if (dialect === 'mysql') await sql`set foreign_key_checks = 0`.execute(db);
  await dropEverything(db, dialect);
  // the schema as the archive's panel had it: the core's migrations, then each plugin's (load order)
  for (const set of sets) {
    const names = manifest.migrations[set.table];
    if (names) await runMigrationSet(db, dialect, set, names);
  }
  const tables = await emptyEverything(db, dialect);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const totalRows = manifest.tables.reduce((sum, t) => sum + t.rows, 0);
  let doneRows = 0;
  progress({ phase: 'restore', done: 0, total: totalRows });
  let pendingFile: { key: string; info: StoredFileInfo; chunks: Buffer[] } | null = null;
  const typed = db as AnyDatabase;
  await backups.walk(archive, {
    tableStart(start: TableStart) {
      const target = byName.get(start.name);
      if (!target) throw new Error(`the backup's table ${start.name} has no place in the schema its migrations made`);
      const have = new Set(target.columns.map((c) => c.name));
      const missing = start.columns.find((c) => !have.has(c.name));
      if (missing) throw new Error(`the backup's column ${start.name}.${missing.name} has no place in the schema its migrations made`);
    },
    async rows(start: TableStart, rows: unknown[][]) {
      const names = start.columns.map((c) => c.name);
      const batch = Math.max(1, Math.floor(PARAMETERS_PER_INSERT / names.length));
      for (let i = 0; i < rows.length; i += batch) {
        const values = rows.slice(i, i + batch).map((row) => Object.fromEntries(names.map((name, at) => [name, decodeCell(row[at], dialect === 'sqlite' ? 'bigint' : 'text')])));
        await typed.insertInto(start.name).values(values).execute();
      }
      doneRows += rows.length;
      progress({ phase: 'restore', done: doneRows, total: totalRows });
    },
    fileStart(file) {
      pendingFile = { key: file.key, info: file.info as StoredFileInfo, chunks: [] };
    },
    fileBytes(_file, chunk) {
      // a file is put whole (the store's contract); the service keeps files to 25 MiB
      pendingFile?.chunks.push(Buffer.from(chunk));
    },
    async fileEnd(file) {
      const kept = pendingFile;
      pendingFile = null;
      if (!files || !kept) return;
      files.archived.add(file.key);
      if (files.existing.has(file.key)) return;
      await options.files.put(file.key, Buffer.concat(kept.chunks), kept.info);
      files.added.push(file.key);
    },
  });
  await advanceIdentities(db, dialect, tables);
  // what this panel has that the archive's did not: an older panel's data is brought forward
  const forward = sets.map((set) => ({ set, names: Object.keys(set.migrations).filter((n) => !(manifest.migrations[set.table] ?? []).includes(n)) }));
  const total = forward.reduce((sum, f) => sum + f.names.length, 0);
  let done = 0;
  progress({ phase: 'migrate', done, total });
  for (const { set, names } of forward) {
    if (names.length > 0) await runMigrationSet(db, dialect, set, names, () => progress({ phase: 'migrate', done: ++done, total }));
  }
  if (dialect === 'mysql') await sql`set foreign_key_checks = 1`.execute(db);
}

async function listKeys(options: PanelBackupsOptions): Promise<Set<string>> {
  const keys = new Set<string>();
  for await (const key of options.files.list()) keys.add(key);
  return keys;
}

/** Runs the database part in one transaction (SQLite, PostgreSQL) or on one connection (MariaDB). */
function onDatabase(options: PanelBackupsOptions, work: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  const db = options.database.db as unknown as Kysely<unknown>;
  if (options.database.dialect === 'mysql') {
    return db.connection().execute(async (connection) => {
      try {
        await work(connection);
      } finally {
        // the connection goes back to the pool: it must check foreign keys again whatever happened
        await sql`set foreign_key_checks = 1`.execute(connection).catch(() => undefined);
      }
    });
  }
  return db.transaction().execute(work);
}

export async function restoreArchive(
  backups: PanelBackups,
  options: PanelBackupsOptions,
  name: string,
  progress: (progress: BackupProgress) => void,
): Promise<{ manifest: BackupManifest; beforeRestore: LocalBackup }> {
  const archive = await backups.openNamed(name);
  const sets = await backups.checkCompatible(archive.manifest);
  await backups.walk(archive, {}, progress);
  // from the before-restore archive on, nothing else touches the database: on MariaDB a failure puts
  // that archive back, and a write made after it was taken would be lost with the put-back
  const holdStill = options.holdStill ?? ((work) => work());
  const beforeRestore = await holdStill(async () => {
    const before = await backups.createNow('before-restore', { onProgress: (p) => progress({ phase: 'before-restore', done: p.done, total: p.total }) });
    const dialect = options.database.dialect;
    const files: FileWork = { existing: await listKeys(options), added: [], archived: new Set() };
    try {
      await onDatabase(options, (db) => replaceDatabase(db, dialect, archive, sets, backups, options, files, progress));
    } catch (error) {
      if (dialect === 'mysql') {
        // DDL committed as it went: the panel as it was is the before-restore archive, put back the same way
        options.log?.error({ err: error, backup: name }, 'restore failed; putting the before-restore backup back');
        try {
          const previous = await backups.openNamed(before.name);
          await onDatabase(options, (db) => replaceDatabase(db, dialect, previous, sets, backups, options, null, () => undefined));
        } catch (putBack) {
          options.log?.error({ err: putBack, backup: before.name }, 'putting the before-restore backup back failed');
          throw new Error(
            `The restore failed (${(error as Error).message}) and putting ${before.name} back failed too (${(putBack as Error).message}): restore ${before.name} from the command line.`,
          );
        }
      }
      await Promise.all(files.added.map((key) => options.files.remove(key).catch(() => false)));
      throw error;
    }
    // the database holds the archive's rows now: files it does not know are no one's
    for (const key of files.existing) if (!files.archived.has(key)) await options.files.remove(key);
    // still held: the first request after the hold meets the restored settings, roles and plugins
    await options.onRestored?.(name);
    return before;
  });
  progress({ phase: 'done', done: 1, total: 1 });
  options.log?.info({ backup: name, beforeRestore: beforeRestore.name }, 'backup restored');
  return { manifest: archive.manifest, beforeRestore };
}
