// The browsers an account has signed in from: (account, SHA-256 of the op_device cookie), remembered
// at every sign-in. The login limit gives such a browser a budget of its own (rate-limit-policies.ts),
// so a stranger's wrong passwords, which use up the account's budget, never lock the owner out of
// the browser they always use. The cookie itself is never stored.
import type { Kysely } from 'kysely';
import { insertUnlessTaken, type CoreDatabase, type DatabaseDialect, type MigrationKit } from '../../sdk/server';
import { DEVICE_COOKIE_MAX_AGE } from './alt-detection';

export interface KnownDevicesTable {
  user_id: number;
  /** SHA-256 (hex) of the op_device cookie */
  device_hash: string;
  last_seen_at: string;
}

type KnownDevicesDb = Kysely<CoreDatabase & { known_devices: KnownDevicesTable }>;

/**
 * The most browsers one account keeps: the least recently used beyond it is forgotten (and then
 * counts as a stranger again), so the table cannot grow without bound.
 */
export const MAX_KNOWN_DEVICES = 20;
/** a browser unseen for as long as its cookie lives has lost the cookie anyway */
const FORGET_AFTER_MS = DEVICE_COOKIE_MAX_AGE * 1000;

export async function createKnownDevicesTable(kit: MigrationKit): Promise<void> {
  await kit
    .createTable('known_devices')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('last_seen_at', 'varchar(32)', (c) => c.notNull())
    .addPrimaryKeyConstraint('known_devices_pk', ['user_id', 'device_hash'])
    .execute();
}

export class KnownDevices {
  private readonly db: KnownDevicesDb;

  constructor(
    db: Kysely<CoreDatabase>,
    private readonly dialect: DatabaseDialect,
    private readonly now: () => number = Date.now,
  ) {
    this.db = db.withTables<{ known_devices: KnownDevicesTable }>();
  }

  /** Records that `userId` signed in from the browser whose cookie hashes to `deviceHash`. */
  async remember(userId: number, deviceHash: string): Promise<void> {
    const seen = new Date(this.now()).toISOString();
    const updated = await this.db.updateTable('known_devices').set({ last_seen_at: seen }).where('user_id', '=', userId).where('device_hash', '=', deviceHash).executeTakeFirst();
    // MySQL counts an update that changed nothing as 0 rows: the insert then finds the row taken
    if (Number(updated.numUpdatedRows) === 0) {
      await insertUnlessTaken(this.dialect, this.db.insertInto('known_devices').values({ user_id: userId, device_hash: deviceHash, last_seen_at: seen })).execute();
    }
    const rows = await this.db.selectFrom('known_devices').select(['device_hash', 'last_seen_at']).where('user_id', '=', userId).orderBy('last_seen_at', 'desc').execute();
    const cutoff = new Date(this.now() - FORGET_AFTER_MS).toISOString();
    const forget = rows.filter((row, index) => index >= MAX_KNOWN_DEVICES || row.last_seen_at < cutoff).map((row) => row.device_hash);
    if (forget.length > 0) await this.db.deleteFrom('known_devices').where('user_id', '=', userId).where('device_hash', 'in', forget).execute();
  }

  async isKnown(userId: number, deviceHash: string): Promise<boolean> {
    const cutoff = new Date(this.now() - FORGET_AFTER_MS).toISOString();
    const row = await this.db
      .selectFrom('known_devices')
      .select('user_id')
      .where('user_id', '=', userId)
      .where('device_hash', '=', deviceHash)
      .where('last_seen_at', '>=', cutoff)
      .executeTakeFirst();
    return row !== undefined;
  }
}
