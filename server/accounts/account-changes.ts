// ctx.accounts (sdk/server/accounts.ts): the changes plugins make to an account besides its coins.
// Each is one conditional UPDATE of users, so two racing requests can never both pass a limit; a
// caller's transaction may reach us through its plugin's checked handle, and the write is the core's.
import { sql, type Kysely } from 'kysely';
import { ACCOUNT_RESOURCES, type AccountResources, type CoreDatabase, type PluginAccounts, type ResourceGrant, type WalletTransaction } from '../../sdk/server';

function positiveInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`accounts: ${what} must be a positive whole number`);
}

export class AccountChanges implements PluginAccounts {
  constructor(private readonly db: Kysely<CoreDatabase>) {}

  private handle(trx?: WalletTransaction): Kysely<CoreDatabase> {
    return trx ? trx.withoutPlugins() : this.db;
  }

  async resources(userId: number): Promise<AccountResources | null> {
    const row = await this.db.selectFrom('users').select(ACCOUNT_RESOURCES).where('id', '=', userId).executeTakeFirst();
    if (!row) return null;
    const totals = {} as AccountResources;
    for (const resource of ACCOUNT_RESOURCES) totals[resource] = Number(row[resource]);
    return totals;
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
