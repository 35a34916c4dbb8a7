// The staff side of the tickets API (server/staff-routes.ts, server/department-routes.ts): its
// addresses, answers and permissions, and the addresses of the staff pages.
import { ADMIN_API } from '@orepanel/sdk';
import type { OpeningHours } from '../../shared/opening-hours';

export const TICKET_STATUSES = ['open', 'inprogress', 'waiting', 'replied', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];
/** the statuses staff may set themselves (`replied` follows a staff reply) */
export const STAFF_STATUSES = ['open', 'inprogress', 'waiting', 'closed'] as const;
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TicketPriority = (typeof TICKET_PRIORITIES)[number];

/** the server's bounds (server/departments.ts, server/desk.ts) */
export const DEPARTMENT_LIMITS = { nameMaxLength: 64, descriptionMaxLength: 255 } as const;
export const MESSAGE_MAX_LENGTH = 10_000;
export const SEARCH_MAX_LENGTH = 64;

export interface Department {
  id: number;
  name: string;
  description: string;
  /** null: no hours stated */
  hours: OpeningHours | null;
  hours_note: string;
  enabled: boolean;
  /** the roles limited to this department */
  role_ids: number[];
  created_at: string;
  updated_at: string;
}

export interface DepartmentBody {
  name?: string;
  description?: string;
  hours?: OpeningHours | null;
  hours_note?: string;
  enabled?: boolean;
  role_ids?: number[];
}

export interface StaffTicket {
  id: number;
  department_id: number;
  subject: string;
  priority: TicketPriority;
  status: TicketStatus;
  /** new customer messages since staff last opened it */
  unread: boolean;
  assigned_to: number | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface StaffTicketRow extends StaffTicket {
  /** the name of its department (a disabled one's too) */
  department_name: string;
  customer: { uuid: string; username: string } | null;
}

export interface TicketMessage {
  id: number;
  body: string;
  staff: boolean;
  /** a staff note: customers never see it */
  internal: boolean;
  author: string | null;
  created_at: string;
}

export interface TicketCustomer {
  uuid: string;
  username: string;
  avatar: string | null;
  role_name: string | null;
  role_color: string | null;
  banned: boolean;
  verified: boolean;
  created_at: string;
}

export interface StaffTicketView {
  ticket: StaffTicket;
  customer: TicketCustomer | null;
  messages: TicketMessage[];
}

export type StatusCounts = Record<TicketStatus, number>;

/** the staff list's orders (server/desk.ts STAFF_SORTS): last activity, or urgent first */
export const TICKET_SORTS = ['activity', 'priority'] as const;
export type TicketSort = (typeof TICKET_SORTS)[number];

/** a department the staff member works in (GET /admin/tickets/departments) */
export interface TicketDepartment {
  id: number;
  name: string;
  enabled: boolean;
}

/** a staff member a ticket may be given to (GET /admin/tickets/assignees) */
export interface Assignee {
  id: number;
  uuid: string;
  username: string;
  role_id: number;
  role_name: string | null;
  role_color: string | null;
}

export interface AssigneeList {
  data: Assignee[];
  /** the caller's account id */
  me: number;
}

export interface StaffChanges {
  status?: (typeof STAFF_STATUSES)[number];
  priority?: TicketPriority;
  department_id?: number;
  assigned_to?: number | null;
}

export const staffUrl = {
  departments: () => `${ADMIN_API}/departments`,
  department: (id: number | string) => `${ADMIN_API}/departments/${encodeURIComponent(String(id))}`,
  tickets: () => `${ADMIN_API}/tickets`,
  counts: () => `${ADMIN_API}/tickets/counts`,
  /** the departments the staff member works in */
  ticketDepartments: () => `${ADMIN_API}/tickets/departments`,
  /** who may be given tickets; of one department's when given */
  assignees: (departmentId?: number) => `${ADMIN_API}/tickets/assignees${departmentId === undefined ? '' : `?department_id=${departmentId}`}`,
  ticket: (id: number | string) => `${ADMIN_API}/tickets/${encodeURIComponent(String(id))}`,
  replies: (id: number | string) => `${ADMIN_API}/tickets/${encodeURIComponent(String(id))}/replies`,
  notes: (id: number | string) => `${ADMIN_API}/tickets/${encodeURIComponent(String(id))}/notes`,
};

export const staffPath = {
  departments: '/mc-admin/departments',
  departmentCreate: '/mc-admin/departments/create',
  departmentEdit: (id: number) => `/mc-admin/departments/${id}/edit`,
  departmentDelete: (id: number) => `/mc-admin/departments/${id}/delete`,
  tickets: '/mc-admin/tickets',
  ticket: (id: number) => `/mc-admin/tickets/${id}`,
};

export const STAFF_PERMISSIONS = {
  ticketsList: 'admin.tickets.list',
  ticketsView: 'admin.tickets.view',
  departmentsList: 'admin.departments.list',
  departmentsCreate: 'admin.departments.create',
  departmentsEdit: 'admin.departments.edit',
  departmentsDelete: 'admin.departments.delete',
} as const;
