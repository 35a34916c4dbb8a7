// CORE_TABLES is what the core's migrations create: a new core table that is not listed could be
// claimed by a plugin (and then written through its handle).
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { CORE_MIGRATIONS } from './core-migrations';
import { CORE_TABLE_PREFIX, CORE_TABLES, HANDED_OVER_TABLES } from './core-tables';
import { CORE_MIGRATION_TABLE, runMigrations } from './migrate';

describe('CORE_TABLES', () => {
  const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  afterAll(() => db.destroy());

  it('lists every table and view the core migrations create (but those handed over to a plugin)', async () => {
    await runMigrations(db, 'sqlite', CORE_MIGRATION_TABLE, CORE_MIGRATIONS);
    const { rows } = await sql<{ name: string }>`select name from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%'`.execute(db);
    const made = rows.map((r) => r.name).filter((name) => !name.startsWith(CORE_TABLE_PREFIX));
    expect(made.sort()).toEqual([...CORE_TABLES, ...Object.keys(HANDED_OVER_TABLES)].sort());
  });
});
