// The servers plugin's tables. A server a customer owns is a `servers` row linked to its panel server
// (unique panel id, unique queue entry: a build can never become two rows). What a customer asked
// for waits in `server_queue` (pending → building → completed | failed) and, while pending or
// building, holds its resources and a server slot, so two requests cannot both spend the same free
// RAM. Every creation attempt leaves a `server_queue_logs` row.
import type { Generated, Kysely } from 'kysely';
import type { CoreDatabase, PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';
import type { QueueAttemptOutcome, QueueStatus, ServerStatus } from '../shared/api';

export interface ServersTable {
  id: Generated<number>;
  user_id: number;
  /** the queue entry it was built from (null for none, e.g. imported) */
  queue_entry_id: number | null;
  panel_id: number;
  identifier: string;
  name: string;
  description: string | null;
  /** catalog ids (the catalog may lose them later; views show null then) */
  location_id: number;
  egg_id: number;
  ram: number;
  disk: number;
  cpu: number;
  ports: number;
  databases: number;
  backups: number;
  status: ServerStatus;
  /** why it is suspended: 'expired' (the renewal job lifts it on renewal) or 'admin' */
  suspended_reason: 'expired' | 'admin' | null;
  suspended_at: string | null;
  /** ISO; null: never expires (renewals were off when it was made) */
  expires_at: string | null;
  /** the expires_at a reminder mail was sent for (one reminder per period) */
  reminded_for: string | null;
  created_at: string;
  updated_at: string;
}

export interface ServerQueueTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  description: string | null;
  location_id: number;
  egg_id: number;
  ram: number;
  disk: number;
  cpu: number;
  ports: number;
  databases: number;
  backups: number;
  status: QueueStatus;
  attempts: Generated<number>;
  /** pending entries are worked when this is due */
  next_attempt_at: string;
  last_error: string | null;
  server_id: number | null;
  /** the administrator who queued it for the user, else null */
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ServerQueueLogsTable {
  id: Generated<number>;
  entry_id: number;
  attempt: number;
  outcome: QueueAttemptOutcome;
  message: string;
  created_at: string;
}

export type ServersTables = {
  servers: ServersTable;
  server_queue: ServerQueueTable;
  server_queue_logs: ServerQueueLogsTable;
};

/** The core table the plugin still reads, on the reviewed exception list (server/plugins/table-exceptions.ts). */
export type ServersCoreReads = Pick<CoreDatabase, 'users'>;

export type ServersDb = Kysely<PluginReadableDatabase & ServersTables & ServersCoreReads>;

const TIMESTAMP = 'varchar(32)';

export const SERVERS_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_servers_and_queue': {
    async up(db, kit) {
      await kit
        .createTable('server_queue')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('description', 'varchar(255)')
        .addColumn('location_id', 'integer', (c) => c.notNull())
        .addColumn('egg_id', 'integer', (c) => c.notNull())
        .addColumn('ram', 'integer', (c) => c.notNull())
        .addColumn('disk', 'integer', (c) => c.notNull())
        .addColumn('cpu', 'integer', (c) => c.notNull())
        .addColumn('ports', 'integer', (c) => c.notNull())
        .addColumn('databases', 'integer', (c) => c.notNull())
        .addColumn('backups', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('last_error', 'varchar(1000)')
        .addColumn('server_id', 'integer')
        .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('server_queue_status_index').on('server_queue').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('server_queue_user_index').on('server_queue').columns(['user_id', 'status']).execute();

      await kit
        .createTable('servers')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('queue_entry_id', 'integer', (c) => c.unique())
        .addColumn('panel_id', 'integer', (c) => c.notNull().unique())
        .addColumn('identifier', 'varchar(64)', (c) => c.notNull())
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('description', 'varchar(255)')
        .addColumn('location_id', 'integer', (c) => c.notNull())
        .addColumn('egg_id', 'integer', (c) => c.notNull())
        .addColumn('ram', 'integer', (c) => c.notNull())
        .addColumn('disk', 'integer', (c) => c.notNull())
        .addColumn('cpu', 'integer', (c) => c.notNull())
        .addColumn('ports', 'integer', (c) => c.notNull())
        .addColumn('databases', 'integer', (c) => c.notNull())
        .addColumn('backups', 'integer', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('suspended_reason', 'varchar(16)')
        .addColumn('suspended_at', TIMESTAMP)
        .addColumn('expires_at', TIMESTAMP)
        .addColumn('reminded_for', TIMESTAMP)
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('servers_user_index').on('servers').column('user_id').execute();
      await db.schema.createIndex('servers_expires_index').on('servers').column('expires_at').execute();

      await kit
        .createTable('server_queue_logs')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('entry_id', 'integer', (c) => c.notNull().references('server_queue.id').onDelete('cascade'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('outcome', 'varchar(16)', (c) => c.notNull())
        .addColumn('message', 'varchar(1000)', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('server_queue_logs_entry_index').on('server_queue_logs').column('entry_id').execute();
    },
  },
};
