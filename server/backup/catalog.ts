// What the panel's database holds, read from its own catalog on each dialect: the tables and views,
// each table's columns, primary key, auto-increment column and the tables its foreign keys point
// at. Kysely's introspection gives tables and columns but neither keys nor references, and the
// backup needs both: rows are read in key order, and tables written parents first.
import type { DatabaseDialect } from '../../sdk/server';

export type CatalogQuery = (text: string) => Promise<Record<string, unknown>[]>;

export interface CatalogTable {
  name: string;
  view: boolean;
  /** in the table's own order */
  columns: { name: string; type: string }[];
  primaryKey: string[];
  /** the tables this one's foreign keys reference (itself excluded) */
  parents: string[];
  /** the auto-incremented / identity column, if any */
  identity: string | null;
}

/** the migrators' shared lock: bookkeeping of a running migration, never part of a backup */
export const MIGRATION_LOCK_TABLE = 'op_migrations_lock';
export const MIGRATION_TABLE_PREFIX = 'op_migrations_';

export function quoteIdentifier(dialect: DatabaseDialect, name: string): string {
  return dialect === 'mysql' ? `\`${name.replace(/`/g, '``')}\`` : `"${name.replace(/"/g, '""')}"`;
}

const text = (value: unknown) => String(value ?? '');
const sqliteString = (value: string) => `'${value.replace(/'/g, "''")}'`;

function isTextType(type: string): boolean {
  return /char|text|clob/i.test(type);
}

async function sqliteCatalog(query: CatalogQuery): Promise<CatalogTable[]> {
  const objects = await query("select name, type from sqlite_master where type in ('table', 'view') and name not like 'sqlite_%' order by name");
  const out: CatalogTable[] = [];
  for (const object of objects) {
    const name = text(object.name);
    const info = await query(`select name, type, pk from pragma_table_info(${sqliteString(name)}) order by cid`);
    const keys = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk));
    const parents = object.type === 'table' ? await query(`select distinct "table" as parent from pragma_foreign_key_list(${sqliteString(name)})`) : [];
    out.push({
      name,
      view: object.type === 'view',
      columns: info.map((c) => ({ name: text(c.name), type: text(c.type).toLowerCase() })),
      primaryKey: keys.map((c) => text(c.name)),
      parents: parents.map((p) => text(p.parent)).filter((p) => p !== name),
      // an INTEGER PRIMARY KEY is the rowid: SQLite continues after the largest one by itself
      identity: keys.length === 1 && /^integer$/i.test(text(keys[0].type)) ? text(keys[0].name) : null,
    });
  }
  return out;
}

function assemble(
  tables: Record<string, unknown>[],
  columns: Record<string, unknown>[],
  keys: Record<string, unknown>[],
  references: Record<string, unknown>[],
  isIdentity: (column: Record<string, unknown>) => boolean,
  isView: (kind: string) => boolean,
): CatalogTable[] {
  const byName = new Map<string, CatalogTable>();
  for (const t of tables) {
    const name = text(t.name);
    byName.set(name, { name, view: isView(text(t.kind)), columns: [], primaryKey: [], parents: [], identity: null });
  }
  for (const c of columns) {
    const table = byName.get(text(c.table_name));
    if (!table) continue;
    table.columns.push({ name: text(c.column_name), type: text(c.data_type).toLowerCase() });
    if (isIdentity(c)) table.identity = text(c.column_name);
  }
  for (const k of keys) byName.get(text(k.table_name))?.primaryKey.push(text(k.column_name));
  for (const r of references) {
    const table = byName.get(text(r.table_name));
    const parent = text(r.parent);
    if (table && parent !== table.name && !table.parents.includes(parent)) table.parents.push(parent);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function postgresCatalog(query: CatalogQuery): Promise<CatalogTable[]> {
  const tables = await query(
    "select c.relname as name, c.relkind as kind from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm')",
  );
  const columns = await query(
    'select table_name, column_name, data_type, is_identity, column_default from information_schema.columns where table_schema = current_schema() order by table_name, ordinal_position',
  );
  const keys = await query(
    "select kcu.table_name, kcu.column_name from information_schema.table_constraints tc join information_schema.key_column_usage kcu on kcu.constraint_schema = tc.constraint_schema and kcu.constraint_name = tc.constraint_name and kcu.table_name = tc.table_name where tc.table_schema = current_schema() and tc.constraint_type = 'PRIMARY KEY' order by kcu.table_name, kcu.ordinal_position",
  );
  const references = await query(
    "select c.relname as table_name, p.relname as parent from pg_catalog.pg_constraint k join pg_catalog.pg_class c on c.oid = k.conrelid join pg_catalog.pg_class p on p.oid = k.confrelid join pg_catalog.pg_namespace n on n.oid = c.relnamespace where k.contype = 'f' and n.nspname = current_schema()",
  );
  return assemble(
    tables,
    columns,
    keys,
    references,
    (c) => c.is_identity === 'YES' || /^nextval\(/.test(text(c.column_default)),
    (kind) => kind === 'v' || kind === 'm',
  );
}

async function mysqlCatalog(query: CatalogQuery): Promise<CatalogTable[]> {
  const tables = await query('select table_name as name, table_type as kind from information_schema.tables where table_schema = database()');
  const columns = await query(
    'select table_name as table_name, column_name as column_name, data_type as data_type, extra as extra from information_schema.columns where table_schema = database() order by table_name, ordinal_position',
  );
  const keys = await query(
    "select table_name as table_name, column_name as column_name from information_schema.key_column_usage where table_schema = database() and constraint_name = 'PRIMARY' order by table_name, ordinal_position",
  );
  const references = await query(
    'select table_name as table_name, referenced_table_name as parent from information_schema.key_column_usage where table_schema = database() and referenced_table_name is not null',
  );
  return assemble(
    tables,
    columns,
    keys,
    references,
    (c) => /auto_increment/i.test(text(c.extra)),
    (kind) => kind.toUpperCase() === 'VIEW',
  );
}

/** Every table and view of the panel's database (its current schema on PostgreSQL), by name. */
export function readCatalog(dialect: DatabaseDialect, query: CatalogQuery): Promise<CatalogTable[]> {
  switch (dialect) {
    case 'sqlite':
      return sqliteCatalog(query);
    case 'postgres':
      return postgresCatalog(query);
    case 'mysql':
      return mysqlCatalog(query);
  }
}

/**
 * Tables of the running processes rather than of the panel: kept out of archives, so a restore
 * leaves them empty. Sessions above all — an archive would bring back every session revoked since it
 * was taken (a stolen one included); after a restore everyone signs in again. Leases and the
 * instance registry belong to processes of the moment, not of the archive's past.
 */
export const NOT_ARCHIVED_TABLES: ReadonlySet<string> = new Set(['sessions', 'leases', 'panel_instances']);

/** The tables a backup holds: every table but the migrators' lock and NOT_ARCHIVED_TABLES (views are made by migrations). */
export function backedUpTables(catalog: readonly CatalogTable[]): CatalogTable[] {
  return catalog.filter((t) => !t.view && t.name !== MIGRATION_LOCK_TABLE && !NOT_ARCHIVED_TABLES.has(t.name));
}

/** Tables with every table they reference before them (ties and cycles broken by name). */
export function parentsFirst(tables: readonly CatalogTable[]): CatalogTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const done = new Set<string>();
  const visiting = new Set<string>();
  const out: CatalogTable[] = [];
  const visit = (table: CatalogTable) => {
    if (done.has(table.name) || visiting.has(table.name)) return;
    visiting.add(table.name);
    for (const parent of [...table.parents].sort()) {
      const other = byName.get(parent);
      if (other) visit(other);
    }
    visiting.delete(table.name);
    done.add(table.name);
    out.push(table);
  };
  for (const table of [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) visit(table);
  return out;
}

/**
 * The ORDER BY that reads a table's rows in the same order on every dialect: its primary key (or,
 * without one, every column), text compared byte by byte (SQLite's BINARY, PostgreSQL's "C",
 * MariaDB's binary cast rather than a case-insensitive collation), nulls first.
 */
export function neutralOrder(dialect: DatabaseDialect, table: CatalogTable, sortedColumns: readonly string[]): string {
  const keys = table.primaryKey.length > 0 ? table.primaryKey : sortedColumns;
  const typeOf = new Map(table.columns.map((c) => [c.name, c.type]));
  return keys
    .map((name) => {
      const column = quoteIdentifier(dialect, name);
      const textual = isTextType(typeOf.get(name) ?? '');
      if (dialect === 'sqlite') return `${column} collate binary`;
      if (dialect === 'postgres') return `${textual ? `${column} collate "C"` : column} nulls first`;
      return textual ? `cast(${column} as binary)` : column;
    })
    .join(', ');
}

/** The columns in the order the neutral form lists them. */
export function sortedColumnNames(table: CatalogTable): string[] {
  return table.columns.map((c) => c.name).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
