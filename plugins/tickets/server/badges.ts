// The tickets plugin's sidebar counts (issue 11: an in-app unread count for customers and staff),
// named on its nav items in plugin.json and asked by the core only for users who see those items:
// - `unread` on /ticket: the customer's tickets with a staff answer they have not opened since
//   (staff_wrote_at after customer_read_at, or never opened) — a staff note never counts, it does
//   not move staff_wrote_at;
// - `awaiting` on /mc-admin/tickets: tickets in the staff member's departments (their role's scope,
//   as the desk's list) where the customer spoke last (status open) and no staff member has opened
//   the ticket since the customer wrote. Opening it takes it off everyone's count (staff_read_at is the
//   desk's, not one person's); a ticket read but not yet answered is what the list's "unanswered"
//   filter is for, so the badge stays an unread count on both sides.
import type { ServerPluginContext } from '@orepanel/sdk/server';
import type { Departments } from './departments';
import type { TicketDb } from './tables';

export const TICKET_BADGES = { customer: 'unread', staff: 'awaiting' } as const;

export function registerTicketBadges(ctx: ServerPluginContext, db: TicketDb, departments: Departments): void {
  ctx.nav.badge(TICKET_BADGES.customer, async (user) => {
    const { count } = await db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('user_id', '=', user.id)
      .where('staff_wrote_at', 'is not', null)
      .where((eb) => eb.or([eb('customer_read_at', 'is', null), eb('staff_wrote_at', '>', eb.ref('customer_read_at'))]))
      .executeTakeFirstOrThrow();
    return Number(count);
  });

  ctx.nav.badge(TICKET_BADGES.staff, async (user) => {
    const scope = await departments.scopeOf(user);
    let query = db
      .selectFrom('tickets')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('status', '=', 'open')
      .where((eb) => eb.or([eb('staff_read_at', 'is', null), eb('customer_wrote_at', '>', eb.ref('staff_read_at'))]));
    if (scope !== null) query = query.where('department_id', 'in', scope);
    const { count } = await query.executeTakeFirstOrThrow();
    return Number(count);
  });
}
