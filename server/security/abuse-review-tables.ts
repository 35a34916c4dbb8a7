// The anti-abuse tables (core, since the admin user screens read them):
// - account_flags: why an account should be looked at (a shared browser or IP, a VPN address, a VPN
//   check that could not be made), with the evidence, until an administrator clears it;
// - sign_in_traces: which account signed in from which IP and browser (device cookie, hashed), kept
//   only while block_alts is on and only as long as the longest alt window.
import type { Generated, Kysely } from 'kysely';
import type { CoreDatabase, MigrationKit } from '../../sdk/server';

export type FlagKind = 'alt' | 'vpn';
/** shared_device / shared_ip: another account; vpn_detected: the checker said so; vpn_unchecked: it could not be asked */
export type FlagReason = 'shared_device' | 'shared_ip' | 'vpn_detected' | 'vpn_unchecked';

export interface AccountFlagsTable {
  id: Generated<number>;
  user_id: number;
  kind: FlagKind;
  reason: FlagReason;
  /** JSON array of evidence keys: "user:<id>" (a linked account) or "ip:<address>" (a checked address) */
  evidence: string;
  /** the address of the latest sign-in that raised or extended the flag */
  ip: string | null;
  /** a short word from the checker (e.g. "VPN") or why it could not answer */
  detail: string | null;
  /**
   * "<user>:<kind>:<reason>" while the flag is open, null once cleared: a unique index keeps one open
   * flag per reason on every dialect (NULLs do not collide), so concurrent sign-ins cannot double it.
   */
  open_key: string | null;
  created_at: string;
  updated_at: string;
  cleared_at: string | null;
  /** the administrator who cleared it (no foreign key: the history outlives the account) */
  cleared_by: number | null;
  clear_note: string | null;
}

export interface SignInTracesTable {
  id: Generated<number>;
  user_id: number;
  ip: string | null;
  /** SHA-256 (hex) of the op_device cookie; the cookie itself is never stored */
  device_hash: string | null;
  created_at: string;
}

export type AbuseReviewTables = {
  account_flags: AccountFlagsTable;
  sign_in_traces: SignInTracesTable;
};

export type AbuseReviewDb = Kysely<CoreDatabase & AbuseReviewTables>;

const TIMESTAMP = 'varchar(32)';

export async function createAbuseReviewTables(db: Kysely<unknown>, kit: MigrationKit): Promise<void> {
  await kit
    .createTable('account_flags')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('reason', 'varchar(32)', (c) => c.notNull())
    .addColumn('evidence', 'text', (c) => c.notNull())
    .addColumn('ip', 'varchar(45)')
    .addColumn('detail', 'varchar(255)')
    .addColumn('open_key', 'varchar(80)', (c) => c.unique())
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
    .addColumn('cleared_at', TIMESTAMP)
    .addColumn('cleared_by', 'integer')
    .addColumn('clear_note', 'varchar(255)')
    .execute();
  await db.schema.createIndex('account_flags_user_index').on('account_flags').columns(['user_id', 'id']).execute();

  await kit
    .createTable('sign_in_traces')
    .addColumn('id', 'integer', (c) => kit.autoId(c))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('ip', 'varchar(45)')
    .addColumn('device_hash', 'varchar(64)')
    .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_traces_ip_index').on('sign_in_traces').columns(['ip', 'created_at']).execute();
  await db.schema.createIndex('sign_in_traces_device_index').on('sign_in_traces').columns(['device_hash', 'created_at']).execute();
  await db.schema.createIndex('sign_in_traces_created_index').on('sign_in_traces').column('created_at').execute();
}
