// The auth plugin's own tables: single-use tokens (password reset, e-mail verification) stored as
// SHA-256 hashes, and two-factor secrets with their hashed recovery codes.
import type { Generated, Kysely } from 'kysely';
import type { CoreDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

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

/** the plugin's tables, for ctx.db.withTables<AuthTables>() */
export type AuthTables = {
  auth_tokens: AuthTokensTable;
  auth_two_factor: TwoFactorTable;
  auth_recovery_codes: RecoveryCodesTable;
};

export type AuthDb = Kysely<CoreDatabase & AuthTables>;

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
};
