// @orepanel/sdk/server — what a plugin's server part may use, and nothing else of ours.
// A plugin's server/index.ts default-exports `defineServerPlugin({ id, migrations?, register })`.
// The host (server/plugins) registers it into its own encapsulated Fastify scope under /api and
// hands it a ServerPluginContext. Built plugins bundle this file, so nothing here may rely on
// object identity across bundles: brands are plain string properties (`$$type`).
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql, type ColumnDefinitionBuilder, type CreateTableBuilder, type Generated, type InsertQueryBuilder, type InsertResult, type Kysely, type Transaction } from 'kysely';
import type { PluginServices } from './services';
import type { PluginManifest } from './types';
// routes declared with `{ websocket: true }` (GET only; the handler receives a PluginWebSocket)
import type {} from '@fastify/websocket';

export type { ManifestSetting, PluginManifest } from './types';
/** spec §6: admin.root passes every check — for a handler that needs more than its route's permission */
export { hasPermission } from './manifest';
export { createServiceRef, SERVICE_REF_BRAND, type PluginServices, type ServiceRef } from './services';
export {
  OAUTH_GRANTS,
  OAUTH_GRANT_PURPOSE,
  type OAuthCallbackQuery,
  type OAuthGrant,
  type OAuthGrantAccount,
  type OAuthGrantFlow,
  type OAuthGrantProvider,
  type OAuthGrants,
  type OAuthGrantStart,
} from './oauth-grants';
export { TWO_FACTOR, type TwoFactorCheck } from './two-factor';
export * from './pterodactyl';
export * from './server-catalog';
export * from './schema';
export * from './stored-values';
import type { PterodactylPanel } from './pterodactyl';

/** The plugin API version of this SDK (its major version). */
export const SERVER_PLUGIN_API_VERSION = 1;

// ---------------------------------------------------------------------------------------------
// Route options: permission checks are route options, checked by the host before the handler runs.
// ---------------------------------------------------------------------------------------------
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route needs a valid, fully signed-in session (401 INVALID_SESSION / TW0_FA_BLOCKED). */
    auth?: boolean;
    /** The route needs this permission (implies auth; spec §6: admin.root passes every check). */
    permission?: string;
    /**
     * A named rate-limit policy checked after the body is validated (per client IP and, where the
     * policy says so, per account): 429 RATE_LIMITED with Retry-After when exceeded.
     */
    rateLimit?: RateLimitPolicyName;
    /** false exempts the route from the app-wide per-IP request limit (the session poll). */
    appRateLimit?: boolean;
    /**
     * true lets a session that still waits for its 2FA code reach the route (the 2FA verify and
     * logout routes). Every other /api route answers such a session 401 TW0_FA_BLOCKED (spec §4).
     */
    allowTwoFaPending?: boolean;
    /**
     * A boolean application setting (a spec §3 feature flag, e.g. code_redemption_enabled) that must
     * be on: otherwise 403 FEATURE_DISABLED before anything else of the route runs. Declare the same
     * `flag` on the plugin's client routes and nav items so the browser hides them too.
     */
    flag?: string;
  }
}

/** The rate-limit policies the core defines (their limits are settings an administrator tunes). */
export type RateLimitPolicyName =
  | 'auth.login'
  | 'auth.register'
  | 'auth.forgot'
  | 'auth.2fa'
  | 'auth.verify'
  | 'auth.password'
  /** guessing redeem codes (per IP and per account) */
  | 'earn.redeem'
  /** finding other users (/lookup; per IP and per account): no scraping the user list */
  | 'people.lookup';

// ---------------------------------------------------------------------------------------------
// Database: Kysely over SQLite, PostgreSQL or MySQL/MariaDB. Timestamps are ISO-8601 UTC strings,
// booleans are integers 0/1 (portable across the three), coin amounts are bigint columns read as
// JavaScript numbers.
// ---------------------------------------------------------------------------------------------
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

// ---------------------------------------------------------------------------------------------
// Context services
// ---------------------------------------------------------------------------------------------
export type SettingValue = string | number | boolean | null;

export interface SettingEntry {
  value: SettingValue;
  /** when an administrator last changed it; null while it holds its default */
  updatedAt: string | null;
}

/** Reads the core settings and the plugin's own declared settings; writes only the latter. */
export interface PluginSettings {
  get(key: string): Promise<SettingValue>;
  getMany(keys: readonly string[]): Promise<Record<string, SettingValue>>;
  getEntry(key: string): Promise<SettingEntry>;
  set(key: string, value: SettingValue): Promise<void>;
}

/** The signed-in user behind a request, as the session endpoint sees them. */
export interface SessionUser {
  id: number;
  uuid: string;
  username: string;
  email: string;
  role: number;
  roleName: string;
  permissions: readonly string[];
  banned: boolean;
  twoFaEnabled: boolean;
  sessionId: number;
}

/**
 * Account field rules shared by the registration route's JSON schema and the core's own check (and
 * the CLI), so the two can never disagree.
 */
export { ACCOUNT_RULES } from './account-rules';

export interface NewUserInput {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  password: string;
  /** defaults to 1 (Default) */
  role?: number;
}

export interface CreatedUser {
  id: number;
  uuid: string;
  username: string;
}

/** A user whose login and password matched (see PluginAuth.checkCredentials). */
export interface CredentialUser {
  id: number;
  uuid: string;
  username: string;
  banned: boolean;
  banReason: string | null;
  twoFaEnabled: boolean;
}

export interface StartSessionOptions {
  /** The session must pass a TOTP check before it may be used (answers TW0_FA_BLOCKED until then). */
  twoFaPending?: boolean;
}

/** The request's live session, whatever its state (also while it waits for its 2FA code). */
export interface SessionState {
  userId: number;
  sessionId: number;
  twoFaPending: boolean;
  /** when the session last proved a TOTP code (ISO), or null */
  twoFaVerifiedAt: string | null;
  banned: boolean;
}

export interface RotateSessionOptions {
  /** the new session has just proved a TOTP code (clears a pending 2FA check, stamps the time) */
  twoFaVerified?: boolean;
}

export interface PluginAuth {
  /** The request's user when its op_session cookie names a valid, fully signed-in session. */
  currentUser(request: FastifyRequest): Promise<SessionUser | null>;
  hashPassword(password: string): Promise<string>;
  verifyPassword(password: string, hash: string): Promise<boolean>;
  /**
   * Creates an account with the default resources from the settings. Throws an http error
   * 409 USERNAME_TAKEN / EMAIL_TAKEN (field username / email) on a case-insensitive duplicate.
   */
  createUser(input: NewUserInput): Promise<CreatedUser>;
  /**
   * Finds the user by username or email (case-insensitive) and checks the password, taking the same
   * time whether or not the account exists. Null when they do not match.
   */
  checkCredentials(login: string, password: string): Promise<CredentialUser | null>;
  /** Creates a new session row (rotating away the request's old one) and sets both cookies. */
  startSession(request: FastifyRequest, reply: FastifyReply, userId: number, options?: StartSessionOptions): Promise<void>;
  /** Revokes the request's session (if any) and clears both cookies. */
  endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** The id of the account a login name (username or email, any case) names, or null. */
  lookupUserId(login: string): Promise<number | null>;
  /** The request's live session (not revoked, not expired), including one waiting for 2FA. */
  session(request: FastifyRequest): Promise<SessionState | null>;
  /**
   * Replaces the request's session by a fresh one of the same user (new token and cookies; the old
   * one is revoked): after a privilege change, a password change or a 2FA check.
   */
  rotateSession(request: FastifyRequest, reply: FastifyReply, options?: RotateSessionOptions): Promise<void>;
  /** Records that the request's session just proved a TOTP code (see SessionState.twoFaVerifiedAt). */
  markTwoFaVerified(request: FastifyRequest): Promise<void>;
  /** Ends every session of a user except `exceptSessionId`; returns how many ended. */
  revokeSessions(userId: number, exceptSessionId?: number | null): Promise<number>;
  /** True when `password` is the user's password (same time whether or not the user exists). */
  checkPassword(userId: number, password: string): Promise<boolean>;
  /**
   * Sets a new password (ACCOUNT_RULES.password; 400 VALIDATION_ERROR field password otherwise) and
   * emits user.credentials_changed.
   */
  setPassword(userId: number, password: string): Promise<void>;
  /**
   * Deletes the account (its sessions and the rows that reference it go with it); false when it was
   * already gone. Refused with 409 LAST_ADMINISTRATOR when no other active account would hold
   * admin.root — one conditional statement decides, so two administrators deleting themselves at
   * the same moment cannot both go. `beforeDelete` runs once the rule allows the deletion.
   */
  deleteUser(userId: number, beforeDelete?: () => Promise<void>): Promise<boolean>;
}

export type AuditDetails = Record<string, string | number | boolean | null>;

export interface AuditEntry {
  /** dot-separated, e.g. auth.login_failed */
  action: string;
  /** default: the request's signed-in user, if any */
  actorUserId?: number | null;
  targetUserId?: number | null;
  details?: AuditDetails;
}

/** The audit log: security events and administrator actions, shown in /account and to admins. */
export interface PluginAudit {
  /** Appends an entry; the client IP comes from the request (trusted proxies only). */
  record(request: FastifyRequest | null, entry: AuditEntry): Promise<void>;
}

/** Server-side events. Plugins add their own by declaration merging on this interface. */
export interface ServerEvents {
  'user.registered': { userId: number; uuid: string; username: string; ref: string | null };
  'session.started': { userId: number; sessionId: number; ip: string | null };
  'session.ended': { userId: number; sessionId: number };
  'plugin.state': { id: string; enabled: boolean };
  /** the account's e-mail address changed (it is unverified now); linkBase: the panel's public address */
  'user.email_changed': { userId: number; email: string; linkBase: string };
  /**
   * the account is about to be deleted (by itself or an administrator): its rows are still there, so
   * what lives outside the database (servers on the panel) can be removed now. Handlers run before the
   * delete, one after another; one that fails is logged and the deletion goes on.
   */
  'user.deleting': { userId: number; uuid: string };
  /** the account deleted itself (its sessions and the rows that reference it are gone) */
  'user.deleted': { userId: number; uuid: string };
  /** the account's current e-mail address has just been proved (a verification link, a password-reset link) */
  'user.verified': { userId: number };
  /**
   * the account's e-mail address or password changed (by its owner, an administrator or a reset
   * link): every link mailed to it before (password reset, e-mail verification) must stop working
   */
  'user.credentials_changed': { userId: number };
}

export type ServerEventHandler<K extends keyof ServerEvents> = (payload: ServerEvents[K]) => void | Promise<void>;

export interface PluginEvents {
  /** Subscribes; returns the function that unsubscribes. A throwing handler is logged, not fatal. */
  on<K extends keyof ServerEvents>(name: K, handler: ServerEventHandler<K>): () => void;
  /** Runs every handler in subscription order and resolves when all have finished. */
  emit<K extends keyof ServerEvents>(name: K, payload: ServerEvents[K]): Promise<void>;
}

export interface MailMessage {
  to: string;
  /** a mail template's name, e.g. reset_password */
  template: string;
  /** values for the template's ${placeholders}; app_name and app_url are always filled */
  placeholders?: Readonly<Record<string, string | number>>;
}

/** ctx.mail: templates from the database, a persistent queue with retries, SMTP from the settings. */
export interface PluginMail {
  /** True when mail is on: the smtp_host setting and the panel's public address (APP_URL or app_url) are set. */
  enabled(): Promise<boolean>;
  /**
   * Renders the template (placeholder values are HTML-escaped in the HTML part) and queues the
   * mail. Resolves false, queuing nothing, when mail is off. Throws when the template is missing.
   */
  send(message: MailMessage): Promise<boolean>;
  /**
   * The panel's public address for links in mails, without a trailing slash: APP_URL, else the
   * app_url setting — never the request's Host header. Throws when neither is set (then
   * `enabled()` is false too).
   */
  publicUrl(request: FastifyRequest): Promise<string>;
}

/**
 * ctx.secrets: encrypts small secrets at rest with the panel's SECRET_KEY (AES-256-GCM), e.g. a
 * user's TOTP secret or a provider token, so a database dump alone does not reveal them.
 */
export interface PluginSecrets {
  seal(plain: string): string;
  /** The plain text, or null when it was sealed with another SECRET_KEY (or altered). */
  open(sealed: string): string | null;
}

/** The read-only part of the host's configuration a plugin may see. */
export interface PluginConfig {
  readonly appUrl: string | null;
  readonly dataDir: string;
  readonly sessionTtlDays: number;
}

// ---------------------------------------------------------------------------------------------
// The wallet: integer coins, moved only through an append-only ledger, atomically.
// ---------------------------------------------------------------------------------------------

/** The database transaction a wallet movement runs in, for a plugin's own writes that must commit with it. */
export type WalletTransaction = Transaction<CoreDatabase>;

export interface WalletMovement {
  userId: number;
  /** coins, a positive integer */
  amount: number;
  /** what the movement is, dot-separated (e.g. redeem.code, store.purchase, admin.adjust) */
  kind: string;
  /** what it is about (e.g. a code, an order id), shown in the transactions list */
  reference?: string | null;
  /**
   * Unique per movement, forever. Retrying with the same key never moves coins twice: the first
   * movement's entry comes back with `replayed: true`. Derive it from what makes the movement unique
   * (e.g. `redeem:<code id>:<user id>`, `stripe:<payment id>`).
   */
  idempotencyKey: string;
  /** a human reason (admin adjustments require one) */
  reason?: string | null;
  /** who caused it when not the owner (an administrator) */
  actorUserId?: number | null;
  /**
   * Runs inside the movement's database transaction after the balance changed; throwing undoes the
   * movement (e.g. a store purchase adding resources, a redemption row). Not run on a replay.
   */
  effect?: (trx: WalletTransaction) => Promise<void>;
}

export interface WalletEntry {
  id: number;
  userId: number;
  delta: number;
  balanceAfter: number;
  kind: string;
  reference: string | null;
  idempotencyKey: string;
  reason: string | null;
  actorUserId: number | null;
  createdAt: string;
}

export interface WalletResult {
  entry: WalletEntry;
  /** true when the idempotency key had been used: nothing moved this time */
  replayed: boolean;
}

export interface WalletTransfer {
  fromUserId: number;
  toUserId: number;
  /** what the recipient receives (a positive integer) */
  amount: number;
  /** paid by the sender on top of `amount` and taken out of circulation (0 for none) */
  fee: number;
  /** base kind: the entries are `<kind>.sent`, `<kind>.received` and `<kind>.fee` */
  kind: string;
  reference?: string | null;
  idempotencyKey: string;
  reason?: string | null;
  effect?: (trx: WalletTransaction) => Promise<void>;
}

export interface WalletTransferResult {
  sent: WalletEntry;
  received: WalletEntry;
  fee: WalletEntry | null;
  replayed: boolean;
}

export interface WalletPage {
  data: WalletEntry[];
  total: number;
}

/**
 * ctx.wallet — the only way coins move. Each call is one database transaction with an atomic
 * conditional update of the balance (never read-then-write) and its ledger entries.
 * Errors (as http errors): 400 INVALID_AMOUNT, 404 USER_NOT_FOUND, 409 INSUFFICIENT_COINS,
 * 409 BALANCE_LIMIT, 400 SELF_TRANSFER, 409 IDEMPOTENCY_CONFLICT (a key reused for another movement).
 */
export interface PluginWallet {
  balance(userId: number): Promise<number>;
  credit(movement: WalletMovement): Promise<WalletResult>;
  debit(movement: WalletMovement): Promise<WalletResult>;
  transfer(transfer: WalletTransfer): Promise<WalletTransferResult>;
  /** The user's entries, newest first. */
  entries(userId: number, page?: { page?: number; perPage?: number }): Promise<WalletPage>;
}

/** One row of a counter's ranking. */
export interface CounterRank {
  userId: number;
  value: number;
}

/**
 * ctx.counters — per-user numbers a plugin publishes for others to read without touching its tables
 * (the leaderboard ranks by them). Names are `<plugin id>.<what>` or a core name (e.g. referrals).
 */
export interface PluginCounters {
  /**
   * Adds `amount` (an integer, may be negative) to the user's counter. Pass the wallet's `trx` from
   * an `effect` so the count commits with the coins.
   */
  add(userId: number, name: string, amount: number, trx?: WalletTransaction): Promise<void>;
  get(userId: number, name: string): Promise<number>;
  /** The highest values first (ties: the earlier account first). */
  top(name: string, limit: number): Promise<CounterRank[]>;
}

// ---------------------------------------------------------------------------------------------
// Time and leases: what realtime features (the AFK socket) need to be correct across instances.
// ---------------------------------------------------------------------------------------------

/**
 * ctx.clock — the time source and timers of the panel. Use it instead of Date.now()/setTimeout for
 * any rule measured in time, so tests can move a fake clock instead of waiting real minutes.
 */
export interface PluginClock {
  /** milliseconds since the epoch */
  now(): number;
  /** Calls `run` once after `ms` milliseconds; returns the function that cancels it. */
  setTimeout(run: () => void, ms: number): () => void;
}

/** A lease held by this process (see PluginLeases.acquire). */
export interface Lease {
  readonly name: string;
  /** Extends the lease by its ttl while it is still ours; false when it expired into other hands or was taken over. */
  renew(): Promise<boolean>;
  /** Gives the lease up now (a no-op when it is no longer ours). */
  release(): Promise<void>;
}

/**
 * ctx.leases — named, expiring, exclusive leases shared by every panel instance: in Redis when
 * REDIS_URL is set (SET NX PX), otherwise in the database (one row per name, taken with an atomic
 * conditional write). Names are scoped to the plugin. At most one holder per name at any moment,
 * as long as holders renew before the ttl runs out.
 */
export interface PluginLeases {
  readonly backend: 'redis' | 'database';
  /**
   * Takes the lease when nobody holds it (or it expired); with `takeover`, also from its current
   * holder, who finds out at their next renew(). Null when someone else holds it.
   */
  acquire(name: string, ttlMs: number, options?: { takeover?: boolean }): Promise<Lease | null>;
}

/**
 * ctx.jobs: work on a schedule (a queue worker, a renewal pass). A job is named `<plugin id>.<name>`
 * on the health page, runs every `intervalMs` while its plugin is enabled, and never overlaps itself
 * on one instance. Work that must not run on two instances at once takes a ctx.leases lease inside.
 */
export interface PluginJobs {
  every(name: string, intervalMs: number, run: () => Promise<string | void>): void;
  /** Runs the job now, or waits for the run under way; never rejects (failures go to the health page). */
  runNow(name: string): Promise<void>;
  /** Asks for a run soon (new work was queued); nothing happens where jobs only run when asked (tests). */
  kick(name: string): void;
}

/** The socket a `{ websocket: true }` route's handler receives (the ws library's WebSocket). */
export type PluginWebSocket = import('ws').WebSocket;

// ---------------------------------------------------------------------------------------------
// Errors: thrown from a handler, turned by the host into `{ error: { code, message, field? } }`.
// ---------------------------------------------------------------------------------------------
export const HTTP_ERROR_BRAND = '@orepanel/http-error';

export interface HttpError extends Error {
  readonly $$type: typeof HTTP_ERROR_BRAND;
  readonly statusCode: number;
  readonly code: string;
  readonly field?: string;
}

export function httpError(statusCode: number, code: string, message: string, field?: string): HttpError {
  if (!Number.isInteger(statusCode) || statusCode < 400 || statusCode > 599) {
    throw new RangeError(`httpError: status ${statusCode} is not an HTTP error status`);
  }
  const error = new Error(message) as Error & { $$type: string; statusCode: number; code: string; field?: string };
  error.name = 'HttpError';
  error.$$type = HTTP_ERROR_BRAND;
  error.statusCode = statusCode;
  error.code = code;
  if (field !== undefined) error.field = field;
  return error as HttpError;
}

/**
 * True for an API caller (the sdk's http client sends Accept: application/json), false for a browser
 * that followed a link or a redirect (an e-mail link, a provider sending the user back): a route
 * both reach answers the first with JSON and sends the second to a page.
 */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

export function isHttpError(value: unknown): value is HttpError {
  return value instanceof Error && (value as { $$type?: unknown }).$$type === HTTP_ERROR_BRAND;
}

// ---------------------------------------------------------------------------------------------
// The plugin itself
// ---------------------------------------------------------------------------------------------
export interface ServerPluginContext {
  readonly id: string;
  readonly manifest: Readonly<PluginManifest>;
  /** Kysely over the panel's database; add your own tables with `ctx.db.withTables<Tables>()` (Tables: a type alias). */
  readonly db: Kysely<CoreDatabase>;
  readonly dialect: DatabaseDialect;
  readonly config: PluginConfig;
  readonly settings: PluginSettings;
  readonly auth: PluginAuth;
  readonly events: PluginEvents;
  readonly audit: PluginAudit;
  readonly mail: PluginMail;
  readonly secrets: PluginSecrets;
  readonly wallet: PluginWallet;
  readonly counters: PluginCounters;
  readonly clock: PluginClock;
  readonly leases: PluginLeases;
  readonly jobs: PluginJobs;
  /** the host's Pterodactyl panel (settings pterodactyl_base_url, pterodactyl_api_key) */
  readonly pterodactyl: PterodactylPanel;
  /** services other plugins offer (those in this plugin's `requires`) and the ones it offers them */
  readonly services: PluginServices;
  readonly log: FastifyBaseLogger;
  readonly httpError: typeof httpError;
}

export interface ServerPluginDefinition {
  /** must equal the id in plugin.json */
  id: string;
  /** name → migration, applied in name order, recorded in the plugin's own migration table */
  migrations?: Readonly<Record<string, ServerPluginMigration>>;
  /**
   * Adds the plugin's routes to `app`, an encapsulated scope under /api (third-party plugins:
   * /api/plugins/<id>). Route options `config: { auth: true }` or `config: { permission: 'x.y' }`
   * guard a route; give every route a JSON schema.
   */
  register(app: FastifyInstance, ctx: ServerPluginContext): void | Promise<void>;
}

export const SERVER_PLUGIN_BRAND = '@orepanel/server-plugin';

export interface ServerPlugin extends Readonly<ServerPluginDefinition> {
  readonly $$type: typeof SERVER_PLUGIN_BRAND;
  readonly apiVersion: typeof SERVER_PLUGIN_API_VERSION;
}

const PLUGIN_ID = /^[a-z][a-z0-9-]{1,39}$/;

export function defineServerPlugin(definition: ServerPluginDefinition): ServerPlugin {
  if (!definition || typeof definition !== 'object') throw new TypeError('defineServerPlugin: expected an object');
  if (typeof definition.id !== 'string' || !PLUGIN_ID.test(definition.id)) {
    throw new TypeError(`defineServerPlugin: "${String(definition.id)}" is not a valid plugin id`);
  }
  if (typeof definition.register !== 'function') {
    throw new TypeError(`defineServerPlugin(${definition.id}): register must be a function`);
  }
  for (const [name, migration] of Object.entries(definition.migrations ?? {})) {
    if (!migration || typeof migration.up !== 'function') {
      throw new TypeError(`defineServerPlugin(${definition.id}): migration "${name}" has no up() function`);
    }
  }
  return Object.freeze({
    ...definition,
    migrations: definition.migrations ? Object.freeze({ ...definition.migrations }) : undefined,
    $$type: SERVER_PLUGIN_BRAND,
    apiVersion: SERVER_PLUGIN_API_VERSION,
  });
}

/** Duck-typed check the host uses on whatever a plugin's server module exports. */
export function isServerPlugin(value: unknown): value is ServerPlugin {
  if (!value || typeof value !== 'object') return false;
  const v = value as Partial<Record<keyof ServerPlugin, unknown>>;
  return v.$$type === SERVER_PLUGIN_BRAND && typeof v.id === 'string' && typeof v.register === 'function';
}
