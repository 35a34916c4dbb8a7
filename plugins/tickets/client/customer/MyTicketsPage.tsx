// /ticket: the customer's own tickets, newest activity first, with an unread marker where staff wrote
// since they last looked; filtered by status (kept in the address, like the page).
import { Button, Link, PagedList, Page, Select, theme, useDateTime, usePagedList, useSearchParams, useTranslation, type DataColumn } from '@orepanel/sdk';
import { customerPath, customerUrl, TICKET_STATUSES, type ListedTicket, type TicketStatus } from './api';
import { PriorityBadge, StatusBadge, useOpenDepartments } from './ticket-bits';

const isStatus = (text: string | null): text is TicketStatus => TICKET_STATUSES.some((s) => s === text);

export default function MyTicketsPage() {
  const { t } = useTranslation('tickets');
  const dateTime = useDateTime();
  const { nameOf } = useOpenDepartments();
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status = isStatus(wanted) ? wanted : null;
  const list = usePagedList<ListedTicket>(status ? `${customerUrl.tickets()}?status=${status}` : customerUrl.tickets(), { searchable: false });

  const filter = (next: string) =>
    setParams(
      (current) => {
        const out = new URLSearchParams(current);
        out.delete('page');
        if (isStatus(next)) out.set('status', next);
        else out.delete('status');
        return out;
      },
      { replace: true },
    );

  const columns: DataColumn<ListedTicket>[] = [
    {
      id: 'subject',
      header: t('customer.list.subject'),
      primary: true,
      cell: (ticket) => (
        <span css={{ display: 'inline-flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
          {ticket.unread && (
            <span
              role="img"
              aria-label={t('customer.list.unread')}
              title={t('customer.list.unread')}
              css={{ flex: 'none', width: 8, height: 8, borderRadius: theme.radii.full, background: theme.colors.primary }}
            />
          )}
          <Link
            to={customerPath.ticket(ticket.id)}
            css={{ color: theme.colors.text, fontWeight: ticket.unread ? theme.font.weight.bold : theme.font.weight.medium, overflowWrap: 'anywhere' }}
          >
            {ticket.subject}
          </Link>
          <span css={{ color: theme.colors.subtle, fontVariantNumeric: 'tabular-nums' }}>#{ticket.id}</span>
        </span>
      ),
    },
    { id: 'status', header: t('customer.list.status'), cell: (ticket) => <StatusBadge status={ticket.status} /> },
    { id: 'priority', header: t('customer.list.priority'), cell: (ticket) => <PriorityBadge priority={ticket.priority} /> },
    { id: 'department', header: t('customer.list.department'), cell: (ticket) => ticket.department_name || nameOf(ticket.department_id) },
    { id: 'activity', header: t('customer.list.activity'), align: 'end', cell: (ticket) => dateTime(ticket.updated_at) },
  ];

  return (
    <Page
      title={t('titles.list')}
      description={t('customer.list.description')}
      actions={
        <Button to={customerPath.create} icon="ticket">
          {t('customer.list.open')}
        </Button>
      }
    >
      <PagedList
        list={list}
        caption={t('customer.list.caption')}
        columns={columns}
        rowKey={(ticket) => ticket.id}
        toolbar={
          <div css={{ minWidth: 200 }}>
            <Select
              label={t('customer.list.filter')}
              name="status"
              value={status ?? ''}
              onChange={filter}
              options={[{ value: '', label: t('customer.list.allStatuses') }, ...TICKET_STATUSES.map((s) => ({ value: s, label: t(`customer.status.${s}`) }))]}
            />
          </div>
        }
        empty={
          status
            ? { icon: 'ticket', title: t('customer.list.noneWithStatus'), text: t('customer.list.noneWithStatusText') }
            : {
                icon: 'ticket',
                title: t('customer.list.none'),
                text: t('customer.list.noneText'),
                action: (
                  <Button to={customerPath.create} icon="ticket">
                    {t('customer.list.open')}
                  </Button>
                ),
              }
        }
      />
    </Page>
  );
}
