// The tickets plugin's API: the support desk's departments, customers' tickets and the staff's
// answers, notes and routing; a job closes tickets that waited on the customer too long.
import { defineServerPlugin } from '@orepanel/sdk/server';
import { Attachments, registerAttachmentRoutes } from './attachments';
import { registerCustomerRoutes, ticketSettings } from './customer-routes';
import { registerDepartmentRoutes } from './department-routes';
import { Departments } from './departments';
import { registerCustomerCardRoutes } from './customer-card';
import { LinkedServers, registerLinkedServerRoutes } from './linked-server';
import { registerTicketBadges } from './badges';
import { Desk } from './desk';
import { registerLiveRoutes, type TicketLive } from './live-routes';
import { TicketNotifications } from './notifications';
import { registerMailRoleRoutes } from './notifications-routes';
import { registerStaffRoutes } from './staff-routes';
import { TICKET_MIGRATIONS, type TicketTables } from './tables';
import { TicketStaff } from './ticket-staff';
import { registerWebhookRoutes } from './webhook-routes';
import { TicketWebhooks, WEBHOOK_JOB, WEBHOOK_JOB_INTERVAL_MS } from './webhooks';

export const AUTOCLOSE_JOB = 'autoclose';

export default defineServerPlugin<{ desk: Desk; notifications: TicketNotifications; webhooks: TicketWebhooks; live: TicketLive }>({
  id: 'tickets',
  migrations: TICKET_MIGRATIONS,
  // per account (window: the core's rate_limit_auth_window_seconds; limits: plugin.json settings)
  rateLimitPolicies: {
    'tickets.create': { scopes: [{ by: 'account', setting: 'rate_limit_tickets_create_per_account' }], account: { session: true } },
    'tickets.reply': { scopes: [{ by: 'account', setting: 'rate_limit_tickets_reply_per_account' }], account: { session: true } },
  },
  register(app, ctx) {
    const db = ctx.db.withTables<TicketTables>();
    const now = () => ctx.clock.now();
    const departments = new Departments(db, ctx.dialect, ctx.httpError, () => new Date(now()).toISOString());
    const staff = new TicketStaff(ctx.auth, db);
    const desk = new Desk(db, ctx.dialect, ctx.httpError, now, (userId, departmentId) => staff.refusal(userId, departmentId));
    const webhooks = new TicketWebhooks(ctx, db);
    const notifications = new TicketNotifications(ctx, db, webhooks);
    registerDepartmentRoutes(app, ctx, departments);
    registerMailRoleRoutes(app, ctx, notifications);
    registerWebhookRoutes(app, ctx, departments, webhooks);
    registerTicketBadges(ctx, db, departments);
    // a ticket's linked server and the customer's card (the servers plugin's servers, when it is on)
    const linked = new LinkedServers(ctx, db);
    registerLinkedServerRoutes(app, ctx, desk, linked);
    registerCustomerCardRoutes(app, ctx, desk, departments, linked);
    const attachments = new Attachments(db, ctx);
    registerCustomerRoutes(app, ctx, desk, departments, notifications, attachments);
    registerStaffRoutes(app, ctx, desk, departments, notifications, staff, attachments);
    registerAttachmentRoutes(app, ctx, desk, departments, attachments);
    // an account's tickets go with it (foreign keys): their files must not stay behind in the store
    ctx.events.on('user.deleting', async ({ userId }) => {
      await attachments.removeFilesOfCustomer(userId);
    });
    // the ticket pages' sockets; every successful write under /tickets/:id is announced to them
    const live = registerLiveRoutes(app, ctx, desk, departments);
    return { desk, notifications, webhooks, live };
  },
  start(ctx, { desk, notifications, webhooks, live }) {
    // hourly: a ticket closes within the hour after its days ran out, and a missed pass changes nothing
    ctx.jobs.every(AUTOCLOSE_JOB, 60 * 60_000, async () => {
      const settings = await ticketSettings(ctx);
      const closed = await desk.autoClose(settings.autocloseDays);
      // after the change: the customer's mail and the 'closed' webhook (neither ever throws)
      for (const id of closed) await notifications.autoClosed(id, settings.autocloseDays, settings.reopenDays);
      // and the pages open on them
      for (const id of closed) live.changed(id);
      return `${closed.length} ticket(s) closed`;
    });
    ctx.jobs.every(WEBHOOK_JOB, WEBHOOK_JOB_INTERVAL_MS, () => webhooks.processDue());
  },
});
