// /mc-admin/tickets: the tickets of the departments this staff member may see, paged, searched and
// sorted on the server (last activity first, or the most urgent first), filtered by status, priority,
// department, assignee (me, nobody, a person) and "waiting for us"; the counts per status sit on top
// and filter the list when pressed.
import { Badge, Checkbox, Link, Page, PagedList, Select, theme, useApi, useHasPermission, usePagedList, useSearchParams, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import { PriorityBadge, StatusBadge } from './ticket-labels';
import {
  staffPath,
  staffUrl,
  STAFF_PERMISSIONS,
  TICKET_PRIORITIES,
  TICKET_SORTS,
  TICKET_STATUSES,
  type AssigneeList,
  type TicketDepartment,
  type StaffTicketRow,
  type StatusCounts,
  type TicketPriority,
  type TicketSort,
  type TicketStatus,
} from './staff-api';

const c = theme.colors;

export interface TicketFilters {
  status: TicketStatus | '';
  priority: TicketPriority | '';
  department_id: string;
  /** 'me', 'nobody' or a staff member's account id; '' for anyone */
  assignee: string;
  unanswered: boolean;
  sort: TicketSort;
}

const ACCOUNT_ID = /^[1-9][0-9]{0,9}$/;

const oneOf = <T extends string>(allowed: readonly T[], text: string | null): T | '' => ((allowed as readonly string[]).includes(text ?? '') ? (text as T) : '');

/** The filters kept in the page's address (a link or the back button brings them back); anything unknown is dropped. */
export function filtersOf(params: URLSearchParams): TicketFilters {
  const department = params.get('department_id') ?? '';
  const assignee = params.get('assignee') ?? '';
  return {
    status: oneOf(TICKET_STATUSES, params.get('status')),
    priority: oneOf(TICKET_PRIORITIES, params.get('priority')),
    department_id: ACCOUNT_ID.test(department) ? department : '',
    assignee: assignee === 'me' || assignee === 'nobody' || ACCOUNT_ID.test(assignee) ? assignee : '',
    unanswered: params.get('unanswered') === 'true',
    sort: oneOf(TICKET_SORTS, params.get('sort')) || 'activity',
  };
}

/** The list's address with the chosen filters (paging and search are added by usePagedList). */
export function ticketsUrl(filters: TicketFilters): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.priority) query.set('priority', filters.priority);
  if (filters.department_id) query.set('department_id', filters.department_id);
  // me and nobody are the server's words; a person is asked for by account id
  if (filters.assignee === 'me' || filters.assignee === 'nobody') query.set('assignee', filters.assignee);
  else if (filters.assignee) query.set('assigned_to', filters.assignee);
  if (filters.unanswered) query.set('unanswered', 'true');
  if (filters.sort !== 'activity') query.set('sort', filters.sort);
  const text = query.toString();
  return text ? `${staffUrl.tickets()}?${text}` : staffUrl.tickets();
}

export default function StaffTicketsPage() {
  const { t } = useTranslation('tickets');
  const [params, setParams] = useSearchParams();
  const filters = useMemo(() => filtersOf(params), [params]);
  const list = usePagedList<StaffTicketRow>(ticketsUrl(filters), { perPage: 20 });
  const counts = useApi<{ counts: StatusCounts }>(staffUrl.counts());
  // the departments to filter by: those the staff member works in (admin.tickets.view), else every one
  const mayViewTickets = useHasPermission(STAFF_PERMISSIONS.ticketsView);
  const mayListDepartments = useHasPermission(STAFF_PERMISSIONS.departmentsList);
  const departments = useApi<{ data: Pick<TicketDepartment, 'id' | 'name'>[] }>(mayViewTickets ? staffUrl.ticketDepartments() : mayListDepartments ? staffUrl.departments() : null);
  // the people to pick need admin.tickets.view too; without it "me" and "nobody" still work
  const assignees = useApi<AssigneeList>(mayViewTickets ? staffUrl.assignees() : null);

  // a new filter starts at page 1; the search stays
  const change = (next: Partial<TicketFilters>) => {
    const wanted = { ...filters, ...next };
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        out.delete('page');
        for (const key of ['status', 'priority', 'department_id', 'assignee'] as const) {
          if (wanted[key]) out.set(key, wanted[key]);
          else out.delete(key);
        }
        if (wanted.unanswered) out.set('unanswered', 'true');
        else out.delete('unanswered');
        if (wanted.sort !== 'activity') out.set('sort', wanted.sort);
        else out.delete('sort');
        return out;
      },
      { replace: true },
    );
  };

  const columns = useMemo<DataColumn<StaffTicketRow>[]>(() => {
    const departmentName = (id: number) => departments.data?.data.find((d) => d.id === id)?.name ?? `#${id}`;
    const assigneeName = (id: number | null) =>
      id === null ? <span css={{ color: c.muted }}>{t('staff.assignee.nobody')}</span> : (assignees.data?.data.find((p) => p.id === id)?.username ?? `#${id}`);
    return [
      {
        id: 'subject',
        header: t('staff.tickets.columns.subject'),
        primary: true,
        cell: (ticket) => (
          <span css={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8, flexWrap: 'wrap' }}>
              <Link to={staffPath.ticket(ticket.id)} css={{ color: c.text, fontWeight: 600, overflowWrap: 'anywhere' }}>
                #{ticket.id} {ticket.subject}
              </Link>
              {ticket.unread && <Badge tone="primary">{t('staff.tickets.unread')}</Badge>}
            </span>
            <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{ticket.customer?.username ?? t('staff.tickets.deletedCustomer')}</span>
          </span>
        ),
      },
      { id: 'status', header: t('staff.tickets.columns.status'), cell: (ticket) => <StatusBadge status={ticket.status} /> },
      { id: 'priority', header: t('staff.tickets.columns.priority'), cell: (ticket) => <PriorityBadge priority={ticket.priority} /> },
      { id: 'department', header: t('staff.tickets.columns.department'), cell: (ticket) => ticket.department_name || departmentName(ticket.department_id) },
      { id: 'assignee', header: t('staff.tickets.columns.assignee'), cell: (ticket) => assigneeName(ticket.assigned_to) },
      { id: 'activity', header: t('staff.tickets.columns.activity'), cell: (ticket) => t('staff.dateTime', { value: new Date(ticket.updated_at) }) },
    ];
  }, [t, departments.data, assignees.data]);

  const statusOptions = TICKET_STATUSES.map((s) => ({ value: s, label: t(`staff.status.${s}`) }));
  const priorityOptions = TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`staff.priority.${p}`) }));
  const departmentOptions = (departments.data?.data ?? []).map((d) => ({ value: String(d.id), label: d.name }));
  const people = assignees.data?.data ?? [];
  const assigneeOptions = [
    { value: 'me', label: t('staff.assignee.me') },
    { value: 'nobody', label: t('staff.assignee.nobody') },
    ...people.map((p) => ({ value: String(p.id), label: p.username })),
    // a person from the address who is no longer staff still shows as chosen
    ...(ACCOUNT_ID.test(filters.assignee) && !people.some((p) => String(p.id) === filters.assignee) ? [{ value: filters.assignee, label: `#${filters.assignee}` }] : []),
  ];
  const sortOptions = TICKET_SORTS.map((sort) => ({ value: sort, label: t(`staff.tickets.sort.${sort}`) }));
  const filtered = filters.status !== '' || filters.priority !== '' || filters.department_id !== '' || filters.assignee !== '' || filters.unanswered;

  return (
    <Page title={t('staff.titles.tickets')} description={t('staff.tickets.description')}>
      <div role="group" aria-label={t('staff.tickets.counts')} css={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginBottom: 16 }}>
        {TICKET_STATUSES.map((status) => {
          const pressed = filters.status === status;
          return (
            <button
              key={status}
              type="button"
              aria-pressed={pressed}
              onClick={() => change({ status: pressed ? '' : status })}
              css={{
                display: 'inline-flex',
                alignItems: 'center',
                gap: 8,
                padding: '8px 12px',
                borderRadius: theme.radii.md,
                border: `1px solid ${pressed ? c.primary : c.border}`,
                background: pressed ? c.primarySoft : c.surface,
                color: c.text,
                cursor: 'pointer',
                font: 'inherit',
              }}
            >
              <span>{t(`staff.status.${status}`)}</span>
              <strong css={{ fontVariantNumeric: 'tabular-nums' }}>{counts.data ? t('staff.number', { value: counts.data.counts[status] }) : '…'}</strong>
            </button>
          );
        })}
      </div>
      <PagedList
        list={list}
        caption={t('staff.titles.tickets')}
        columns={columns}
        rowKey={(ticket) => ticket.id}
        searchLabel={t('staff.tickets.search')}
        toolbar={
          <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', gap: 8 }}>
            <Select
              label={t('staff.tickets.filters.status')}
              name="status"
              options={statusOptions}
              placeholder={t('staff.tickets.filters.any')}
              value={filters.status}
              onChange={(value) => change({ status: value as TicketStatus | '' })}
            />
            <Select
              label={t('staff.tickets.filters.priority')}
              name="priority"
              options={priorityOptions}
              placeholder={t('staff.tickets.filters.any')}
              value={filters.priority}
              onChange={(value) => change({ priority: value as TicketPriority | '' })}
            />
            {departments.data && (
              <Select
                label={t('staff.tickets.filters.department')}
                name="department_id"
                options={departmentOptions}
                placeholder={t('staff.tickets.filters.any')}
                value={filters.department_id}
                onChange={(value) => change({ department_id: value })}
              />
            )}
            <Select
              label={t('staff.tickets.filters.assignee')}
              name="assignee"
              options={assigneeOptions}
              placeholder={t('staff.tickets.filters.anyone')}
              value={filters.assignee}
              onChange={(value) => change({ assignee: value })}
            />
            <Select
              label={t('staff.tickets.sort.label')}
              name="sort"
              options={sortOptions}
              value={filters.sort}
              onChange={(value) => change({ sort: value === 'priority' ? 'priority' : 'activity' })}
            />
            <Checkbox label={t('staff.tickets.filters.unanswered')} name="unanswered" checked={filters.unanswered} onChange={(checked) => change({ unanswered: checked })} />
          </div>
        }
        empty={{ icon: 'ticket', title: filtered ? t('staff.tickets.emptyFiltered') : t('staff.tickets.empty') }}
      />
    </Page>
  );
}
