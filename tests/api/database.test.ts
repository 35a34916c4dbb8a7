// The core schema on each dialect: migrations idempotent, seeded roles, case-insensitive unique
// accounts enforced by the database itself, identity sequences past the seeded rows, and password
// rehash on login.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { Accounts } from '../../server/auth/accounts';
import { openMigratedDatabase } from '../../server/app';
import { isUniqueViolation } from '../../server/db/connect';
import { CORE_MIGRATIONS } from '../../server/db/core-migrations';
import { CORE_MIGRATION_TABLE, runMigrations } from '../../server/db/migrate';
import { CURRENT_PARAMS } from '../../server/auth/password';
import { oldHash, register, PASSWORD, startPanel, testDialects, type TestPanel } from './harness';

describe.each(testDialects())('core schema on %s', (dialect) => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startPanel(dialect);
  });
  afterAll(async () => {
    await panel?.close();
  });

  it('applies the core migrations once; running them again changes nothing', async () => {
    const { database } = panel.services;
    expect(await runMigrations(database.db as unknown as Kysely<unknown>, database.dialect, CORE_MIGRATION_TABLE, CORE_MIGRATIONS)).toEqual([]);
    const again = await openMigratedDatabase(panel.services.config);
    await again.close();
    expect(await database.db.selectFrom('roles').select('id').execute()).toHaveLength(8);
  });

  it('seeds the eight roles with their colour, 7 and 8 holding admin.root', async () => {
    const { db } = panel.services.database;
    const roles = await db.selectFrom('roles').select(['id', 'real_name', 'color']).orderBy('id').execute();
    expect(roles.map((r) => r.real_name)).toEqual(['Default', 'VIP', 'Support Buddy', 'Support', 'Support LVL 3', 'Support LVL 4', 'Admin', 'Administrator']);
    expect(new Set(roles.map((r) => r.color))).toEqual(new Set(['#808080']));
    const grants = await db.selectFrom('role_permissions').select(['role_id', 'permission']).orderBy('role_id').execute();
    expect(grants).toEqual([
      { role_id: 7, permission: 'admin.root' },
      { role_id: 8, permission: 'admin.root' },
    ]);
  });

  it('gives a new role the next id after the seeded ones', async () => {
    const { db } = panel.services.database;
    await db.insertInto('roles').values({ name: 'helper', real_name: 'Helper' }).execute();
    const row = await db.selectFrom('roles').select(['id', 'color']).where('name', '=', 'helper').executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 9, color: '#808080' });
  });

  it('enforces case-insensitive unique usernames and emails in the database', async () => {
    const { body } = await register(panel.app);
    const { db } = panel.services.database;
    const now = new Date().toISOString();
    const base = {
      uuid: crypto.randomUUID(),
      username: 'other',
      username_lower: 'other',
      email: 'o@example.com',
      email_lower: 'o@example.com',
      first_name: 'O',
      last_name: 'O',
      password_hash: 'x',
      avatar: null,
      background: null,
      ban_reason: null,
      created_at: now,
      updated_at: now,
    };
    const dupName = db
      .insertInto('users')
      .values({ ...base, username: body.username.toUpperCase(), username_lower: body.username.toLowerCase() })
      .execute();
    await expect(dupName).rejects.toSatisfy(isUniqueViolation);
    const dupEmail = db
      .insertInto('users')
      .values({ ...base, uuid: crypto.randomUUID(), email_lower: body.email.toLowerCase() })
      .execute();
    await expect(dupEmail).rejects.toSatisfy(isUniqueViolation);
  });

  it('refuses an unknown role and reports the first invalid field when creating accounts directly', async () => {
    const accounts = new Accounts(panel.services.database.db, panel.services.settings);
    await expect(accounts.create({ username: 'roleless', email: 'roleless@example.com', firstName: 'R', lastName: 'L', password: PASSWORD, role: 99 })).rejects.toMatchObject({
      statusCode: 400,
      field: 'role',
    });
    await expect(accounts.create({ username: 'x y', email: 'bad', firstName: '', lastName: 'L', password: 'short' })).rejects.toMatchObject({ statusCode: 400, field: 'username' });
  });

  it('upgrades a weaker password hash at the next good login', async () => {
    const { body } = await register(panel.app);
    const { db } = panel.services.database;
    await db
      .updateTable('users')
      .set({ password_hash: oldHash(PASSWORD, CURRENT_PARAMS.ln - 2) })
      .where('username', '=', body.username)
      .execute();
    const res = await panel.app.inject({ method: 'POST', url: '/api/user/auth/login', payload: { login: body.username, password: PASSWORD } });
    expect(res.statusCode).toBe(200);
    const row = await db.selectFrom('users').select('password_hash').where('username', '=', body.username).executeTakeFirstOrThrow();
    expect(row.password_hash).toContain(`ln=${CURRENT_PARAMS.ln},`);
  });

  it('records when an administrator changed a setting', async () => {
    await panel.services.settings.set('currency', 'RON');
    const entry = await panel.services.settings.getEntry('currency');
    expect(entry.value).toBe('RON');
    expect(entry.updatedAt).not.toBeNull();
    const untouched = await panel.services.settings.getEntry('currency_symbol');
    expect(untouched).toEqual({ value: '€', updatedAt: null });
  });
});
