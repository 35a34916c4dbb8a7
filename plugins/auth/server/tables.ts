// The auth plugin's own tables: single-use tokens (password reset, e-mail verification) stored as
// SHA-256 hashes, two-factor secrets with their hashed recovery codes, and federation (0002):
// /auth/sso tokens, the key they are signed with, linked Discord/GitHub accounts and OAuth states.
import type { Generated, Kysely } from 'kysely';
import type { CoreDatabase, PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export type TokenPurpose = 'reset_password' | 'verify_email';

export interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  purpose: TokenPurpose;
  /** SHA-256 (hex) of the token; the token itself is only in the mail */
  token_hash: string;
  /** the (lower-cased) address the token was mailed to */
  email: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

export interface TwoFactorTable {
  user_id: number;
  /** the base32 secret of the enabled factor, sealed with ctx.secrets; null while only a setup is pending */
  secret: string | null;
  /** a secret shown by GET /2fa/setup and not yet confirmed with a code (sealed) */
  pending_secret: string | null;
  pending_created_at: string | null;
  /** the last TOTP time step accepted: a code is never accepted twice (RFC 6238 §5.2) */
  last_used_step: number | null;
  enabled_at: string | null;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  code_hash: string;
  used_at: string | null;
  created_at: string;
}

/** Sign-in tokens an administrator issued for /auth/sso (see sso.ts): single use, short-lived. */
export interface SsoTokensTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 (hex) of the whole signed token */
  token_hash: string;
  /** the administrator who issued it (null once that account is gone) */
  issued_by: number | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** Keys the plugin signs with, sealed with ctx.secrets (one row per purpose, made on first use). */
export interface SigningKeysTable {
  purpose: string;
  sealed_key: string;
  created_at: string;
}

export type OAuthProviderId = 'discord' | 'github';

/** A provider account linked to a panel user: one per provider and user, one user per provider account. */
export interface OAuthAccountsTable {
  id: Generated<number>;
  user_id: number;
  provider: OAuthProviderId;
  /** the provider's stable user id (Discord snowflake, GitHub numeric id) as text */
  provider_user_id: string;
  /** the name the provider showed at linking time, for the account page */
  provider_username: string;
  created_at: string;
}

export type OAuthPurpose = 'login' | 'link';
/** what a state was begun for: the plugin's own flows, or a grant another plugin asked for (auth.oauth-grants, e.g. j4r) */
export type OAuthStatePurpose = OAuthPurpose | (string & {});

/** An OAuth authorization in flight: the state sent to the provider, bound to one browser (see oauth-state.ts). */
export interface OAuthStatesTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the state parameter */
  state_hash: string;
  /** SHA-256 (hex) of the browser's binding cookie */
  browser_hash: string;
  provider: OAuthProviderId;
  purpose: OAuthStatePurpose;
  /** for a link (or a grant): the signed-in user who started it */
  user_id: number | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** the plugin's tables, for ctx.db.withTables<AuthTables>() */
export type AuthTables = {
  auth_tokens: AuthTokensTable;
  auth_two_factor: TwoFactorTable;
  auth_recovery_codes: RecoveryCodesTable;
  auth_sso_tokens: SsoTokensTable;
  auth_signing_keys: SigningKeysTable;
  auth_oauth_accounts: OAuthAccountsTable;
  auth_oauth_states: OAuthStatesTable;
};

/** The core table the plugin still reads, on the reviewed exception list (server/plugins/table-exceptions.ts). */
export type AuthCoreReads = Pick<CoreDatabase, 'users'>;

export type AuthDb = Kysely<PluginReadableDatabase & AuthTables & AuthCoreReads>;

const TIMESTAMP = 'varchar(32)';

export const AUTH_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_tokens_and_two_factor': {
    async up(db, kit) {
      await kit
        .createTable('auth_tokens')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('email', 'varchar(254)', (c) => c.notNull())
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_tokens_user_index').on('auth_tokens').columns(['user_id', 'purpose']).execute();

      await kit
        .createTable('auth_two_factor')
        .addColumn('user_id', 'integer', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('secret', 'varchar(255)')
        .addColumn('pending_secret', 'varchar(255)')
        .addColumn('pending_created_at', TIMESTAMP)
        .addColumn('last_used_step', 'bigint')
        .addColumn('enabled_at', TIMESTAMP)
        .execute();

      await kit
        .createTable('auth_recovery_codes')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_recovery_codes_user_index').on('auth_recovery_codes').columns(['user_id', 'code_hash']).execute();
    },
  },
  '0002_federation': {
    async up(db, kit) {
      await kit
        .createTable('auth_sso_tokens')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('issued_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('auth_signing_keys')
        .addColumn('purpose', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('sealed_key', 'varchar(255)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('auth_oauth_accounts')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('provider_user_id', 'varchar(64)', (c) => c.notNull())
        .addColumn('provider_username', 'varchar(128)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        // one provider account links to at most one panel user, and a user to one account per provider
        .addUniqueConstraint('auth_oauth_accounts_provider_account_unique', ['provider', 'provider_user_id'])
        .addUniqueConstraint('auth_oauth_accounts_user_provider_unique', ['user_id', 'provider'])
        .execute();

      await kit
        .createTable('auth_oauth_states')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('state_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('browser_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('provider', 'varchar(16)', (c) => c.notNull())
        .addColumn('purpose', 'varchar(8)', (c) => c.notNull())
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('expires_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('used_at', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('auth_oauth_states_expiry_index').on('auth_oauth_states').column('expires_at').execute();
    },
  },
};
