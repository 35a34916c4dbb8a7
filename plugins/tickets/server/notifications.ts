// Ticket mail: staff hear of new tickets and of customers' replies, customers of staff answers and of
// their ticket being closed. Mail is queued after the change committed, one mail per recipient, and
// never fails the request (the queue retries a refused delivery; a mail that could not be queued is
// logged). Internal notes mail nobody, and nobody is mailed about a message they wrote themselves.
//
// A department's staff: the accounts (not banned) whose role holds admin.tickets.view and is not
// limited away from that department (ticket_role_departments; admin.root sees every department), and
// whose role gets ticket mail (ticket_mail_roles; a role without a row does).
import type { FastifyRequest } from 'fastify';
import { hasPermission, insertUnlessTaken, type ServerPluginContext } from '@orepanel/sdk/server';
import type { TicketDb } from './tables';

const VIEW_PERMISSION = 'admin.tickets.view';
const ROOT_PERMISSION = 'admin.root';
/** how much of a message a mail quotes; the rest is one click away */
export const EXCERPT_LENGTH = 500;

export type TicketMail = 'ticket_created' | 'ticket_staff_replied' | 'ticket_customer_replied' | 'ticket_closed';

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

interface StaffRole {
  roleId: number;
  root: boolean;
}

export function excerpt(message: string): string {
  const text = message.trim();
  return text.length <= EXCERPT_LENGTH ? text : `${text.slice(0, EXCERPT_LENGTH).trimEnd()}…`;
}

export class TicketNotifications {
  constructor(
    private readonly ctx: ServerPluginContext,
    private readonly db: TicketDb,
  ) {}

  /** A customer opened a ticket: its department's staff. */
  ticketCreated(request: FastifyRequest, ticketId: number, message: string, priority: string): Promise<void> {
    return this.deliver(request, 'ticket_created', ticketId, async (ticket) => {
      const staff = await this.departmentStaff(ticket.departmentId);
      return { to: staff.filter((id) => id !== ticket.userId), link: 'staff', extra: { customer: ticket.customer, priority, message: excerpt(message) } };
    });
  }

  /** A customer replied: the assignee, or the department's staff when nobody (who may still work tickets) is. */
  customerReplied(request: FastifyRequest, ticketId: number, authorId: number, message: string): Promise<void> {
    return this.deliver(request, 'ticket_customer_replied', ticketId, async (ticket) => {
      const staff = (await this.assigneeIfStaff(ticket)) ?? (await this.departmentStaff(ticket.departmentId));
      return { to: staff.filter((id) => id !== authorId), link: 'staff', extra: { customer: ticket.customer, message: excerpt(message) } };
    });
  }

  /** Staff answered (never called for an internal note): the customer. */
  staffReplied(request: FastifyRequest, ticketId: number, authorId: number, message: string): Promise<void> {
    return this.deliver(request, 'ticket_staff_replied', ticketId, async (ticket) => ({
      to: ticket.userId === authorId ? [] : [ticket.userId],
      link: 'customer',
      extra: { message: excerpt(message) },
    }));
  }

  /** Staff closed the ticket: the customer. */
  closed(request: FastifyRequest, ticketId: number, closedBy: number, reopenDays: number): Promise<void> {
    return this.deliver(request, 'ticket_closed', ticketId, async (ticket) => ({
      to: ticket.userId === closedBy ? [] : [ticket.userId],
      link: 'customer',
      extra: { reopen_days: reopenDays },
    }));
  }

  // ---- the per-role choice ----------------------------------------------------------------------

  /** Every role that has staff (accounts holding admin.tickets.view), with whether it gets ticket mail. */
  async mailRoles(): Promise<MailRoleView[]> {
    const roles = await this.staffRoles();
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

  /**
   * The roles that may work tickets. Plugins read a role's permissions through one of its accounts
   * (ctx.auth.userPermissions): a role without accounts has nobody to mail anyway.
   */
  private async staffRoles(): Promise<StaffRole[]> {
    const members = await this.db
      .selectFrom('user_public')
      .select(['role_id', (eb) => eb.fn.min<number>('id').as('member')])
      .groupBy('role_id')
      .orderBy('role_id')
      .execute();
    const roles: StaffRole[] = [];
    for (const { role_id, member } of members) {
      const permissions = await this.ctx.auth.userPermissions(Number(member));
      if (hasPermission(permissions, VIEW_PERMISSION)) roles.push({ roleId: Number(role_id), root: permissions.includes(ROOT_PERMISSION) });
    }
    return roles;
  }

  /** The accounts mailed about tickets of `departmentId`. */
  private async departmentStaff(departmentId: number): Promise<number[]> {
    const off = await this.optedOut();
    const seesDepartment = await this.departmentCheck(departmentId);
    const roleIds = (await this.staffRoles()).filter((role) => !off.has(role.roleId) && seesDepartment(role)).map((r) => r.roleId);
    if (roleIds.length === 0) return [];
    const rows = await this.db.selectFrom('user_public').select('id').where('role_id', 'in', roleIds).where('banned', '=', 0).orderBy('id').execute();
    return rows.map((r) => Number(r.id));
  }

  /** Whether a staff role sees `departmentId`: admin.root always, another role unless it is limited to other departments. */
  private async departmentCheck(departmentId: number): Promise<(role: StaffRole) => boolean> {
    const limits = await this.db.selectFrom('ticket_role_departments').select(['role_id', 'department_id']).execute();
    return ({ roleId, root }) => {
      if (root) return true;
      const limited = limits.filter((l) => Number(l.role_id) === roleId);
      return limited.length === 0 || limited.some((l) => Number(l.department_id) === departmentId);
    };
  }

  /**
   * [the assignee] when the ticket has one who may still work it (holds admin.tickets.view and sees
   * its department, which may have changed since); [] when their role gets no ticket mail; null: nobody.
   */
  private async assigneeIfStaff(ticket: TicketFacts): Promise<number[] | null> {
    if (ticket.assignedTo === null) return null;
    const account = await this.db.selectFrom('user_public').select(['role_id', 'banned']).where('id', '=', ticket.assignedTo).executeTakeFirst();
    if (!account || Number(account.banned) === 1) return null;
    const permissions = await this.ctx.auth.userPermissions(ticket.assignedTo);
    if (!hasPermission(permissions, VIEW_PERMISSION)) return null;
    const role: StaffRole = { roleId: Number(account.role_id), root: permissions.includes(ROOT_PERMISSION) };
    if (!(await this.departmentCheck(ticket.departmentId))(role)) return null;
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
    request: FastifyRequest,
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
