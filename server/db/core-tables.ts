// The tables and views the core's migrations create (server/db/core-migrations.ts): no plugin may
// declare one of these as its own. core-tables.test.ts holds the list to what the migrations make.
export const CORE_TABLES: ReadonlySet<string> = new Set([
  'account_flags',
  'audit_log',
  'cache_versions',
  'job_runs',
  'known_devices',
  'leases',
  'mail_preferences',
  'mail_queue',
  'mail_templates',
  'panel_accounts',
  'panel_instances',
  'panel_meta',
  'plugin_states',
  'role_permissions',
  'roles',
  'sessions',
  'settings',
  'sign_in_traces',
  'user_counters',
  'user_public',
  'users',
  'wallet_ledger',
]);

/**
 * Tables a core migration created before their feature became a plugin, and the plugin that owns them
 * now (it declares them in plugin.json "tables"; a shipped migration is never edited).
 */
export const HANDED_OVER_TABLES: Readonly<Record<string, string>> = Object.freeze({ redirect_links: 'redirect-links' });

/** Migration bookkeeping (op_migrations_core, op_migrations_<plugin>, the lock) is the core's too. */
export const CORE_TABLE_PREFIX = 'op_';
