// ctx.accounts (sdk/server/accounts.ts): the changes plugins make to an account besides its coins.
// The resource and AFK changes are each one conditional UPDATE of users, so two racing requests can
// never both pass a limit; a caller's transaction may reach us through its plugin's checked handle,
// and the write is the core's. Profile fields and the support PIN are the account owner's own edits.
import { randomInt } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import {
  ACCOUNT_RESOURCES,
  httpError,
  type AccountContact,
  type AccountProfile,
  type AccountResources,
  type CoreDatabase,
  type DatabaseDialect,
  type PluginAccounts,
  type ProfileChanges,
  type ResourceGrant,
  type SignInState,
  type WalletTransaction,
} from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import { asCoreTransaction } from '../db/plugin-view';

const SUPPORT_PIN_ATTEMPTS = 8;

function positiveInteger(value: number, what: string): void {
  if (!Number.isSafeInteger(value) || value < 1) throw new TypeError(`accounts: ${what} must be a positive whole number`);
}

export class AccountChanges implements PluginAccounts {
  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly dialect: DatabaseDialect,
  ) {}

  private handle(trx?: WalletTransaction): Kysely<CoreDatabase> {
    return trx ? asCoreTransaction(trx) : this.db;
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

  async confirmEmail(userId: number, email: string): Promise<'verified' | 'already' | null> {
    const lower = email.toLowerCase();
    const result = await this.db.updateTable('users').set({ verified: 1 }).where('id', '=', userId).where('email_lower', '=', lower).where('verified', '=', 0).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) return 'verified';
    const still = await this.db.selectFrom('users').select('id').where('id', '=', userId).where('email_lower', '=', lower).executeTakeFirst();
    return still ? 'already' : null;
  }

  async findByEmail(email: string): Promise<number | null> {
    const row = await this.db.selectFrom('users').select('id').where('email_lower', '=', email.trim().toLowerCase()).executeTakeFirst();
    return row?.id ?? null;
  }

  async signInState(userId: number): Promise<SignInState | null> {
    const row = await this.db.selectFrom('users').select(['banned', 'ban_reason', 'two_fa_enabled']).where('id', '=', userId).executeTakeFirst();
    return row ? { banned: row.banned === 1, banReason: row.ban_reason, twoFactorEnabled: row.two_fa_enabled === 1 } : null;
  }

  async setTwoFactorEnabled(userId: number, enabled: boolean, trx?: WalletTransaction): Promise<void> {
    await this.handle(trx)
      .updateTable('users')
      .set({ two_fa_enabled: enabled ? 1 : 0, updated_at: new Date().toISOString() })
      .where('id', '=', userId)
      .execute();
  }

  async profile(userId: number): Promise<AccountProfile | null> {
    const row = await this.db.selectFrom('users').select(['first_name', 'last_name', 'email', 'avatar', 'background', 'verified']).where('id', '=', userId).executeTakeFirst();
    if (!row) return null;
    return { firstName: row.first_name, lastName: row.last_name, email: row.email, avatar: row.avatar, background: row.background, verified: row.verified === 1 };
  }

  async updateProfile(userId: number, changes: ProfileChanges): Promise<{ emailChanged: boolean }> {
    const set: { first_name?: string; last_name?: string; email?: string; email_lower?: string; verified?: number; avatar?: string | null; background?: string | null } = {};
    if (changes.firstName !== undefined) set.first_name = changes.firstName;
    if (changes.lastName !== undefined) set.last_name = changes.lastName;
    if (changes.avatar !== undefined) set.avatar = changes.avatar;
    if (changes.background !== undefined) set.background = changes.background;
    let emailChanged = false;
    if (changes.email !== undefined) {
      const current = await this.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      if (current && changes.email !== current.email) {
        const lower = changes.email.toLowerCase();
        const clash = await this.db.selectFrom('users').select('id').where('email_lower', '=', lower).where('id', '!=', userId).executeTakeFirst();
        if (clash) throw httpError(409, 'EMAIL_TAKEN', 'An account with this email address already exists.', 'email');
        set.email = changes.email;
        set.email_lower = lower;
        // only a different address needs proving again, not a change of letter case
        emailChanged = lower !== current.email.toLowerCase();
        if (emailChanged) set.verified = 0;
      }
    }
    if (Object.keys(set).length === 0) return { emailChanged };
    try {
      await this.db
        .updateTable('users')
        .set({ ...set, updated_at: new Date().toISOString() })
        .where('id', '=', userId)
        .execute();
    } catch (error) {
      // another account took the address at the same moment: the unique index decides
      if (isUniqueViolation(error)) throw httpError(409, 'EMAIL_TAKEN', 'An account with this email address already exists.', 'email');
      throw error;
    }
    return { emailChanged };
  }

  async supportPin(userId: number): Promise<string | null> {
    const row = await this.db.selectFrom('users').select('support_pin').where('id', '=', userId).executeTakeFirst();
    return row?.support_pin ?? null;
  }

  async newSupportPin(userId: number): Promise<string> {
    // a million values: a clash with another account's PIN is rare, and retried
    for (let attempt = 0; attempt < SUPPORT_PIN_ATTEMPTS; attempt++) {
      const pin = String(randomInt(0, 1_000_000)).padStart(6, '0');
      const taken = await this.db.selectFrom('users').select('id').where('support_pin', '=', pin).where('id', '!=', userId).executeTakeFirst();
      if (taken) continue;
      await this.db.updateTable('users').set({ support_pin: pin, updated_at: new Date().toISOString() }).where('id', '=', userId).execute();
      return pin;
    }
    throw new Error('could not find a free support PIN');
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
