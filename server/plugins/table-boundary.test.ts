// The database boundary's check, on queries compiled (not run) through a handle that carries it.
import { DummyDriver, Kysely, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, sql, type Generated } from 'kysely';
import { describe, expect, it } from 'vitest';
import { TableBoundary, TableBoundaryError, type TableBoundaryRules } from './table-boundary';

interface Tables {
  notes: { id: Generated<number>; user_id: number; body: string };
  note_tags: { note_id: number; tag: string };
  user_public: { id: number; username: string };
  users: { id: number; username: string; coins: number };
  sessions: { id: number; user_id: number };
  other_plugin_rows: { id: number; note_id: number };
}

const rules: TableBoundaryRules = { pluginId: 'fx-notes', owns: new Set(['notes', 'note_tags']), readable: new Set(['user_public']) };

function handle(overrides: Partial<TableBoundaryRules> = {}): Kysely<Tables> {
  return new Kysely<Tables>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new SqliteIntrospector(db),
      createQueryCompiler: () => new SqliteQueryCompiler(),
    },
    plugins: [new TableBoundary({ ...rules, ...overrides })],
  });
}

const db = handle();

function refusal(compile: () => unknown): TableBoundaryError {
  try {
    compile();
  } catch (error) {
    if (error instanceof TableBoundaryError) return error;
    throw error;
  }
  throw new Error('the query was not refused');
}

describe('the table boundary', () => {
  it('lets a plugin read and write its own tables and read what the core offers', () => {
    expect(db.selectFrom('notes').selectAll().compile().sql).toBe('select * from "notes"');
    expect(() => db.insertInto('notes').values({ user_id: 1, body: 'x' }).compile()).not.toThrow();
    expect(() => db.updateTable('notes').set({ body: 'y' }).where('id', '=', 1).compile()).not.toThrow();
    expect(() => db.deleteFrom('note_tags').where('note_id', '=', 1).compile()).not.toThrow();
    expect(() => db.selectFrom('notes as n').innerJoin('user_public as u', 'u.id', 'n.user_id').select(['n.body', 'u.username']).compile()).not.toThrow();
  });

  it('refuses a select of a core table, naming the plugin and the table', () => {
    const error = refusal(() => db.selectFrom('users').select('coins').compile());
    expect(error.message).toMatch(/^plugin "fx-notes" may not read table "users": it is not one of its tables/);
    expect(error).toMatchObject({ code: 'PLUGIN_TABLE_BOUNDARY', pluginId: 'fx-notes', table: 'users' });
  });

  it('refuses a write to a table it may only read', () => {
    expect(refusal(() => db.updateTable('user_public').set({ username: 'x' }).compile()).message).toBe(
      'plugin "fx-notes" may not write table "user_public": the core offers it read-only',
    );
    expect(refusal(() => db.insertInto('user_public').values({ id: 1, username: 'x' }).compile()).table).toBe('user_public');
    expect(refusal(() => db.deleteFrom('user_public').compile()).table).toBe('user_public');
  });

  it('refuses inserts, updates and deletes of core tables', () => {
    expect(refusal(() => db.insertInto('users').values({ id: 1, username: 'x', coins: 0 }).compile()).table).toBe('users');
    expect(refusal(() => db.updateTable('users').set({ coins: 1 }).compile()).table).toBe('users');
    expect(refusal(() => db.deleteFrom('sessions').compile()).table).toBe('sessions');
  });

  it('sees tables in joins, update-from, subqueries and insert-select', () => {
    expect(refusal(() => db.selectFrom('notes').innerJoin('users', 'users.id', 'notes.user_id').selectAll('notes').compile()).table).toBe('users');
    expect(refusal(() => db.selectFrom('notes').leftJoin('other_plugin_rows as o', 'o.note_id', 'notes.id').selectAll('notes').compile()).table).toBe('other_plugin_rows');
    expect(
      refusal(() =>
        db
          .selectFrom('notes')
          .selectAll()
          .where('user_id', 'in', (eb) => eb.selectFrom('sessions').select('user_id'))
          .compile(),
      ).table,
    ).toBe('sessions');
    expect(
      refusal(() =>
        db
          .selectFrom('notes')
          .select((eb) => eb.selectFrom('users').select('coins').whereRef('users.id', '=', 'notes.user_id').as('coins'))
          .compile(),
      ).table,
    ).toBe('users');
    expect(refusal(() => db.updateTable('notes').from('users').set({ body: 'x' }).whereRef('users.id', '=', 'notes.user_id').compile()).table).toBe('users');
    expect(
      refusal(() =>
        db
          .insertInto('notes')
          .columns(['user_id', 'body'])
          .expression((eb) => eb.selectFrom('users').select(['id', 'username']))
          .compile(),
      ).table,
    ).toBe('users');
    expect(
      refusal(() =>
        db
          .selectFrom((eb) => eb.selectFrom('users').select('id').as('x'))
          .selectAll()
          .compile(),
      ).table,
    ).toBe('users');
    expect(refusal(() => db.selectFrom('notes').select('id').union(db.selectFrom('sessions').select('id')).compile()).table).toBe('sessions');
  });

  it('takes a common table expression by its name only within its query, and checks its body', () => {
    expect(() =>
      db
        .with('mine', (qb) => qb.selectFrom('notes').select(['id', 'body']))
        .selectFrom('mine')
        .selectAll()
        .compile(),
    ).not.toThrow();
    expect(
      refusal(() =>
        db
          .with('rich', (qb) => qb.selectFrom('users').select('id'))
          .selectFrom('rich')
          .selectAll()
          .compile(),
      ).table,
    ).toBe('users');
    // a CTE named like a core table does not open that table to its own body
    expect(
      refusal(() =>
        db
          .with('users', (qb) => qb.selectFrom('users').select('id'))
          .selectFrom('users')
          .selectAll()
          .compile(),
      ).table,
    ).toBe('users');
    expect(
      refusal(() =>
        db
          .with('mine', (qb) => qb.selectFrom('notes').select('id'))
          .updateTable('users')
          .set({ coins: 0 })
          .compile(),
      ).table,
    ).toBe('users');
  });

  it('refuses raw queries and raw fragments that name tables; allows raw expressions', () => {
    expect(refusal(() => sql`select * from users`.compile(db)).message).toMatch(/may not run a raw SQL query/);
    expect(refusal(() => sql`delete from notes`.compile(db)).message).toMatch(/may not run a raw SQL query/);
    expect(refusal(() => db.selectFrom('notes').select(sql<number>`(select coins from users where id = notes.user_id)`.as('coins')).compile()).message).toMatch(
      /may not use "select" in a raw SQL fragment/,
    );
    expect(refusal(() => db.selectFrom('notes').selectAll().where(sql<boolean>`1 = 1; drop table users`).compile()).message).toMatch(/statement separator/);
    expect(refusal(() => db.selectFrom(sql`users`.as('u')).selectAll().compile()).message).toMatch(/may not read from raw SQL/);
    expect(refusal(() => db.selectFrom(sql.table('users').as('u')).selectAll().compile()).table).toBe('users');
    expect(() =>
      db
        .updateTable('notes')
        .set({ body: sql<string>`body || ${'!'}` })
        .where(sql<boolean>`lower(${sql.ref('body')}) like ${'%from%'} escape '!'`)
        .compile(),
    ).not.toThrow();
  });

  it('refuses schema changes at run time and tables of another schema', () => {
    expect(refusal(() => db.schema.dropTable('notes').compile()).message).toMatch(/may not change the database schema at run time \(DropTableNode\)/);
    expect(refusal(() => db.schema.createIndex('x').on('users').column('coins').compile()).message).toMatch(/CreateIndexNode/);
    expect(refusal(() => db.withSchema('main').selectFrom('notes').selectAll().compile()).message).toMatch(/another schema \("main.notes"\)/);
  });

  it('lets a migration change its own tables, views and indexes, and point foreign keys at its tables and users only', () => {
    const migration = handle({ schemaChanges: true, exceptions: new Map([['users', 'index']]) });
    expect(() =>
      migration.schema
        .createTable('notes')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .compile(),
    ).not.toThrow();
    expect(() =>
      migration.schema
        .createTable('notes')
        .addColumn('user_id', 'integer', (c) => c.references('users.id'))
        .compile(),
    ).not.toThrow();
    expect(() => migration.schema.createIndex('notes_user').on('notes').column('user_id').compile()).not.toThrow();
    expect(() => migration.schema.alterTable('notes').addColumn('tag', 'varchar(20)').compile()).not.toThrow();
    expect(() => migration.schema.dropTable('note_tags').compile()).not.toThrow();
    expect(() => migration.schema.createIndex('users_coins').on('users').column('coins').compile()).not.toThrow();

    expect(refusal(() => migration.schema.alterTable('users').addColumn('x', 'integer').compile()).message).toMatch(/may not write table "users"/);
    expect(refusal(() => migration.schema.dropTable('sessions').compile()).table).toBe('sessions');
    expect(refusal(() => migration.schema.createIndex('s_user').on('sessions').column('user_id').compile()).message).toMatch(/may not index table "sessions"/);
    expect(refusal(() => migration.schema.alterTable('notes').renameTo('users').compile()).table).toBe('users');
    expect(
      refusal(() =>
        migration.schema
          .createTable('notes')
          .addColumn('s', 'integer', (c) => c.references('sessions.id'))
          .compile(),
      ).message,
    ).toMatch(/may not point a foreign key at table "sessions"/);
    expect(refusal(() => migration.schema.createView('rich').as(migration.selectFrom('notes').select('id')).compile()).message).toMatch(/may not create or drop view "rich"/);
    expect(refusal(() => migration.schema.createView('note_tags').as(migration.selectFrom('users').select('id')).compile()).table).toBe('users');
    expect(refusal(() => migration.schema.createTable('notes').addColumn('id', 'integer').addForeignKeyConstraint('fk', ['id'], 'other_plugin_rows', ['id']).compile()).table).toBe(
      'other_plugin_rows',
    );
  });

  it('grants what an exception names, and no more', () => {
    const reader = handle({ exceptions: new Map([['users', 'read']]) });
    expect(() => reader.selectFrom('users').select('coins').compile()).not.toThrow();
    expect(refusal(() => reader.updateTable('users').set({ coins: 1 }).compile()).table).toBe('users');
    const writer = handle({ exceptions: new Map([['users', 'write']]) });
    expect(() => writer.updateTable('users').set({ coins: 1 }).compile()).not.toThrow();
    expect(refusal(() => writer.selectFrom('sessions').selectAll().compile()).table).toBe('sessions');
  });

  it('keeps checking on a handle given more tables', () => {
    const wider = db.withTables<{ audit_log: { id: number } }>();
    expect(refusal(() => wider.selectFrom('audit_log').selectAll().compile()).table).toBe('audit_log');
  });
});
