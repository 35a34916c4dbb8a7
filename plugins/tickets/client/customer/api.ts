// The customer side of the tickets API (server/customer-routes.ts): addresses, answers and limits.
// The types come from the server's own modules (erased from the bundle), so a change there breaks tsc here.
import type { TICKET_LIMITS, ListedTicket, MessageView, TicketSummary } from '../../server/desk';
import { TICKET_PRIORITIES, TICKET_STATUSES, type TicketPriority, type TicketStatus } from '../../server/tables';
import type { OpeningHours } from '../../shared/opening-hours';

export { TICKET_PRIORITIES, TICKET_STATUSES, type ListedTicket, type MessageView, type TicketPriority, type TicketStatus, type TicketSummary };

export interface OpenDepartment {
  id: number;
  name: string;
  description: string;
  /** null: no hours stated */
  hours: OpeningHours | null;
  hours_note: string;
}

export interface TicketView {
  ticket: TicketSummary;
  messages: MessageView[];
}

// the server's bounds (desk.ts TICKET_LIMITS, a value the browser bundle must not pull in with its database code)
export const LIMITS = { subjectMinLength: 3, subjectMaxLength: 200, messageMaxLength: 10_000 } as const satisfies Pick<
  typeof TICKET_LIMITS,
  'subjectMinLength' | 'subjectMaxLength' | 'messageMaxLength'
>;

export const customerUrl = {
  tickets: () => '/api/user/tickets',
  departments: () => '/api/user/tickets/departments',
  ticket: (id: number | string) => `/api/user/tickets/${encodeURIComponent(String(id))}`,
  replies: (id: number | string) => `/api/user/tickets/${encodeURIComponent(String(id))}/replies`,
  close: (id: number | string) => `/api/user/tickets/${encodeURIComponent(String(id))}/close`,
  reopen: (id: number | string) => `/api/user/tickets/${encodeURIComponent(String(id))}/reopen`,
};

export const customerPath = {
  list: '/ticket',
  create: '/ticket/create',
  ticket: (id: number | string) => `/ticket/${encodeURIComponent(String(id))}`,
};
