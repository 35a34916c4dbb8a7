// ctx.accounts on a real (in-memory SQLite) core schema: grants stop at their maximum, bad numbers
// are refused before any SQL, the lock and reads run in the caller's transaction, and a missing
// account has no resources, contact or lock.
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoreDatabase } from '../../sdk/server';
import { CORE_MIGRATIONS } from '../db/core-migrations';
import { CORE_MIGRATION_TABLE, runMigrations } from '../db/migrate';
import { asPluginTransaction } from '../db/plugin-view';
import { AccountChanges } from './account-changes';

describe('AccountChanges', () => {
  const db = new Kysely<CoreDatabase>({ dialect: new SqliteDialect({ database: new BetterSqlite3(':memory:') }) });
  const accounts = new AccountChanges(db, 'sqlite');
  let userId = 0;

  beforeAll(async () => {
    await runMigrations(db as unknown as Kysely<unknown>, 'sqlite', CORE_MIGRATION_TABLE, CORE_MIGRATIONS);
    const now = new Date().toISOString();
    const row = {
      uuid: 'u-1',
      username: 'Ann',
      username_lower: 'ann',
      email: 'a@example.com',
      email_lower: 'a@example.com',
      first_name: 'A',
      last_name: 'B',
      password_hash: 'x',
      created_at: now,
      updated_at: now,
    };
    userId = Number((await db.insertInto('users').values(row).executeTakeFirstOrThrow()).insertId);
  });
  afterAll(() => db.destroy());

  it('grants a resource up to its maximum, never past it', async () => {
    expect(await accounts.grantResource(userId, { resource: 'ram', amount: 512, max: 1024 })).toBe(true);
    expect(await accounts.grantResource(userId, { resource: 'ram', amount: 512, max: 1024 })).toBe(true);
    expect(await accounts.grantResource(userId, { resource: 'ram', amount: 1, max: 1024 })).toBe(false);
    expect((await accounts.resources(userId))?.ram).toBe(1024);
    expect(await accounts.grantResource(userId + 1, { resource: 'ram', amount: 1, max: 10 })).toBe(false);
  });

  it('adds AFK minutes, inside a transaction too', async () => {
    await accounts.addAfkMinutes(userId, 2);
    await db.transaction().execute((trx) => accounts.addAfkMinutes(userId, 1, asPluginTransaction(trx)));
    expect((await db.selectFrom('users').select('minutes_afk').where('id', '=', userId).executeTakeFirstOrThrow()).minutes_afk).toBe(3);
  });

  it('refuses amounts that are not positive whole numbers and names that are not resources', async () => {
    await expect(accounts.grantResource(userId, { resource: 'disk', amount: 0, max: 10 })).rejects.toThrow(/positive whole number/);
    await expect(accounts.grantResource(userId, { resource: 'disk', amount: 1.5, max: 10 })).rejects.toThrow(/positive whole number/);
    await expect(accounts.grantResource(userId, { resource: 'coins' as never, amount: 1, max: 10 })).rejects.toThrow(/not an account resource/);
    await expect(accounts.addAfkMinutes(userId, -1)).rejects.toThrow(/positive whole number/);
  });

  it('has no resources, contact or lock for an account that does not exist', async () => {
    expect(await accounts.resources(userId + 100)).toBeNull();
    expect(await accounts.contact(userId + 100)).toBeNull();
    expect(await db.transaction().execute((trx) => accounts.lockAccount(userId + 100, asPluginTransaction(trx)))).toBe(false);
  });

  it("locks an existing account inside the caller's transaction and reads its totals there", async () => {
    const totals = await db.transaction().execute(async (trx) => {
      expect(await accounts.lockAccount(userId, asPluginTransaction(trx))).toBe(true);
      return accounts.resources(userId, asPluginTransaction(trx));
    });
    expect(totals).toMatchObject({ ram: 1024, disk: 0, server_slots: 0 });
  });

  it('saves profile fields; a new address is unverified, another letter case is not, a taken one is 409', async () => {
    await db.updateTable('users').set({ verified: 1 }).where('id', '=', userId).execute();
    expect(await accounts.updateProfile(userId, { email: 'A@example.com', avatar: 'https://img.example/a.png' })).toEqual({ emailChanged: false });
    expect(await accounts.profile(userId)).toMatchObject({ email: 'A@example.com', avatar: 'https://img.example/a.png', verified: true });
    const now = new Date().toISOString();
    const other = {
      uuid: 'u-2',
      username: 'Bob',
      username_lower: 'bob',
      email: 'b@example.com',
      email_lower: 'b@example.com',
      first_name: 'B',
      last_name: 'C',
      password_hash: 'x',
      created_at: now,
      updated_at: now,
    };
    await db.insertInto('users').values(other).execute();
    await expect(accounts.updateProfile(userId, { email: 'B@EXAMPLE.com' })).rejects.toMatchObject({ statusCode: 409, code: 'EMAIL_TAKEN', field: 'email' });
    expect(await accounts.updateProfile(userId, { email: 'new@example.com', firstName: 'Anna' })).toEqual({ emailChanged: true });
    expect(await accounts.profile(userId)).toMatchObject({ email: 'new@example.com', firstName: 'Anna', verified: false });
    await accounts.updateProfile(userId, { email: 'a@example.com' });
  });

  it('confirms the address only while the account still has it', async () => {
    await db.updateTable('users').set({ verified: 0 }).where('id', '=', userId).execute();
    expect(await accounts.confirmEmail(userId, 'old@example.com')).toBeNull();
    expect((await accounts.profile(userId))?.verified).toBe(false);
    expect(await accounts.confirmEmail(userId, 'A@EXAMPLE.COM')).toBe('verified');
    expect((await accounts.profile(userId))?.verified).toBe(true);
    expect(await accounts.confirmEmail(userId, 'a@example.com')).toBe('already');
  });

  it('finds an account by its address in any letter case, and what signing in as it depends on', async () => {
    expect(await accounts.findByEmail(' A@Example.COM ')).toBe(userId);
    expect(await accounts.findByEmail('nobody@example.com')).toBeNull();
    expect(await accounts.signInState(userId)).toEqual({ banned: false, banReason: null, twoFactorEnabled: false });
    await db.transaction().execute((trx) => accounts.setTwoFactorEnabled(userId, true, asPluginTransaction(trx)));
    expect((await accounts.signInState(userId))?.twoFactorEnabled).toBe(true);
    await accounts.setTwoFactorEnabled(userId, false);
    expect(await accounts.signInState(userId + 100)).toBeNull();
  });

  it('makes a support PIN of six digits and keeps it on the account', async () => {
    expect(await accounts.supportPin(userId)).toBeNull();
    const pin = await accounts.newSupportPin(userId);
    expect(pin).toMatch(/^\d{6}$/);
    expect(await accounts.supportPin(userId)).toBe(pin);
  });

  it('answers the contact a mail about the account needs', async () => {
    expect(await accounts.contact(userId)).toEqual({ email: 'a@example.com', firstName: 'Anna', lastName: 'B', username: 'Ann' });
  });
});
