// Ticket mail: staff hear of new tickets and of customers' replies, customers of staff answers and of
// their ticket being closed. Mail is queued after the change committed, one mail per recipient, and
// never fails the request (the queue retries a refused delivery; a mail that could not be queued is
// logged). Internal notes mail nobody, and nobody is mailed about a message they wrote themselves.
// Each event also goes to the department's webhook, when it has one (webhooks.ts).
//
// A department's staff: the accounts (not banned) whose role holds admin.tickets.view and is not
// limited away from that department (ticket_role_departments; admin.root sees every department), and
// whose role gets ticket mail (ticket_mail_roles; a role without a row does).
import type { FastifyRequest } from 'fastify';
import { insertUnlessTaken, type ServerPluginContext } from '@orepanel/sdk/server';
import type { TicketDb } from './tables';
import { TicketStaff } from './ticket-staff';
import type { TicketWebhooks } from './webhooks';

/** how much of a message a mail quotes; the rest is one click away */
export const EXCERPT_LENGTH = 500;

export type TicketMail = 'ticket_created' | 'ticket_staff_replied' | 'ticket_customer_replied' | 'ticket_closed' | 'ticket_autoclosed';

export interface MailRoleView {
  role_id: number;
  role_name: string | null;
  /** the role's staff get ticket mail */
  mail: boolean;
}

interface TicketFacts {
  id: number;
  userId: number;
  subject: string;
  department: string;
  departmentId: number;
  assignedTo: number | null;
  customer: string;
}

export function excerpt(message: string): string {
  const text = message.trim();
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH).trimEnd()}…`;
}

export class TicketNotifications {
  private readonly staff: TicketStaff;

  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: TicketDb,
    /** the departments' webhooks hear of the same events (never of an internal note) */
    private readonly webhooks: TicketWebhooks,
  ) {
    this.staff = new TicketStaff(ctx.auth, db);
  }

  /** A customer opened a ticket: its department's staff. */
  async ticketCreated(request: FastifyRequest, ticketId: number, message: string, priority: string): Promise<void> {
    await this.webhooks.enqueue('created', ticketId, message);
    return this.deliver(request, 'ticket_created', ticketId, async (ticket) => {
      const staff = await this.departmentStaff(ticket.departmentId);
      return { to: staff.filter((id) => id !== ticket.userId), link: 'staff', extra: { customer: ticket.customer, priority, message: excerpt(message) } };
    });
  }

  /** A customer replied: the assignee, or the department's staff when nobody (who may still work tickets) is. */
  async customerReplied(request: FastifyRequest, ticketId: number, authorId: number, message: string): Promise<void> {
    await this.webhooks.enqueue('customer_replied', ticketId, message);
    return this.deliver(request, 'ticket_customer_replied', ticketId, async (ticket) => {
      const staff = (await this.assigneeIfStaff(ticket)) ?? (await this.departmentStaff(ticket.departmentId));
      return { to: staff.filter((id) => id !== authorId), link: 'staff', extra: { customer: ticket.customer, message: excerpt(message) } };
    });
  }

  /** Staff answered (never called for an internal note): the customer. */
  async staffReplied(request: FastifyRequest, ticketId: number, authorId: number, message: string): Promise<void> {
    await this.webhooks.enqueue('staff_replied', ticketId, message);
    return this.deliver(request, 'ticket_staff_replied', ticketId, async (ticket) => ({
      to: ticket.userId === authorId ? [] : [ticket.userId],
      link: 'customer',
      extra: { message: excerpt(message) },
    }));
  }

  /** Someone closed the ticket: the customer, unless it was them. */
  async closed(request: FastifyRequest, ticketId: number, closedBy: number, reopenDays: number): Promise<void> {
    await this.webhooks.enqueue('closed', ticketId);
    return this.deliver(request, 'ticket_closed', ticketId, async (ticket) => ({
      to: ticket.userId === closedBy ? [] : [ticket.userId],
      link: 'customer',
      extra: { reopen_days: reopenDays },
    }));
  }

  /** The ticket closed by itself (the auto-close job: no request behind it): the customer. */
  async autoClosed(ticketId: number, autocloseDays: number, reopenDays: number): Promise<void> {
    await this.webhooks.enqueue('closed', ticketId);
    return this.deliver(undefined, 'ticket_autoclosed', ticketId, async (ticket) => ({
      to: [ticket.userId],
      link: 'customer',
      extra: { autoclose_days: autocloseDays, reopen_days: reopenDays },
    }));
  }

  // ---- the per-role choice ----------------------------------------------------------------------

  /** Every role that has staff (accounts holding admin.tickets.view), with whether it gets ticket mail. */
  async mailRoles(): Promise<MailRoleView[]> {
    const roles = await this.staff.roles();
    const names = await this.db.selectFrom('user_public').select(['role_id', 'role_name']).distinct().execute();
    const off = await this.optedOut();
    return roles.map(({ roleId }) => ({
      role_id: roleId,
      role_name: names.find((n) => Number(n.role_id) === roleId)?.role_name ?? null,
      mail: !off.has(roleId),
    }));
  }

  /** Records whether the role's staff get ticket mail; concurrent calls for a role never clash. */
  async setRoleMail(roleId: number, mail: boolean): Promise<void> {
    const value = mail ? 1 : 0;
    const update = () => this.db.updateTable('ticket_mail_roles').set({ mail: value }).where('role_id', '=', roleId).executeTakeFirst();
    if (Number((await update()).numUpdatedRows) > 0) return;
    // no row yet (or MySQL counting an unchanged row as not updated): add it, or set the one a racing call added
    await insertUnlessTaken(this.ctx.dialect, this.db.insertInto('ticket_mail_roles').values({ role_id: roleId, mail: value })).execute();
    await update();
  }

  // ---- recipients -------------------------------------------------------------------------------

  private async optedOut(): Promise<Set<number>> {
    const rows = await this.db.selectFrom('ticket_mail_roles').select('role_id').where('mail', '=', 0).execute();
    return new Set(rows.map((r) => Number(r.role_id)));
  }

  /** The accounts mailed about tickets of `departmentId`: its staff (ticket-staff.ts), less the roles that opted out. */
  private async departmentStaff(departmentId: number): Promise<number[]> {
    const off = await this.optedOut();
    return (await this.staff.members({ departmentId, keep: (role) => !off.has(role.roleId) })).map((m) => m.id);
  }

  /**
   * [the assignee] when the ticket has one who may still work it (holds admin.tickets.view and sees
   * its department, which may have changed since); [] when their role gets no ticket mail; null: nobody.
   */
  private async assigneeIfStaff(ticket: TicketFacts): Promise<number[] | null> {
    if (ticket.assignedTo === null) return null;
    if ((await this.staff.refusal(ticket.assignedTo, ticket.departmentId)) !== null) return null;
    const account = await this.db.selectFrom('user_public').select('role_id').where('id', '=', ticket.assignedTo).executeTakeFirstOrThrow();
    return (await this.optedOut()).has(Number(account.role_id)) ? [] : [ticket.assignedTo];
  }

  // ---- sending ----------------------------------------------------------------------------------

  private async facts(ticketId: number): Promise<TicketFacts | null> {
    const row = await this.db
      .selectFrom('tickets as t')
      .innerJoin('ticket_departments as d', 'd.id', 't.department_id')
      .leftJoin('user_public as u', 'u.id', 't.user_id')
      .select(['t.id', 't.user_id', 't.subject', 't.department_id', 't.assigned_to', 'd.name as department', 'u.username'])
      .where('t.id', '=', ticketId)
      .executeTakeFirst();
    if (!row) return null;
    return {
      id: Number(row.id),
      userId: Number(row.user_id),
      subject: row.subject,
      department: row.department,
      departmentId: Number(row.department_id),
      assignedTo: row.assigned_to === null ? null : Number(row.assigned_to),
      customer: row.username ?? '',
    };
  }

  /** Queues `template` once per recipient `plan` names; any failure is logged, never thrown. */
  private async deliver(
    /** undefined for a job's mail: links come from the panel's public address, never a request */
    request: FastifyRequest | undefined,
    template: TicketMail,
    ticketId: number,
    plan: (ticket: TicketFacts) => Promise<{ to: number[]; link: 'customer' | 'staff'; extra: Record<string, string | number> }>,
  ): Promise<void> {
    try {
      if (!(await this.ctx.mail.enabled())) return;
      const ticket = await this.facts(ticketId);
      if (!ticket) return;
      const { to, link, extra } = await plan(ticket);
      if (to.length === 0) return;
      const base = await this.ctx.mail.publicUrl(request);
      const url = link === 'customer' ? `${base}/ticket/${ticket.id}` : `${base}/mc-admin/tickets/${ticket.id}`;
      for (const userId of new Set(to)) {
        const contact = await this.ctx.accounts.contact(userId);
        if (!contact) continue;
        try {
          await this.ctx.mail.send({
            to: contact.email,
            template,
            placeholders: { first_name: contact.firstName, ticket_id: ticket.id, ticket_subject: ticket.subject, department: ticket.department, link: url, ...extra },
          });
        } catch (error) {
          this.ctx.log.error({ err: error, template, ticketId, userId }, 'tickets: a ticket mail could not be queued');
        }
      }
    } catch (error) {
      this.ctx.log.error({ err: error, template, ticketId }, 'tickets: ticket mail recipients could not be worked out');
    }
  }
}
