// ctx.accounts (sdk/server/accounts.ts): the changes plugins make to an account besides its coins.
// Each is one conditional UPDATE of users, so two racing requests can never both pass a limit; a
// caller's transaction may reach us through its plugin's checked handle, and the write is the core's.
import { sql, type Kysely } from 'kysely';
import {
  ACCOUNT_RESOURCES,
  type AccountContact,
  type AccountResources,
  type CoreDatabase,
  type DatabaseDialect,
  type PluginAccounts,
  type ResourceGrant,
  type WalletTransaction,
} from '../../sdk/server';

function positiveInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`accounts: ${what} must be a positive whole number`);
}

export class AccountChanges implements PluginAccounts {
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly dialect: DatabaseDialect,
  ) {}

  private handle(trx?: WalletTransaction): Kysely<CoreDatabase> {
    return trx ? trx.withoutPlugins() : this.db;
  }

  async resources(userId: number, trx?: WalletTransaction): Promise<AccountResources | null> {
    const row = await this.handle(trx).selectFrom('users').select(ACCOUNT_RESOURCES).where('id', '=', userId).executeTakeFirst();
    if (!row) return null;
    const totals = {} as AccountResources;
    for (const resource of ACCOUNT_RESOURCES) totals[resource] = Number(row[resource]);
    return totals;
  }

  async lockAccount(userId: number, trx: WalletTransaction): Promise<boolean> {
    const db = this.handle(trx);
    if (this.dialect === 'sqlite') {
      // SQLite locks the whole file for writing: a no-op write takes that lock now, not at the first real write
      const touched = await db
        .updateTable('users')
        .set((eb) => ({ id: eb.ref('id') }))
        .where('id', '=', userId)
        .executeTakeFirst();
      return Number(touched.numUpdatedRows) === 1;
    }
    return (await db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst()) !== undefined;
  }

  async contact(userId: number): Promise<AccountContact | null> {
    const row = await this.db.selectFrom('users').select(['email', 'first_name', 'last_name', 'username']).where('id', '=', userId).executeTakeFirst();
    return row ? { email: row.email, firstName: row.first_name, lastName: row.last_name, username: row.username } : null;
  }

  async grantResource(userId: number, { resource, amount, max, trx }: ResourceGrant): Promise<boolean> {
    if (!ACCOUNT_RESOURCES.includes(resource)) throw new TypeError(`accounts: "${String(resource)}" is not an account resource`);
    positiveInteger(amount, 'the amount');
    if (!Number.isSafeInteger(max)) throw new TypeError('accounts: the maximum must be a whole number');
    const raised = await this.handle(trx)
      .updateTable('users')
      .set(resource, sql<number>`${sql.ref(resource)} + ${amount}`)
      .where('id', '=', userId)
      .where(sql.ref(resource), '<=', max - amount)
      .executeTakeFirst();
    return Number(raised.numUpdatedRows) === 1;
  }

  async addAfkMinutes(userId: number, minutes: number, trx?: WalletTransaction): Promise<void> {
    positiveInteger(minutes, 'the minutes');
    await this.handle(trx)
      .updateTable('users')
      .set({ minutes_afk: sql<number>`minutes_afk + ${minutes}` })
      .where('id', '=', userId)
      .execute();
  }
}
