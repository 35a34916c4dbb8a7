// The tickets plugin's pages: customers open tickets and talk with staff (/ticket), staff answer them.
// Setup only hands the kernel lazy loaders; the kernel guards every route from plugin.json.
import { definePlugin } from '@orepanel/sdk';

export default definePlugin({
  id: 'tickets',
  setup(ctx) {
    ctx.routes.provide('MyTicketsPage', () => import('./customer/MyTicketsPage'));
    ctx.routes.provide('NewTicketPage', () => import('./customer/NewTicketPage'));
    ctx.routes.provide('TicketPage', () => import('./customer/TicketPage'));
    ctx.routes.provide('StaffTicketsPage', () => import('./staff/StaffTicketsPage'));
    ctx.routes.provide('StaffTicketPage', () => import('./staff/StaffTicketPage'));
    ctx.routes.provide('DepartmentsPage', () => import('./staff/DepartmentsPage'));
    ctx.routes.provide('DepartmentCreatePage', () => import('./staff/DepartmentCreatePage'));
    ctx.routes.provide('DepartmentEditPage', () => import('./staff/DepartmentEditPage'));
    ctx.routes.provide('DepartmentDeletePage', () => import('./staff/DepartmentDeletePage'));
  },
});
