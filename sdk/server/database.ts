// Database: Kysely over SQLite, PostgreSQL or MySQL/MariaDB. Timestamps are ISO-8601 UTC strings,
// booleans are integers 0/1 (portable across the three), coin amounts are bigint columns read as
// JavaScript numbers.
import {
  sql,
  type ColumnDefinitionBuilder,
  type ColumnType,
  type SelectType,
  type CreateTableBuilder,
  type Generated,
  type InsertQueryBuilder,
  type InsertResult,
  type Kysely,
} from 'kysely';

export type DatabaseDialect = 'sqlite' | 'postgres' | 'mysql';

export interface UsersTable {
  id: Generated<number>;
  uuid: string;
  username: string;
  /** lower-cased copy: usernames are unique regardless of case */
  username_lower: string;
  email: string;
  /** lower-cased copy: emails are unique regardless of case */
  email_lower: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  role_id: Generated<number>;
  avatar: string | null;
  background: string | null;
  coins: Generated<number>;
  ram: Generated<number>;
  disk: Generated<number>;
  cpu: Generated<number>;
  ports: Generated<number>;
  databases: Generated<number>;
  backups: Generated<number>;
  server_slots: Generated<number>;
  minutes_afk: Generated<number>;
  verified: Generated<number>;
  two_fa_enabled: Generated<number>;
  banned: Generated<number>;
  ban_reason: string | null;
  /** the 6-digit support PIN a user tells staff (POST /api/user/session/newPin); null until made */
  support_pin: string | null;
  created_at: string;
  updated_at: string;
}

export interface RolesTable {
  id: Generated<number>;
  name: string;
  real_name: string;
  color: Generated<string>;
}

export interface RolePermissionsTable {
  id: Generated<number>;
  role_id: number;
  permission: string;
}

export interface SessionsTable {
  id: Generated<number>;
  /** the non-secret marker sent in the user_token cookie */
  public_id: string;
  user_id: number;
  /** SHA-256 (hex) of the secret op_session token; the token itself is never stored */
  token_hash: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
  ip: string | null;
  user_agent: string | null;
  two_fa_pending: Generated<number>;
  /** when this session last proved a TOTP code (turning 2FA off needs a recent one) */
  two_fa_verified_at: string | null;
}

export interface SettingsTable {
  key: string;
  value: string;
  /** null until an administrator changes the value */
  updated_at: string | null;
}

export interface PluginStatesTable {
  id: string;
  enabled: number;
  installed_version: string | null;
  updated_at: string;
}

/** Security events and administrator actions (append-only). */
export interface AuditLogTable {
  id: Generated<number>;
  /** who did it; null for an anonymous request (a failed login) or the system */
  actor_user_id: number | null;
  /** whose account it concerns; null when none (or the account no longer exists) */
  target_user_id: number | null;
  /** dot-separated, e.g. auth.login, auth.login_failed, admin.user.update */
  action: string;
  /** a JSON object as text */
  details: string;
  ip: string | null;
  created_at: string;
}

/** Mail templates, edited by administrators; placeholders are written ${name}. */
export interface MailTemplatesTable {
  id: Generated<number>;
  /** what the panel and plugins send it by, e.g. reset_password */
  name: string;
  description: Generated<string>;
  subject: string;
  html: string;
  text: string;
  created_at: string;
  updated_at: string;
}

/** The persistent mail queue (rendered mails), sent by the mail job under a database lease. */
export interface MailQueueTable {
  id: Generated<number>;
  to_address: string;
  template: string;
  subject: string;
  html: string;
  text: string;
  /** pending → sent, or failed after the last attempt */
  status: Generated<'pending' | 'sent' | 'failed'>;
  attempts: Generated<number>;
  next_attempt_at: string;
  lease_until: string | null;
  lease_owner: string | null;
  last_error: string | null;
  sent_at: string | null;
  created_at: string;
}

/** The wallet's append-only ledger: one row per balance change (see PluginWallet). Read-only for plugins. */
export interface WalletLedgerTable {
  id: Generated<number>;
  user_id: number;
  /** signed coins: + credit, − debit */
  delta: number;
  balance_after: number;
  kind: string;
  reference: string | null;
  idempotency_key: string;
  reason: string | null;
  actor_user_id: number | null;
  created_at: string;
}

/** Per-user counters plugins publish (referrals made, links completed…); the leaderboard reads them. */
export interface UserCountersTable {
  user_id: number;
  name: string;
  value: number;
  updated_at: string;
}

/** A table's columns as a plugin sees them: read, never inserted or updated (the types refuse both). */
export type ReadOnlyColumns<T> = { readonly [K in keyof T]: ColumnType<SelectType<T[K]>, never, never> };

/** The view every plugin reads accounts through (never the users table). */
export const USER_PUBLIC_VIEW = 'user_public';

/**
 * user_public — the core's read-only view of every account, for plugins: what profiles, leaderboards
 * and gift forms show, and the flags that decide whether an account takes part (banned, verified).
 * Its shape is the core's promise to plugins: a core migration that changes users keeps this view.
 * Never the email, names, password, two-factor or session data — those go through core services.
 */
export interface UserPublicView {
  id: number;
  uuid: string;
  username: string;
  /** lower-cased copy of username, for case-insensitive search */
  username_lower: string;
  avatar: string | null;
  background: string | null;
  role_id: number;
  /** the role's display name (roles.real_name); null when the role was deleted */
  role_name: string | null;
  role_color: string | null;
  coins: number;
  minutes_afk: number;
  /** 0/1 */
  banned: number;
  /** 0/1: the email address was confirmed */
  verified: number;
  created_at: string;
}

/**
 * What a plugin's database handle (ctx.db) may read besides the tables it declares in plugin.json
 * `tables`: nothing here may be written. Add your own tables with `ctx.db.withTables<Tables>()`.
 */
export type PluginReadableDatabase = {
  user_public: ReadOnlyColumns<UserPublicView>;
  user_counters: ReadOnlyColumns<UserCountersTable>;
};

/** The names of PluginReadableDatabase, as the host's check of plugin queries reads them. */
export const PLUGIN_READABLE_TABLES: readonly (keyof PluginReadableDatabase)[] = Object.freeze([USER_PUBLIC_VIEW, 'user_counters']);

export interface CoreDatabase {
  audit_log: AuditLogTable;
  user_counters: UserCountersTable;
  wallet_ledger: WalletLedgerTable;
  mail_templates: MailTemplatesTable;
  mail_queue: MailQueueTable;
  users: UsersTable;
  roles: RolesTable;
  role_permissions: RolePermissionsTable;
  sessions: SessionsTable;
  settings: SettingsTable;
  plugin_states: PluginStatesTable;
}

/** Dialect-aware pieces a migration needs so that one migration runs unchanged on all three. */
export interface MigrationKit {
  dialect: DatabaseDialect;
  /** `CREATE TABLE` with the dialect's table options (MySQL: InnoDB, utf8mb4). */
  createTable(name: string): CreateTableBuilder<string, never>;
  /** Makes an integer column the auto-incremented primary key (identity on PostgreSQL). */
  autoId(column: ColumnDefinitionBuilder): ColumnDefinitionBuilder;
}

export interface ServerPluginMigration {
  up(db: Kysely<unknown>, kit: MigrationKit): Promise<void>;
  down?(db: Kysely<unknown>, kit: MigrationKit): Promise<void>;
}

/**
 * Runs an INSERT of one row into a table with an auto-increment `id` and answers that id on all three
 * dialects: PostgreSQL returns it (RETURNING id); SQLite and MySQL report it with the insert (MySQL
 * has no RETURNING).
 */
export async function insertedId<DB, TB extends keyof DB>(dialect: DatabaseDialect, query: InsertQueryBuilder<DB, TB, InsertResult>): Promise<number> {
  if (dialect === 'postgres') {
    // Kysely cannot narrow the row of a generic table: read the one column it returns by name
    const row: object = await query.returning(sql<number>`id`.as('id')).executeTakeFirstOrThrow();
    return Number(Reflect.get(row, 'id'));
  }
  return Number((await query.executeTakeFirstOrThrow()).insertId);
}

/**
 * `text` for a LIKE pattern, its own %, _ and ! taken literally; write the query with `escape '!'`
 * (the same on the three dialects): `sql\`name like ${`%${likeLiteral(term)}%`} escape '!'\``.
 */
export function likeLiteral(text: string): string {
  return text.replace(/[!%_]/g, (ch) => `!${ch}`);
}

/**
 * Makes an INSERT skip a row whose unique key is already taken instead of failing, on all three
 * dialects (`ON CONFLICT DO NOTHING`; MySQL: `INSERT IGNORE`) — for "create it unless it exists",
 * which a racing second request must not turn into an error. Check what is there afterwards.
 * Mind that MySQL's IGNORE also skips a row a foreign key refuses.
 */
export function insertUnlessTaken<DB, TB extends keyof DB, O>(dialect: DatabaseDialect, query: InsertQueryBuilder<DB, TB, O>): InsertQueryBuilder<DB, TB, O> {
  return dialect === 'mysql' ? query.orIgnore() : query.onConflict((conflict) => conflict.doNothing());
}
