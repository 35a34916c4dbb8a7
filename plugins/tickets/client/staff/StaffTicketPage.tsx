// /mc-admin/tickets/:id: one ticket for staff. The conversation with staff notes marked so nobody
// mistakes them for replies (customers never see them), the customer's card, a reply box and a
// separate note box, and the ticket's status, priority and department. Each action is one API call;
// the page then reloads the ticket, so what it shows is what the server has.
import {
  ADMIN_PATHS,
  ADMIN_PERMISSIONS,
  Avatar,
  Badge,
  Button,
  Card,
  dialogs,
  EmptyStateCard,
  FilePicker,
  Form,
  http,
  initialsOf,
  Link,
  Page,
  PermissionGate,
  refreshNavBadges,
  ResourceState,
  RoleBadge,
  Select,
  TextArea,
  theme,
  useApi,
  useHasPermission,
  useFileSelection,
  useParams,
  useTranslation,
} from '@orepanel/sdk';
import { useEffect, useState } from 'react';
import { useTicketLive } from '../use-ticket-live';
import { AssigneePicker } from './AssigneePicker';
import { CustomerDetails } from './CustomerDetails';
import { MessageAttachments, sendWithFiles, useAttachmentLimits, type AttachmentView } from '../attachments';
import { useStaffErrorText } from './staff-errors';
import { PriorityBadge, StatusBadge } from './ticket-labels';
import {
  MESSAGE_MAX_LENGTH,
  staffPath,
  staffUrl,
  STAFF_PERMISSIONS,
  STAFF_STATUSES,
  TICKET_PRIORITIES,
  type TicketDepartment,
  type StaffChanges,
  type StaffTicketView,
  type TicketCustomer,
  type TicketMessage,
} from './staff-api';

const c = theme.colors;

function Message({ message, ticketId }: { message: TicketMessage & { attachments?: AttachmentView[] }; ticketId: number }) {
  const { t } = useTranslation('tickets');
  const tone = message.internal
    ? { background: c.warningSoft, border: `1px dashed ${c.warning}` }
    : message.staff
      ? { background: c.primarySoft, border: `1px solid ${c.border}` }
      : { background: c.surface, border: `1px solid ${c.border}` };
  return (
    <li data-internal={message.internal ? 'true' : undefined} css={{ ...tone, borderRadius: theme.radii.md, padding: 12, display: 'grid', gap: 6, minWidth: 0 }}>
      {message.internal && (
        <strong css={{ color: c.warning, fontSize: theme.font.size.sm }} role="note">
          {t('staff.ticket.internalLabel')}
        </strong>
      )}
      <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'baseline', fontSize: theme.font.size.sm, color: c.muted }}>
        <span css={{ color: c.text, fontWeight: 600 }}>{message.author ?? t('staff.ticket.deletedAuthor')}</span>
        {message.staff && !message.internal && <Badge tone="primary">{t('staff.ticket.staff')}</Badge>}
        <time dateTime={message.created_at}>{t('staff.dateTime', { value: new Date(message.created_at) })}</time>
      </div>
      <p css={{ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{message.body}</p>
      <MessageAttachments side="staff" ticketId={ticketId} attachments={message.attachments} />
    </li>
  );
}

function CustomerCard({ customer, ticketId }: { customer: TicketCustomer | null; ticketId: number }) {
  const { t } = useTranslation('tickets');
  const mayOpenUser = useHasPermission(ADMIN_PERMISSIONS.usersEdit);
  return (
    <Card title={t('staff.ticket.customer')}>
      {customer ? (
        <div css={{ display: 'grid', gap: 8 }}>
          <div css={{ display: 'flex', gap: 10, alignItems: 'center', minWidth: 0 }}>
            <Avatar src={customer.avatar} initials={initialsOf(null, null, customer.username)} size={40} />
            <div css={{ display: 'grid', minWidth: 0 }}>
              {mayOpenUser ? (
                <Link to={ADMIN_PATHS.userEdit(customer.uuid)} css={{ color: c.text, fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {customer.username}
                </Link>
              ) : (
                <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{customer.username}</span>
              )}
              {customer.role_name && <RoleBadge name={customer.role_name} color={customer.role_color} />}
            </div>
          </div>
          <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
            {customer.banned && <Badge tone="danger">{t('staff.ticket.banned')}</Badge>}
            <Badge tone={customer.verified ? 'success' : 'warning'}>{customer.verified ? t('staff.ticket.verified') : t('staff.ticket.unverified')}</Badge>
          </div>
          <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{t('staff.ticket.memberSince', { value: new Date(customer.created_at) })}</span>
          <CustomerDetails ticketId={ticketId} />
        </div>
      ) : (
        <p css={{ margin: 0, color: c.muted }}>{t('staff.ticket.deletedCustomer')}</p>
      )}
    </Card>
  );
}

/** A text box that posts one message to `url` (the replies or the notes endpoint), then empties. */
function MessageBox({ url, label, submitText, hint, onSent }: { url: string; label: string; submitText: string; hint?: string; onSent(): void }) {
  const [text, setText] = useState('');
  const errorText = useStaffErrorText();
  const name = url.endsWith('/notes') ? 'note' : 'message';
  // screenshots and logs go with the reply or the note (a note's files stay between staff)
  const attachments = useFileSelection(useAttachmentLimits('staff'));
  const [progress, setProgress] = useState<number | null>(null);
  return (
    <Form
      aria-label={submitText}
      errorText={errorText}
      noValidate
      onSubmit={async () => {
        if (text.trim() === '') return;
        setProgress(attachments.files.length > 0 ? 0 : null);
        try {
          await sendWithFiles(url, { message: text }, attachments.files, setProgress);
        } finally {
          setProgress(null);
        }
        setText('');
        attachments.clear();
        onSent();
      }}
    >
      <TextArea label={label} name={name} value={text} onChange={setText} rows={4} maxLength={MESSAGE_MAX_LENGTH} hint={hint} onPaste={attachments.onPaste} />
      <FilePicker selection={attachments} progress={progress} />
      <div>
        <Button type="submit" variant={name === 'note' ? 'secondary' : 'primary'} disabled={text.trim() === ''}>
          {submitText}
        </Button>
      </div>
    </Form>
  );
}

export default function StaffTicketPage() {
  const { t } = useTranslation('tickets');
  const errorText = useStaffErrorText();
  const { id = '' } = useParams();
  const loaded = useApi<StaffTicketView>(staffUrl.ticket(id));
  // this load marked a customer's message read: the sidebar's count drops now, not at the next session load
  const justRead = loaded.data?.ticket.unread === true;
  useEffect(() => {
    if (justRead) refreshNavBadges();
  }, [justRead, loaded.data]);
  // a customer's reply or a colleague's note shows without a reload (its socket, else polling)
  useTicketLive('staff', id, loaded.reload, loaded.data !== undefined);
  // the departments this staff member works in: the only ones a move is accepted to
  const departments = useApi<{ data: TicketDepartment[] }>(staffUrl.ticketDepartments());
  const [busy, setBusy] = useState(false);

  const changeTicket = async (changes: StaffChanges) => {
    setBusy(true);
    try {
      await http.patch(staffUrl.ticket(id), changes);
      void dialogs.toast(t('staff.ticket.saved'));
      loaded.reload();
    } catch (error) {
      void dialogs.error(t('staff.ticket.changeFailed'), errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Page
      title={loaded.data ? t('staff.ticket.title', { id: loaded.data.ticket.id, subject: loaded.data.ticket.subject }) : t('staff.titles.ticket')}
      actions={
        <Button variant="secondary" to={staffPath.tickets}>
          {t('staff.ticket.back')}
        </Button>
      }
    >
      {loaded.error?.code === 'TICKET_NOT_FOUND' && !loaded.data ? (
        // gone, or in a department this staff member does not see: trying again would not help (the way
        // back is the page's own action)
        <EmptyStateCard icon="ticket" title={t('staff.errors.TICKET_NOT_FOUND')} />
      ) : (
        <ResourceState data={loaded.data} loading={loaded.loading && !loaded.data} error={loaded.error} reload={loaded.reload} errorTitle={t('staff.ticket.loadFailed')}>
          {({ ticket, customer, messages }) => {
            const closed = ticket.status === 'closed';
            const departmentOptions = (departments.data?.data ?? []).map((d) => ({
              value: String(d.id),
              label: d.enabled ? d.name : t('staff.ticket.departmentDisabled', { name: d.name }),
            }));
            return (
              <div css={{ display: 'grid', gap: 16, alignItems: 'start', [theme.breakpoints.md]: { gridTemplateColumns: 'minmax(0, 1fr) 300px' } }}>
                <div css={{ display: 'grid', gap: 16, minWidth: 0 }}>
                  <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                    <StatusBadge status={ticket.status} />
                    <PriorityBadge priority={ticket.priority} />
                  </div>
                  <ol aria-label={t('staff.ticket.conversation')} css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 10 }}>
                    {messages.map((message) => (
                      <Message key={message.id} message={message} ticketId={ticket.id} />
                    ))}
                  </ol>
                  <Card>
                    {closed ? (
                      <p css={{ margin: 0, color: c.muted }}>{t('staff.ticket.closedNote')}</p>
                    ) : (
                      <MessageBox url={staffUrl.replies(ticket.id)} label={t('staff.ticket.reply')} submitText={t('staff.ticket.sendReply')} onSent={loaded.reload} />
                    )}
                  </Card>
                  <Card css={{ background: c.warningSoft, borderStyle: 'dashed', borderColor: c.warning }}>
                    <MessageBox
                      url={staffUrl.notes(ticket.id)}
                      label={t('staff.ticket.note')}
                      submitText={t('staff.ticket.addNote')}
                      hint={t('staff.ticket.noteHint')}
                      onSent={loaded.reload}
                    />
                  </Card>
                </div>
                <div css={{ display: 'grid', gap: 16, minWidth: 0 }}>
                  <CustomerCard customer={customer} ticketId={ticket.id} />
                  <Card title={t('staff.ticket.settings')}>
                    <div css={{ display: 'grid', gap: 12 }}>
                      <Select
                        label={t('staff.tickets.filters.status')}
                        name="status"
                        value={ticket.status === 'replied' ? '' : ticket.status}
                        placeholder={ticket.status === 'replied' ? t('staff.status.replied') : undefined}
                        options={STAFF_STATUSES.map((s) => ({ value: s, label: t(`staff.status.${s}`) }))}
                        disabled={busy}
                        onChange={(value) => value && void changeTicket({ status: value as StaffChanges['status'] })}
                      />
                      <Select
                        label={t('staff.tickets.filters.priority')}
                        name="priority"
                        value={ticket.priority}
                        options={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`staff.priority.${p}`) }))}
                        disabled={busy}
                        onChange={(value) => void changeTicket({ priority: value as StaffChanges['priority'] })}
                      />
                      {!departments.error && (
                        <Select
                          label={t('staff.tickets.filters.department')}
                          name="department_id"
                          value={String(ticket.department_id)}
                          options={departmentOptions}
                          disabled={busy || !departments.data}
                          onChange={(value) => void changeTicket({ department_id: Number(value) })}
                        />
                      )}
                      <AssigneePicker ticket={ticket} busy={busy} onChange={(changes) => void changeTicket(changes)} />
                      <PermissionGate permission={STAFF_PERMISSIONS.ticketsView}>
                        {closed ? (
                          <Button variant="secondary" loading={busy} onClick={() => void changeTicket({ status: 'open' })}>
                            {t('staff.ticket.reopen')}
                          </Button>
                        ) : (
                          <Button variant="danger" loading={busy} onClick={() => void changeTicket({ status: 'closed' })}>
                            {t('staff.ticket.close')}
                          </Button>
                        )}
                      </PermissionGate>
                    </div>
                  </Card>
                </div>
              </div>
            );
          }}
        </ResourceState>
      )}
    </Page>
  );
}
