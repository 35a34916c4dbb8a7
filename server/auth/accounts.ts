// Creating accounts and checking credentials: the one place that knows how a user row is made
// (used by the auth plugin through ctx.auth and by `orepanel user create`).
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ACCOUNT_RULES, httpError, type CoreDatabase, type CreatedUser, type CredentialUser, type NewUserInput } from '../../sdk/server';
import { isUniqueViolation } from '../db/connect';
import type { SettingsStore } from '../settings/store';
import { burnVerification, hashPassword, needsRehash, verifyPassword } from './password';
import { deleteUnlessLastRoot } from './root-holders';

export interface FieldProblem {
  field: string;
  message: string;
}

const USERNAME = new RegExp(ACCOUNT_RULES.username.pattern);
const EMAIL = new RegExp(ACCOUNT_RULES.email.pattern);

/** The same rules as the registration route's schema, for callers without one (the CLI). */
export function newUserProblems(input: NewUserInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const { username, email, password, name } = ACCOUNT_RULES;
  if (input.username.length < username.minLength || input.username.length > username.maxLength || !USERNAME.test(input.username)) {
    problems.push({ field: 'username', message: `Username must be ${username.minLength}–${username.maxLength} characters: letters, digits, _ . or -.` });
  }
  if (input.email.length > email.maxLength || !EMAIL.test(input.email)) problems.push({ field: 'email', message: 'Invalid email address' });
  if (input.password.length < password.minLength || input.password.length > password.maxLength) {
    problems.push({ field: 'password', message: `Password must be ${password.minLength}–${password.maxLength} characters.` });
  }
  for (const [field, value] of [
    ['first_name', input.firstName],
    ['last_name', input.lastName],
  ] as const) {
    if (value.trim().length < name.minLength || value.length > name.maxLength) {
      problems.push({ field, message: `${field === 'first_name' ? 'First' : 'Last'} name must be ${name.minLength}–${name.maxLength} characters.` });
    }
  }
  return problems;
}

const USERNAME_TAKEN = () => httpError(409, 'USERNAME_TAKEN', 'This username is already taken.', 'username');
const EMAIL_TAKEN = () => httpError(409, 'EMAIL_TAKEN', 'An account with this email address already exists.', 'email');

/** Told the new password right after it is saved (the panel account's password follows ours). */
export type PasswordSetListener = (userId: number, password: string) => void;

export class Accounts {
  private readonly passwordListeners: PasswordSetListener[] = [];

  constructor(
    private readonly db: Kysely<CoreDatabase>,
    private readonly settings: SettingsStore,
  ) {}

  /** A listener must not throw nor wait: it runs inside the password change and must never fail it. */
  onPasswordSet(listener: PasswordSetListener): void {
    this.passwordListeners.push(listener);
  }

  private async duplicateError(usernameLower: string, emailLower: string) {
    const clash = await this.db
      .selectFrom('users')
      .select(['username_lower', 'email_lower'])
      .where((eb) => eb.or([eb('username_lower', '=', usernameLower), eb('email_lower', '=', emailLower)]))
      .executeTakeFirst();
    if (!clash) return null;
    return clash.username_lower === usernameLower ? USERNAME_TAKEN() : EMAIL_TAKEN();
  }

  /** Creates an account with the sign-up resources from the settings (reference: default_*). */
  async create(input: NewUserInput): Promise<CreatedUser> {
    const problems = newUserProblems(input);
    if (problems.length > 0) throw httpError(400, 'VALIDATION_ERROR', problems[0].message, problems[0].field);
    const role = input.role ?? 1;
    const roleExists = await this.db.selectFrom('roles').select('id').where('id', '=', role).executeTakeFirst();
    if (!roleExists) throw httpError(400, 'VALIDATION_ERROR', `Role ${role} does not exist.`, 'role');

    const usernameLower = input.username.toLowerCase();
    const emailLower = input.email.toLowerCase();
    const duplicate = await this.duplicateError(usernameLower, emailLower);
    if (duplicate) throw duplicate;

    const defaults = await this.settings.getMany(['default_ram', 'default_disk', 'default_cpu', 'default_ports', 'default_databases', 'default_backups', 'default_server_slots']);
    const amount = (key: string) => Math.max(0, Math.trunc(Number(defaults[key]) || 0));
    const uuid = randomUUID();
    const now = new Date().toISOString();
    try {
      await this.db
        .insertInto('users')
        .values({
          uuid,
          username: input.username,
          username_lower: usernameLower,
          email: input.email,
          email_lower: emailLower,
          first_name: input.firstName.trim(),
          last_name: input.lastName.trim(),
          password_hash: await hashPassword(input.password),
          role_id: role,
          avatar: null,
          background: null,
          ram: amount('default_ram'),
          disk: amount('default_disk'),
          cpu: amount('default_cpu'),
          ports: amount('default_ports'),
          databases: amount('default_databases'),
          backups: amount('default_backups'),
          server_slots: amount('default_server_slots'),
          ban_reason: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    } catch (error) {
      // two sign-ups racing for the same name: the unique index decides, the answer stays a 409
      if (isUniqueViolation(error)) throw (await this.duplicateError(usernameLower, emailLower)) ?? error;
      throw error;
    }
    const row = await this.db.selectFrom('users').select(['id', 'uuid', 'username']).where('uuid', '=', uuid).executeTakeFirstOrThrow();
    return { id: row.id, uuid: row.uuid, username: row.username };
  }

  /** True when `password` is the user's (spends the time of one check when the user is missing). */
  async checkPassword(userId: number, password: string): Promise<boolean> {
    const user = await this.db.selectFrom('users').select('password_hash').where('id', '=', userId).executeTakeFirst();
    if (!user) {
      await burnVerification(password);
      return false;
    }
    return verifyPassword(password, user.password_hash);
  }

  async setPassword(userId: number, password: string): Promise<void> {
    const rule = ACCOUNT_RULES.password;
    if (password.length < rule.minLength || password.length > rule.maxLength) {
      throw httpError(400, 'VALIDATION_ERROR', `Password must be ${rule.minLength}–${rule.maxLength} characters.`, 'password');
    }
    await this.db
      .updateTable('users')
      .set({ password_hash: await hashPassword(password), updated_at: new Date().toISOString() })
      .where('id', '=', userId)
      .execute();
    for (const listener of this.passwordListeners) listener(userId, password);
  }

  /** See PluginAuth.deleteUser: refused (409 LAST_ADMINISTRATOR) when it would leave no administrator. */
  async deleteUser(userId: number, beforeDelete?: () => Promise<void>): Promise<boolean> {
    return deleteUnlessLastRoot(this.db, userId, beforeDelete);
  }

  /** The permissions the user's role grants, read now (not from the role cache): for checks that hand out a user's rights. */
  async permissionsOf(userId: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('role_permissions')
      .innerJoin('users', 'users.role_id', 'role_permissions.role_id')
      .select('role_permissions.permission')
      .where('users.id', '=', userId)
      .orderBy('role_permissions.permission')
      .execute();
    return rows.map((r) => r.permission);
  }

  async lookupUserId(login: string): Promise<number | null> {
    const key = login.trim().toLowerCase();
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('username_lower', '=', key), eb('email_lower', '=', key)]))
      .executeTakeFirst();
    return row?.id ?? null;
  }

  async checkCredentials(login: string, password: string): Promise<CredentialUser | null> {
    const key = login.trim().toLowerCase();
    const user = await this.db
      .selectFrom('users')
      .select(['id', 'uuid', 'username', 'password_hash', 'banned', 'ban_reason', 'two_fa_enabled'])
      .where((eb) => eb.or([eb('username_lower', '=', key), eb('email_lower', '=', key)]))
      .executeTakeFirst();
    if (!user) {
      await burnVerification(password);
      return null;
    }
    if (!(await verifyPassword(password, user.password_hash))) return null;
    if (needsRehash(user.password_hash)) {
      await this.db
        .updateTable('users')
        .set({ password_hash: await hashPassword(password), updated_at: new Date().toISOString() })
        .where('id', '=', user.id)
        .execute();
    }
    return {
      id: user.id,
      uuid: user.uuid,
      username: user.username,
      banned: user.banned === 1,
      banReason: user.ban_reason,
      twoFaEnabled: user.two_fa_enabled === 1,
    };
  }
}
