// The tickets plugin's tables. A ticket keeps, besides its status, when each side last wrote and
// last read it, so both lists show an unread marker without counting messages; a message marked
// `internal` is a staff note the customer never sees. ticket_role_departments limits a role to some
// departments: a role with no rows there sees every department.
import type { Generated, Kysely } from 'kysely';
import type { PluginReadableDatabase, ServerPluginMigration } from '@orepanel/sdk/server';

export const TICKET_STATUSES = ['open', 'inprogress', 'waiting', 'replied', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

export interface TicketDepartmentsTable {
  id: Generated<number>;
  name: string;
  description: string;
  /** 1 or 0: customers open tickets only in an enabled department */
  enabled: Generated<number>;
  /** the opening hours as JSON (shared/opening-hours.ts OpeningHours); null: none stated */
  hours: string | null;
  /** free text beside the hours ("closed on public holidays") */
  hours_note: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface TicketsTable {
  id: Generated<number>;
  user_id: number;
  department_id: number;
  subject: string;
  priority: TicketPriority;
  status: TicketStatus;
  /** the staff member it is assigned to (null: nobody, or the account is gone) */
  assigned_to: number | null;
  created_at: string;
  updated_at: string;
  /** when the customer / staff last wrote in it (staff notes excepted); null: never */
  customer_wrote_at: string | null;
  staff_wrote_at: string | null;
  /** when the customer / staff last opened it */
  customer_read_at: string | null;
  staff_read_at: string | null;
  /** when it was last closed (reopening is allowed for tickets_reopen_days after it) */
  closed_at: string | null;
  /** the customer's server it is about (checked as theirs when opened; the servers plugin's id, no foreign key) */
  server_id: number | null;
}

export interface TicketMessagesTable {
  id: Generated<number>;
  ticket_id: number;
  /** the author (null once that account is gone) */
  user_id: number | null;
  /** 1: written by staff */
  staff: number;
  /** 1: a staff note, never shown to the customer */
  internal: number;
  body: string;
  created_at: string;
}

export interface TicketRoleDepartmentsTable {
  id: Generated<number>;
  role_id: number;
  department_id: number;
}

/** Whether a role's staff get ticket mail; a role without a row gets it (opting out is the choice). */
export interface TicketMailRolesTable {
  id: Generated<number>;
  role_id: number;
  /** 1 or 0 */
  mail: number;
}

/** A department's outgoing webhook (one at most); the URL and the secret are sealed with ctx.secrets. */
export interface TicketDepartmentWebhooksTable {
  id: Generated<number>;
  department_id: number;
  /** sealed: a Discord webhook's address carries its token */
  url: string;
  /** 'discord' | 'json' (webhook-payloads.ts) */
  kind: string;
  /** sealed HMAC key of the json kind; null: none */
  secret: string | null;
  /** 1 or 0 */
  enabled: number;
  /** the events sent, comma-separated (webhooks.ts WEBHOOK_EVENTS) */
  events: string;
  /** the last delivery that ended: 'ok' | 'retrying' | 'failed'; null: none yet */
  last_status: string | null;
  last_at: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** Webhook deliveries waiting to be sent or given up; a sent one is deleted. */
export interface TicketWebhookDeliveriesTable {
  id: Generated<number>;
  department_id: number;
  event: string;
  /** the event's facts as JSON, taken when it happened (webhook-payloads.ts WebhookFacts) */
  payload: string;
  /** 'pending' | 'failed' */
  status: Generated<string>;
  attempts: Generated<number>;
  next_attempt_at: string;
  /** a claim by one panel instance, so no two send one delivery */
  lease_until: string | null;
  lease_owner: string | null;
  last_error: string | null;
  created_at: string;
}

/** A file attached to a message; the file itself lives in ctx.files under file_key. */
export interface TicketAttachmentsTable {
  id: Generated<number>;
  message_id: number;
  /** the message's ticket, so access is checked through the ticket without a join */
  ticket_id: number;
  /** ctx.files' random key */
  file_key: string;
  /** the uploader's name, sanitised by ctx.files */
  name: string;
  /** decided by the bytes (a StoredFileType) */
  type: string;
  /** bytes as kept */
  size: number;
  created_at: string;
}

/** the plugin's tables, for ctx.db.withTables<TicketTables>() */
export type TicketTables = {
  ticket_attachments: TicketAttachmentsTable;
  ticket_departments: TicketDepartmentsTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  ticket_role_departments: TicketRoleDepartmentsTable;
  ticket_mail_roles: TicketMailRolesTable;
  ticket_department_webhooks: TicketDepartmentWebhooksTable;
  ticket_webhook_deliveries: TicketWebhookDeliveriesTable;
};

export type TicketDb = Kysely<PluginReadableDatabase & TicketTables>;

const TIMESTAMP = 'varchar(32)';

export const TICKET_MIGRATIONS: Record<string, ServerPluginMigration> = {
  '0001_departments_tickets_messages': {
    async up(db, kit) {
      await kit
        .createTable('ticket_departments')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('name', 'varchar(64)', (c) => c.notNull())
        .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('tickets')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        // no cascade: a department with tickets is disabled, never deleted
        .addColumn('department_id', 'integer', (c) => c.notNull().references('ticket_departments.id'))
        .addColumn('subject', 'varchar(200)', (c) => c.notNull())
        .addColumn('priority', 'varchar(16)', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('assigned_to', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('customer_wrote_at', TIMESTAMP)
        .addColumn('staff_wrote_at', TIMESTAMP)
        .addColumn('customer_read_at', TIMESTAMP)
        .addColumn('staff_read_at', TIMESTAMP)
        .addColumn('closed_at', TIMESTAMP)
        .execute();
      await db.schema.createIndex('tickets_user_index').on('tickets').columns(['user_id', 'status']).execute();
      await db.schema.createIndex('tickets_department_index').on('tickets').columns(['department_id', 'status']).execute();

      await kit
        .createTable('ticket_messages')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('staff', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('internal', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('body', 'text', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_messages_ticket_index').on('ticket_messages').column('ticket_id').execute();

      await kit
        .createTable('ticket_role_departments')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        // no foreign key: a plugin's keys may point only at its own tables and users; a row of a
        // role that is gone limits nobody
        .addColumn('role_id', 'integer', (c) => c.notNull())
        .addColumn('department_id', 'integer', (c) => c.notNull().references('ticket_departments.id').onDelete('cascade'))
        .addUniqueConstraint('ticket_role_departments_unique', ['role_id', 'department_id'])
        .execute();
    },
  },
  '0002_mail_roles': {
    async up(_db, kit) {
      await kit
        .createTable('ticket_mail_roles')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        // no foreign key, as in ticket_role_departments: a row of a role that is gone mails nobody
        .addColumn('role_id', 'integer', (c) => c.notNull().unique())
        .addColumn('mail', 'integer', (c) => c.notNull().defaultTo(1))
        .execute();
    },
  },
  '0003_department_hours': {
    async up(db) {
      // one column per statement: SQLite adds one at a time
      await db.schema.alterTable('ticket_departments').addColumn('hours', 'text').execute();
      await db.schema
        .alterTable('ticket_departments')
        .addColumn('hours_note', 'varchar(255)', (c) => c.notNull().defaultTo(''))
        .execute();
    },
  },
  '0004_department_webhooks': {
    async up(db, kit) {
      await kit
        .createTable('ticket_department_webhooks')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('department_id', 'integer', (c) => c.notNull().unique().references('ticket_departments.id').onDelete('cascade'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('kind', 'varchar(16)', (c) => c.notNull())
        .addColumn('secret', 'text')
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('events', 'varchar(128)', (c) => c.notNull())
        .addColumn('last_status', 'varchar(16)')
        .addColumn('last_at', TIMESTAMP)
        .addColumn('last_error', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('updated_at', TIMESTAMP, (c) => c.notNull())
        .execute();

      await kit
        .createTable('ticket_webhook_deliveries')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        .addColumn('department_id', 'integer', (c) => c.notNull().references('ticket_departments.id').onDelete('cascade'))
        .addColumn('event', 'varchar(32)', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('pending'))
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', TIMESTAMP, (c) => c.notNull())
        .addColumn('lease_until', TIMESTAMP)
        .addColumn('lease_owner', 'varchar(32)')
        .addColumn('last_error', 'varchar(500)')
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_webhook_deliveries_due_index').on('ticket_webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
    },
  },
  '0003_ticket_attachments': {
    async up(db, kit) {
      await kit
        .createTable('ticket_attachments')
        .addColumn('id', 'integer', (c) => kit.autoId(c))
        // a message's rows go with it and a ticket's with the ticket (an account's tickets go with the
        // account: its files are deleted on user.deleting, see attachments.ts)
        .addColumn('message_id', 'integer', (c) => c.notNull().references('ticket_messages.id').onDelete('cascade'))
        .addColumn('ticket_id', 'integer', (c) => c.notNull().references('tickets.id').onDelete('cascade'))
        .addColumn('file_key', 'varchar(32)', (c) => c.notNull().unique())
        .addColumn('name', 'varchar(160)', (c) => c.notNull())
        .addColumn('type', 'varchar(32)', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', TIMESTAMP, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('ticket_attachments_ticket_index').on('ticket_attachments').column('ticket_id').execute();
    },
  },
  '0006_linked_server': {
    async up(db) {
      // no foreign key: the servers table is the servers plugin's (and may not exist while it is off)
      await db.schema.alterTable('tickets').addColumn('server_id', 'integer').execute();
    },
  },
};
