// The core schema. Runs unchanged on SQLite, PostgreSQL and MySQL/MariaDB: keys and unique columns
// are varchar (MySQL cannot index TEXT), booleans are integers 0/1, coin amounts bigint, timestamps
// ISO-8601 UTC strings.
import { sql, type Kysely } from 'kysely';
import { USER_PUBLIC_VIEW, type CoreDatabase, type MigrationKit, type ServerPluginMigration } from '../../sdk/server';
import { createAbuseReviewTables } from '../security/abuse-review-tables';
import { createKnownDevicesTable } from '../security/known-devices';
import { createMailPreferencesTable } from '../mail/mail-preferences';

const TIMESTAMP = 'varchar(32)';

/** Seeded roles (reference behaviour): 7 and 8 hold admin.root. */
export const SEEDED_ROLES: readonly { id: number; name: string; realName: string }[] = [
  { id: 1, name: 'default', realName: 'Default' },
  { id: 2, name: 'vip', realName: 'VIP' },
  { id: 3, name: 'support_buddy', realName: 'Support Buddy' },
  { id: 4, name: 'support', realName: 'Support' },
  { id: 5, name: 'support_lvl_3', realName: 'Support LVL 3' },
  { id: 6, name: 'support_lvl_4', realName: 'Support LVL 4' },
  { id: 7, name: 'admin', realName: 'Admin' },
  { id: 8, name: 'administrator', realName: 'Administrator' },
];
export const ROOT_ROLES = [7, 8] as const;
export const DEFAULT_ROLE_COLOR = '#808080';

/**
 * The user_public view: the columns of sdk/server/database.ts UserPublicView, the role's display name
 * and colour joined in (a deleted role gives nulls). Plugins read accounts through it, never users.
 */
async function createUserPublicView(db: Kysely<unknown>): Promise<void> {
  const core = db as Kysely<CoreDatabase>;
  const columns = [
    'u.id',
    'u.uuid',
    'u.username',
    'u.username_lower',
    'u.avatar',
    'u.background',
    'u.role_id',
    'r.real_name as role_name',
    'r.color as role_color',
    'u.coins',
    'u.minutes_afk',
    'u.banned',
    'u.verified',
    'u.created_at',
  ] as const;
  await db.schema
    .createView(USER_PUBLIC_VIEW)
    .as(core.selectFrom('users as u').leftJoin('roles as r', 'r.id', 'u.role_id').select(columns))
    .execute();
}

async function createCoreTables(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  await kit
    .createTable('roles')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('real_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('color', 'varchar(16)', (c) => c.notNull().defaultTo(DEFAULT_ROLE_COLOR))
    .execute();

  await kit
    .createTable('role_permissions')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('role_id', 'integer', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('permission', 'varchar(128)', (c) => c.notNull())
    .addUniqueConstraint('role_permissions_role_permission_unique', ['role_id', 'permission'])
    .execute();

  await kit
    .createTable('users')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('uuid', 'varchar(36)', (c) => c.notNull().unique())
    .addColumn('username', 'varchar(32)', (c) => c.notNull())
    .addColumn('username_lower', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('email_lower', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('first_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('role_id', 'integer', (c) => c.notNull().defaultTo(1).references('roles.id'))
    .addColumn('avatar', 'varchar(512)')
    .addColumn('background', 'varchar(512)')
    .addColumn('coins', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('ram', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('disk', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cpu', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ports', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('databases', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('backups', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('server_slots', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('minutes_afk', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('two_fa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('banned', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ban_reason', 'varchar(255)')
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_role_id_index').on('users').column('role_id').execute();

  await kit
    .createTable('sessions')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('public_id', 'varchar(32)', (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('last_seen_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('revoked_at', TIMESTAMP)
    .addColumn('ip', 'varchar(45)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('two_fa_pending', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('sessions_user_id_index').on('sessions').column('user_id').execute();

  await kit
    .createTable('settings')
    .addColumn('key', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP)
    .execute();

  await kit
    .createTable('plugin_states')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('installed_version', 'varchar(32)')
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}

async function seedRoles(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  const typed = db as Kysely<{ roles: { id: number; name: string; real_name: string; color: string }; role_permissions: { role_id: number; permission: string } }>;
  await typed
    .insertInto('roles')
    .values(SEEDED_ROLES.map((r) => ({ id: r.id, name: r.name, real_name: r.realName, color: DEFAULT_ROLE_COLOR })))
    .execute();
  if (kit.dialect === 'postgres') {
    // explicit ids do not advance an identity sequence: move it past the seeded rows
    await sql`select setval(pg_get_serial_sequence('roles', 'id'), (select max(id) from roles))`.execute(db);
  }
  await typed
    .insertInto('role_permissions')
    .values(ROOT_ROLES.map((roleId) => ({ role_id: roleId, permission: 'admin.root' })))
    .execute();
}

async function createAuditLog(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  // no foreign keys: the history outlives the accounts it names
  await kit
    .createTable('audit_log')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('actor_user_id', 'integer')
    .addColumn('target_user_id', 'integer')
    .addColumn('action', 'varchar(64)', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(45)')
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_target_index').on('audit_log').columns(['target_user_id', 'id']).execute();
  await db.schema.createIndex('audit_log_actor_index').on('audit_log').columns(['actor_user_id', 'id']).execute();
}

// The mail templates migration 0001 stored, frozen as they were shipped: a migration is history, so
// it keeps its own copy. Their texts now live with the plugins that send them (plugins/auth/mail/,
// plugins/servers/mail/), which store them when missing.
function initialLayout(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html><body style="margin:0;padding:24px;background:#0f1117;font-family:Arial,Helvetica,sans-serif;color:#e6e8ee">',
    '<div style="max-width:560px;margin:0 auto;background:#171a23;border-radius:12px;padding:32px">',
    '<h1 style="margin:0 0 16px;font-size:20px;color:#ffffff">' + title + '</h1>',
    body,
    '<p style="margin:32px 0 0;font-size:12px;color:#8a90a2">${app_name} · <a href="${app_url}" style="color:#8a90a2">${app_url}</a></p>',
    '</div></body></html>',
  ].join('\n');
}

function initialButton(label: string): string {
  return `<p><a href="\${link}" style="display:inline-block;padding:12px 20px;background:#4f7cff;color:#ffffff;border-radius:8px;text-decoration:none">${label}</a></p>\n<p style="font-size:12px;color:#8a90a2">\${link}</p>`;
}

const INITIAL_MAIL_TEMPLATES: readonly { name: string; description: string; subject: string; html: string; text: string }[] = [
  {
    name: 'verify',
    description: 'Sent after registration and after an e-mail change, when mail is enabled.',
    subject: 'Verify your e-mail address for ${app_name}',
    html: initialLayout(
      'Verify your e-mail address',
      '<p>Hello ${first_name},</p>\n<p>Please confirm that this address belongs to you. The link is valid for 24 hours.</p>\n' + initialButton('Verify e-mail'),
    ),
    text: 'Hello ${first_name},\n\nPlease confirm that this address belongs to you (the link is valid for 24 hours):\n${link}\n\n${app_name}',
  },
  {
    name: 'reset_password',
    description: 'Sent when someone asks to reset the password of an account.',
    subject: 'Reset your ${app_name} password',
    html: initialLayout(
      'Reset your password',
      '<p>Hello ${first_name},</p>\n<p>Someone asked to reset the password of your account. The link is valid for one hour and works once.</p>\n' +
        initialButton('Choose a new password') +
        '\n<p>If it was not you, ignore this mail: your password stays as it is.</p>',
    ),
    text: 'Hello ${first_name},\n\nSomeone asked to reset the password of your account. Open this link within one hour to choose a new one:\n${link}\n\nIf it was not you, ignore this mail.\n\n${app_name}',
  },
  {
    name: 'new_login',
    description: 'Sent when the account signs in.',
    subject: 'New sign-in to your ${app_name} account',
    html: initialLayout(
      'New sign-in',
      '<p>Hello ${first_name},</p>\n<p>Your account signed in at ${time} from ${ip} (${user_agent}).</p>\n<p>If it was not you, change your password at once.</p>',
    ),
    text: 'Hello ${first_name},\n\nYour account signed in at ${time} from ${ip} (${user_agent}).\nIf it was not you, change your password at once.\n\n${app_name}',
  },
  {
    name: 'welcome',
    description: 'Sent once the e-mail address is verified.',
    subject: 'Welcome to ${app_name}',
    html: initialLayout('Welcome, ${first_name}!', '<p>Your account ${username} is ready.</p>\n' + initialButton('Open the dashboard')),
    text: 'Welcome, ${first_name}!\n\nYour account ${username} is ready: ${link}\n\n${app_name}',
  },
  {
    name: 'server_renewal_reminder',
    description: 'Sent when a server is about to expire.',
    subject: 'Your server ${server_name} expires in ${days_left} days',
    html: initialLayout(
      'Renew ${server_name}',
      '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} expires on ${expires_at} (${days_left} days left).</p>\n' + initialButton('Renew now'),
    ),
    text: 'Hello ${first_name},\n\nYour server ${server_name} expires on ${expires_at} (${days_left} days left). Renew it here: ${link}\n\n${app_name}',
  },
  {
    name: 'server_suspended',
    description: 'Sent when a server is suspended because it was not renewed.',
    subject: 'Your server ${server_name} has been suspended',
    html: initialLayout(
      '${server_name} is suspended',
      '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} expired on ${expires_at} and has been suspended. Renew it to bring it back.</p>\n' + initialButton('Renew now'),
    ),
    text: 'Hello ${first_name},\n\nYour server ${server_name} expired on ${expires_at} and has been suspended. Renew it here: ${link}\n\n${app_name}',
  },
  {
    name: 'server_deleted',
    description: 'Sent when a suspended server is deleted after the grace period.',
    subject: 'Your server ${server_name} has been deleted',
    html: initialLayout(
      '${server_name} was deleted',
      '<p>Hello ${first_name},</p>\n<p>Your server ${server_name} stayed suspended past the grace period and has been deleted.</p>',
    ),
    text: 'Hello ${first_name},\n\nYour server ${server_name} stayed suspended past the grace period and has been deleted.\n\n${app_name}',
  },
];

async function createMailTables(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  await kit
    .createTable('mail_templates')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('name', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  const now = new Date().toISOString();
  const typed = db as Kysely<{ mail_templates: { name: string; description: string; subject: string; html: string; text: string; created_at: string; updated_at: string } }>;
  await typed
    .insertInto('mail_templates')
    .values(INITIAL_MAIL_TEMPLATES.map((t) => ({ name: t.name, description: t.description, subject: t.subject, html: t.html, text: t.text, created_at: now, updated_at: now })))
    .execute();

  // the persistent queue: a row per mail, claimed under a lease so several instances never send one twice
  await kit
    .createTable('mail_queue')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('to_address', 'varchar(254)', (c) => c.notNull())
    .addColumn('template', 'varchar(64)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('html', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('lease_until', TIMESTAMP)
    .addColumn('lease_owner', 'varchar(32)')
    .addColumn('last_error', 'varchar(512)')
    .addColumn('sent_at', TIMESTAMP)
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mail_queue_due_index').on('mail_queue').columns(['status', 'next_attempt_at']).execute();
}

async function addAccountColumns(db: Kysely<unknown>): Promise<void> {
  // when the session last proved a TOTP code: turning 2FA off needs a recent one (a cookie is not enough)
  await db.schema.alterTable('sessions').addColumn('two_fa_verified_at', TIMESTAMP).execute();
  // the support PIN (6 digits) a user tells staff so they can be identified
  await db.schema.alterTable('users').addColumn('support_pin', 'varchar(6)').execute();
  await db.schema.createIndex('users_support_pin_index').on('users').column('support_pin').execute();
}

async function createWalletLedger(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  // append-only; no foreign key to users: the history outlives the accounts it names
  await kit
    .createTable('wallet_ledger')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('delta', 'bigint', (c) => c.notNull())
    .addColumn('balance_after', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'varchar(40)', (c) => c.notNull())
    .addColumn('reference', 'varchar(128)')
    .addColumn('idempotency_key', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('reason', 'varchar(255)')
    .addColumn('actor_user_id', 'integer')
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('wallet_ledger_user_index').on('wallet_ledger').columns(['user_id', 'id']).execute();
  // balances that predate the ledger open it, so that ledger sums equal balances from the start
  const typed = db as Kysely<{
    users: { id: number; coins: number };
    wallet_ledger: { user_id: number; delta: number; balance_after: number; kind: string; idempotency_key: string; created_at: string };
  }>;
  const holders = await typed.selectFrom('users').select(['id', 'coins']).where('coins', '!=', 0).execute();
  const now = new Date().toISOString();
  for (const user of holders) {
    const coins = Number(user.coins);
    await typed
      .insertInto('wallet_ledger')
      .values({ user_id: user.id, delta: coins, balance_after: coins, kind: 'opening_balance', idempotency_key: `opening:${user.id}`, created_at: now })
      .execute();
  }
}

async function createRedirectLinks(kit: MigrationKit): Promise<void> {
  // the links of the navigation (/mc-admin/redirect-links); `sort_order`, because ORDER is a keyword
  await kit
    .createTable('redirect_links')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('url', 'varchar(2048)', (c) => c.notNull())
    .addColumn('icon', 'varchar(32)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}

async function createUserCounters(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  await kit
    .createTable('user_counters')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('name', 'varchar(40)', (c) => c.notNull())
    .addColumn('value', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .addPrimaryKeyConstraint('user_counters_pk', ['user_id', 'name'])
    .execute();
  // the ranking query (ctx.counters.top, the leaderboard): one counter, highest first, ties by
  // account — read in index order, never sorted
  await db.schema.createIndex('user_counters_rank_index').on('user_counters').columns(['name', 'value desc', 'user_id']).execute();
}

/** The topics of cache_versions (server/cluster/cache-sync.ts); a later topic is added by its own migration. */
export const CACHE_TOPICS = ['roles', 'settings', 'plugins', 'panel'] as const;

async function createClusterTables(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  // one counter per kind of cached data: an instance that sees a counter move reloads that data
  await kit
    .createTable('cache_versions')
    .addColumn('topic', 'varchar(40)', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  const typed = db as Kysely<{ cache_versions: { topic: string; version: number } }>;
  await typed
    .insertInto('cache_versions')
    .values(CACHE_TOPICS.map((topic) => ({ topic, version: 0 })))
    .execute();
  // the instances serving this database, each refreshing its heartbeat (the health page lists them)
  await kit
    .createTable('panel_instances')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('host', 'varchar(255)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('started_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('heartbeat_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('stopped_at', TIMESTAMP)
    .execute();
  // each job's last run on any instance: when, how it ended and where it ran
  await kit
    .createTable('job_runs')
    .addColumn('job', 'varchar(190)', (c) => c.primaryKey())
    .addColumn('instance_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('started_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('ok', 'integer', (c) => c.notNull())
    .addColumn('message', 'varchar(512)')
    .execute();
  // named values of the install itself (the SECRET_KEY check value); never a secret
  await kit
    .createTable('panel_meta')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'varchar(255)', (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .execute();
}

export const CORE_MIGRATIONS: Readonly<Record<string, ServerPluginMigration>> = {
  '0001_core_tables': {
    async up(db, kit) {
      await createCoreTables(db, kit);
      await seedRoles(db, kit);
    },
  },
  '0002_audit_log': {
    async up(db, kit) {
      await createAuditLog(db, kit);
    },
  },
  '0003_mail': {
    async up(db, kit) {
      await createMailTables(db, kit);
    },
  },
  '0004_account_security': {
    async up(db) {
      await addAccountColumns(db);
    },
  },
  '0005_wallet_ledger': {
    async up(db, kit) {
      await createWalletLedger(db, kit);
      await createUserCounters(db, kit);
    },
  },
  '0006_abuse_review': {
    async up(db, kit) {
      await createAbuseReviewTables(db, kit);
    },
  },
  '0006_redirect_links': {
    async up(_db, kit) {
      await createRedirectLinks(kit);
    },
  },
  '0007_audit_log_action_index': {
    // the admin dashboard reads the log by action and time (logins per day, warnings of the last day)
    async up(db) {
      await db.schema.createIndex('audit_log_action_index').on('audit_log').columns(['action', 'created_at']).execute();
    },
  },
  '0008_leases': {
    // ctx.leases without Redis (server/realtime/leases.ts): one row per held name; expires_at in epoch ms
    async up(_db, kit) {
      await kit
        .createTable('leases')
        .addColumn('name', 'varchar(190)', (c) => c.primaryKey())
        .addColumn('holder', 'varchar(64)', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
    },
  },
  '0009_panel_accounts': {
    // ctx.pterodactyl.accountFor (server/pterodactyl/panel-accounts.ts): our user → their panel user,
    // one each way — the unique keys are what make two racing look-ups link one panel account
    async up(db, kit) {
      await kit
        .createTable('panel_accounts')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('panel_user_id', 'integer', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('panel_accounts_panel_user_unique').on('panel_accounts').column('panel_user_id').unique().execute();
    },
  },
  '0010_known_devices': {
    // the browsers each account signed in from: they keep their own login budget (security/known-devices.ts)
    async up(_db, kit) {
      await createKnownDevicesTable(kit);
    },
  },
  '0011_user_public_view': {
    // what plugins may read of accounts (sdk UserPublicView): a later migration of users keeps this shape
    async up(db) {
      await createUserPublicView(db);
    },
    async down(db) {
      await db.schema.dropView(USER_PUBLIC_VIEW).execute();
    },
  },
  '0012_mail_preferences': {
    // the kinds of mail plugins declare and each account may decline (server/mail/mail-preferences.ts)
    async up(_db, kit) {
      await createMailPreferencesTable(kit);
    },
  },
  '0013_cluster': {
    // several instances on one database (server/cluster/): what changed, who runs, what ran, which key
    async up(db, kit) {
      await createClusterTables(db, kit);
    },
  },
};
