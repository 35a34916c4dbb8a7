// The tickets themselves: the customer's side (their own tickets only, never a staff note) and the
// staff's side (within the departments their role is limited to). Status follows who spoke last —
// a customer's message makes a ticket `open`, a staff answer `replied` — and either side closes it.
import { insertedId, likeLiteral, type DatabaseDialect, type httpError as HttpErrorFn, type StoredFile } from '@orepanel/sdk/server';
import { sql } from 'kysely';
import { keepAttachments } from './attachments';
import type { DepartmentScope } from './departments';
import { TICKET_PRIORITIES, type TicketDb, type TicketPriority, type TicketStatus, type TicketsTable } from './tables';
import type { AssigneeRefusal } from './ticket-staff';

export const TICKET_LIMITS = { subjectMinLength: 3, subjectMaxLength: 200, messageMinLength: 1, messageMaxLength: 10_000, searchMaxLength: 64 } as const;

/** what staff may set by hand: `replied` comes from their answer, never from a click */
export const STAFF_STATUSES = ['open', 'inprogress', 'waiting', 'closed'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

const DAY_MS = 86_400_000;

export type TicketRow = { [K in keyof TicketsTable]: K extends 'id' ? number : TicketsTable[K] };

export interface TicketSummary {
  id: number;
  department_id: number;
  subject: string;
  priority: TicketPriority;
  status: TicketStatus;
  /** the other side wrote since this side last opened it */
  unread: boolean;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

/** a row of a list: the ticket and its department's name (a disabled department's too) */
export interface ListedTicket extends TicketSummary {
  department_name: string;
}

export interface StaffTicketSummary extends ListedTicket {
  assigned_to: number | null;
  customer: { uuid: string; username: string } | null;
}

export interface MessageView {
  id: number;
  body: string;
  staff: boolean;
  internal: boolean;
  author: string | null;
  created_at: string;
}

export interface TicketSettings {
  maxOpen: number;
  reopenDays: number;
  autocloseDays: number;
}

/** the staff list's orders: last activity first, or the most urgent first (then last activity) */
export const STAFF_SORTS = ['activity', 'priority'] as const;
export type StaffSort = (typeof STAFF_SORTS)[number];

export interface StaffFilters {
  search: string;
  status?: TicketStatus;
  priority?: TicketPriority;
  department_id?: number;
  /** one staff member's tickets (an account id) */
  assigned_to?: number;
  /** nobody's tickets; the caller's own are asked for with assigned_to */
  unassigned?: boolean;
  unanswered?: boolean;
  sort?: StaffSort;
}

export interface StaffChanges {
  status?: StaffStatus;
  priority?: TicketPriority;
  department_id?: number;
  assigned_to?: number | null;
}

const priorityRank = sql<number>`case t.priority ${sql.join(
  [...TICKET_PRIORITIES].reverse().map((p, rank) => sql`when ${sql.lit(p)} then ${sql.lit(rank)}`),
  sql` `,
)} else ${sql.lit(TICKET_PRIORITIES.length)} end`;

const later = (a: string | null, b: string | null) => a !== null && (b === null || a > b);

function summaryOf(row: TicketRow, side: 'customer' | 'staff'): TicketSummary {
  return {
    id: Number(row.id),
    department_id: Number(row.department_id),
    subject: row.subject,
    priority: row.priority,
    status: row.status,
    unread: side === 'customer' ? later(row.staff_wrote_at, row.customer_read_at) : later(row.customer_wrote_at, row.staff_read_at),
    created_at: row.created_at,
    updated_at: row.updated_at,
    closed_at: row.closed_at,
  };
}

const ASSIGNEE_REFUSALS: Record<AssigneeRefusal, string> = {
  UNKNOWN_USER: 'assigned_to names no account.',
  NOT_STAFF: 'A ticket can only be assigned to staff who may view tickets.',
  ASSIGNEE_OUT_OF_SCOPE: 'A ticket can only be assigned to staff who see its department.',
};

export class Desk {
  constructor(
    private readonly db: TicketDb,
    private readonly dialect: DatabaseDialect,
    private readonly httpError: typeof HttpErrorFn,
    private readonly clock: () => number,
    /** why an account may not be given a ticket of a department (ticket-staff.ts), null when it may */
    private readonly assigneeRefusal: (userId: number, departmentId: number) => Promise<AssigneeRefusal | null>,
  ) {}

  private now(): string {
    return new Date(this.clock()).toISOString();
  }

  // ---- the customer's side ----------------------------------------------------------------------

  async listMine(userId: number, status: TicketStatus | undefined, page: number, perPage: number): Promise<{ rows: ListedTicket[]; total: number }> {
    let query = this.db.selectFrom('tickets').where('user_id', '=', userId);
    if (status) query = query.where('status', '=', status);
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    const rows = await query
      .selectAll()
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const names = await this.departmentNames(rows.map((row) => row.department_id));
    return { rows: rows.map((row) => ({ ...summaryOf(row as TicketRow, 'customer'), department_name: names.get(Number(row.department_id)) ?? '' })), total: Number(total) };
  }

  /** The names of the departments of a page of tickets (one query, whatever their number). */
  private async departmentNames(ids: readonly number[]): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.map(Number))];
    if (wanted.length === 0) return new Map();
    const rows = await this.db.selectFrom('ticket_departments').select(['id', 'name']).where('id', 'in', wanted).execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  async create(
    userId: number,
    input: { department_id: number; subject: string; priority: TicketPriority; message: string },
    settings: TicketSettings,
    files: readonly StoredFile[] = [],
  ): Promise<number> {
    await this.refuseTooManyOpen(userId, settings.maxOpen);
    const now = this.now();
    return this.db.transaction().execute(async (trx) => {
      const id = await insertedId(
        this.dialect,
        trx.insertInto('tickets').values({
          user_id: userId,
          department_id: input.department_id,
          subject: input.subject,
          priority: input.priority,
          status: 'open',
          assigned_to: null,
          created_at: now,
          updated_at: now,
          customer_wrote_at: now,
          staff_wrote_at: null,
          customer_read_at: now,
          staff_read_at: null,
          closed_at: null,
        }),
      );
      const messageId = await insertedId(
        this.dialect,
        trx.insertInto('ticket_messages').values({ ticket_id: id, user_id: userId, staff: 0, internal: 0, body: input.message, created_at: now }),
      );
      await keepAttachments(trx, id, messageId, files, now);
      return id;
    });
  }

  /** The user's own ticket, or 404 (another user's ticket is as missing as one that does not exist). */
  async mine(userId: number, id: number): Promise<TicketRow> {
    const row = await this.db.selectFrom('tickets').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw this.httpError(404, 'TICKET_NOT_FOUND', 'No such ticket.');
    return row as TicketRow;
  }

  /** The ticket and its messages as the customer sees them (no staff notes); marks it read. */
  async viewMine(userId: number, id: number): Promise<{ ticket: TicketSummary; messages: MessageView[] }> {
    const row = await this.mine(userId, id);
    const ticket = summaryOf(row, 'customer');
    await this.db.updateTable('tickets').set({ customer_read_at: this.now() }).where('id', '=', id).execute();
    return { ticket, messages: await this.messages(id, false) };
  }

  async customerReply(userId: number, id: number, body: string, files: readonly StoredFile[] = []): Promise<void> {
    const row = await this.mine(userId, id);
    if (row.status === 'closed') throw this.httpError(409, 'TICKET_CLOSED', 'This ticket is closed; reopen it to reply.');
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const messageId = await insertedId(this.dialect, trx.insertInto('ticket_messages').values({ ticket_id: id, user_id: userId, staff: 0, internal: 0, body, created_at: now }));
      await keepAttachments(trx, id, messageId, files, now);
      await trx.updateTable('tickets').set({ status: 'open', customer_wrote_at: now, customer_read_at: now, updated_at: now }).where('id', '=', id).execute();
    });
  }

  async customerClose(userId: number, id: number): Promise<void> {
    const row = await this.mine(userId, id);
    if (row.status === 'closed') throw this.httpError(409, 'TICKET_CLOSED', 'This ticket is already closed.');
    await this.close(id);
  }

  async customerReopen(userId: number, id: number, settings: TicketSettings): Promise<void> {
    const row = await this.mine(userId, id);
    if (row.status !== 'closed') throw this.httpError(409, 'TICKET_NOT_CLOSED', 'This ticket is not closed.');
    if (row.closed_at === null || Date.parse(row.closed_at) + settings.reopenDays * DAY_MS < this.clock()) {
      throw this.httpError(409, 'REOPEN_EXPIRED', `A ticket can be reopened only within ${settings.reopenDays} days of closing; open a new one.`);
    }
    await this.refuseTooManyOpen(userId, settings.maxOpen);
    await this.db.updateTable('tickets').set({ status: 'open', closed_at: null, updated_at: this.now() }).where('id', '=', id).where('status', '=', 'closed').execute();
  }

  private async refuseTooManyOpen(userId: number, maxOpen: number): Promise<void> {
    const { open } = await this.db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number>().as('open'))
      .where('user_id', '=', userId)
      .where('status', '!=', 'closed')
      .executeTakeFirstOrThrow();
    if (Number(open) >= maxOpen) throw this.httpError(409, 'TOO_MANY_OPEN_TICKETS', `You may have at most ${maxOpen} open tickets; close one first.`);
  }

  private async close(id: number): Promise<void> {
    const now = this.now();
    await this.db.updateTable('tickets').set({ status: 'closed', closed_at: now, updated_at: now }).where('id', '=', id).execute();
  }

  private async messages(ticketId: number, withNotes: boolean): Promise<MessageView[]> {
    let query = this.db
      .selectFrom('ticket_messages as m')
      .leftJoin('user_public as u', 'u.id', 'm.user_id')
      .select(['m.id', 'm.body', 'm.staff', 'm.internal', 'm.created_at', 'u.username'])
      .where('m.ticket_id', '=', ticketId);
    if (!withNotes) query = query.where('m.internal', '=', 0);
    const rows = await query.orderBy('m.id').execute();
    return rows.map((m) => ({
      id: Number(m.id),
      body: m.body,
      staff: Number(m.staff) === 1,
      internal: Number(m.internal) === 1,
      author: m.username ?? null,
      created_at: m.created_at,
    }));
  }

  // ---- the staff's side -------------------------------------------------------------------------

  private scoped(scope: DepartmentScope) {
    let query = this.db.selectFrom('tickets as t').leftJoin('user_public as u', 'u.id', 't.user_id');
    // an empty scope cannot happen (no rows means every department), but would mean none
    if (scope !== null) query = query.where('t.department_id', 'in', scope.length > 0 ? [...scope] : [-1]);
    return query;
  }

  async staffList(scope: DepartmentScope, filters: StaffFilters, page: number, perPage: number): Promise<{ rows: StaffTicketSummary[]; total: number }> {
    let query = this.scoped(scope);
    if (filters.status) query = query.where('t.status', '=', filters.status);
    if (filters.priority) query = query.where('t.priority', '=', filters.priority);
    if (filters.department_id !== undefined) query = query.where('t.department_id', '=', filters.department_id);
    if (filters.assigned_to !== undefined) query = query.where('t.assigned_to', '=', filters.assigned_to);
    if (filters.unassigned) query = query.where('t.assigned_to', 'is', null);
    // waiting on staff: the customer spoke last
    if (filters.unanswered) query = query.where('t.status', '=', 'open');
    const term = filters.search.trim().toLowerCase();
    if (term !== '') {
      const pattern = `%${likeLiteral(term)}%`;
      const asId = /^\d{1,9}$/.test(term) ? Number(term) : -1;
      query = query.where((eb) =>
        eb.or([eb('t.id', '=', asId), sql<boolean>`lower(t.subject) like ${pattern} escape '!'`, sql<boolean>`u.username_lower like ${pattern} escape '!'`]),
      );
    }
    const { total } = await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
    let ordered = query.selectAll('t').select(['u.uuid', 'u.username']);
    // priority is a string: a CASE ranks it the same way on every dialect (urgent 0 … low 3)
    if (filters.sort === 'priority') ordered = ordered.orderBy(priorityRank);
    const rows = await ordered
      .orderBy('t.updated_at', 'desc')
      .orderBy('t.id', 'desc')
      .limit(perPage)
      .offset((page - 1) * perPage)
      .execute();
    const names = await this.departmentNames(rows.map((row) => row.department_id));
    return {
      rows: rows.map((row) => ({
        ...summaryOf(row as TicketRow, 'staff'),
        department_name: names.get(Number(row.department_id)) ?? '',
        assigned_to: row.assigned_to === null ? null : Number(row.assigned_to),
        customer: row.uuid && row.username ? { uuid: row.uuid, username: row.username } : null,
      })),
      total: Number(total),
    };
  }

  async staffCounts(scope: DepartmentScope): Promise<Record<TicketStatus, number>> {
    const rows = await this.scoped(scope)
      .select(['t.status', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('t.status')
      .execute();
    const counts: Record<TicketStatus, number> = { open: 0, inprogress: 0, waiting: 0, replied: 0, closed: 0 };
    for (const row of rows) if (row.status in counts) counts[row.status] = Number(row.n);
    return counts;
  }

  /** A ticket in the staff member's departments, or 404 (one outside them is as missing as none). */
  async inScope(scope: DepartmentScope, id: number): Promise<TicketRow> {
    const row = await this.db.selectFrom('tickets').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || (scope !== null && !scope.includes(Number(row.department_id)))) throw this.httpError(404, 'TICKET_NOT_FOUND', 'No such ticket.');
    return row as TicketRow;
  }

  async staffView(scope: DepartmentScope, id: number) {
    const row = await this.inScope(scope, id);
    const customer = await this.db
      .selectFrom('user_public')
      .select(['uuid', 'username', 'avatar', 'role_name', 'role_color', 'banned', 'verified', 'created_at'])
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    const ticket = this.staffTicket(row);
    await this.db.updateTable('tickets').set({ staff_read_at: this.now() }).where('id', '=', id).execute();
    return {
      ticket,
      customer: customer
        ? {
            uuid: customer.uuid,
            username: customer.username,
            avatar: customer.avatar,
            role_name: customer.role_name,
            role_color: customer.role_color,
            banned: Number(customer.banned) === 1,
            verified: Number(customer.verified) === 1,
            created_at: customer.created_at,
          }
        : null,
      messages: await this.messages(id, true),
    };
  }

  /** A ticket as staff see it. */
  staffTicket(row: TicketRow): TicketSummary & { assigned_to: number | null } {
    return { ...summaryOf(row, 'staff'), assigned_to: row.assigned_to === null ? null : Number(row.assigned_to) };
  }

  /** A staff answer (the ticket becomes `replied`) or an internal note (the ticket stays as it is). */
  async staffWrite(scope: DepartmentScope, staffId: number, id: number, body: string, internal: boolean, files: readonly StoredFile[] = []): Promise<TicketRow> {
    const row = await this.inScope(scope, id);
    if (!internal && row.status === 'closed') throw this.httpError(409, 'TICKET_CLOSED', 'This ticket is closed; reopen it to reply.');
    const now = this.now();
    await this.db.transaction().execute(async (trx) => {
      const messageId = await insertedId(
        this.dialect,
        trx.insertInto('ticket_messages').values({ ticket_id: id, user_id: staffId, staff: 1, internal: internal ? 1 : 0, body, created_at: now }),
      );
      await keepAttachments(trx, id, messageId, files, now);
      if (internal) await trx.updateTable('tickets').set({ staff_read_at: now }).where('id', '=', id).execute();
      else await trx.updateTable('tickets').set({ status: 'replied', staff_wrote_at: now, staff_read_at: now, updated_at: now }).where('id', '=', id).execute();
    });
    return row;
  }

  /** Status, priority, department, assignee; a department outside the staff member's scope is refused. */
  async staffChange(scope: DepartmentScope, id: number, changes: StaffChanges): Promise<TicketRow> {
    const row = await this.inScope(scope, id);
    if (changes.department_id !== undefined) {
      if (scope !== null && !scope.includes(changes.department_id)) {
        throw this.httpError(400, 'DEPARTMENT_UNAVAILABLE', 'You cannot move a ticket to a department outside yours.', 'department_id');
      }
      const department = await this.db.selectFrom('ticket_departments').select('id').where('id', '=', changes.department_id).executeTakeFirst();
      if (!department) throw this.httpError(400, 'DEPARTMENT_UNAVAILABLE', 'There is no such department.', 'department_id');
    }
    if (changes.assigned_to !== undefined && changes.assigned_to !== null) {
      // the assignee must see the department the ticket ends up in
      const refusal = await this.assigneeRefusal(changes.assigned_to, changes.department_id ?? Number(row.department_id));
      if (refusal !== null) throw this.httpError(400, refusal, ASSIGNEE_REFUSALS[refusal], 'assigned_to');
    }
    const now = this.now();
    const set: Partial<Omit<TicketRow, 'id'>> = { updated_at: now };
    if (changes.priority !== undefined) set.priority = changes.priority;
    if (changes.department_id !== undefined) set.department_id = changes.department_id;
    if (changes.assigned_to !== undefined) set.assigned_to = changes.assigned_to;
    else if (changes.department_id !== undefined && row.assigned_to !== null && changes.department_id !== Number(row.department_id)) {
      // moved out of its assignee's reach: nobody's again, so the new department's staff take it up
      if ((await this.assigneeRefusal(Number(row.assigned_to), changes.department_id)) !== null) set.assigned_to = null;
    }
    if (changes.status !== undefined && changes.status !== row.status) {
      set.status = changes.status;
      set.closed_at = changes.status === 'closed' ? now : null;
    }
    await this.db.updateTable('tickets').set(set).where('id', '=', id).execute();
    return this.inScope(null, id);
  }

  /**
   * Closes the tickets that waited on the customer (replied) for `days`; answers the ids this call
   * closed. Each is closed by its own conditional update, so when two instances run the job at once
   * each ticket is counted (and its customer mailed) by one of them only.
   */
  async autoClose(days: number): Promise<number[]> {
    const now = this.now();
    const before = new Date(this.clock() - days * DAY_MS).toISOString();
    const due = await this.db.selectFrom('tickets').select('id').where('status', '=', 'replied').where('staff_wrote_at', '<=', before).orderBy('id').execute();
    const closed: number[] = [];
    for (const { id } of due) {
      const result = await this.db
        .updateTable('tickets')
        .set({ status: 'closed', closed_at: now, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'replied')
        .where('staff_wrote_at', '<=', before)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) closed.push(Number(id));
    }
    return closed;
  }
}
