// /ticket/{id}: the conversation with support (who wrote, as what, when), a reply box while the ticket
// is open, and closing or reopening it. The ticket is asked for again every few seconds while the
// page is in view, so staff answers appear by themselves (and the ticket counts as read).
import {
  Alert,
  Badge,
  Button,
  Card,
  dialogs,
  EmptyStateCard,
  FilePicker,
  Form,
  http,
  Page,
  refreshNavBadges,
  ResourceState,
  TextArea,
  theme,
  useApi,
  useDateTime,
  useFileSelection,
  useParams,
  useTranslation,
} from '@orepanel/sdk';
import { useEffect, useState } from 'react';
import { MessageAttachments, sendWithFiles, useAttachmentLimits, type AttachmentView } from '../attachments';
import { customerPath, customerUrl, LIMITS, type MessageView, type TicketView } from './api';
import { LinkedServerLine } from './LinkedServer';
import { PriorityBadge, StatusBadge, useCustomerErrorText, useOpenDepartments } from './ticket-bits';
import { useTicketLive } from '../use-ticket-live';

const c = theme.colors;

function Message({ message, ticketId }: { message: MessageView & { attachments?: AttachmentView[] }; ticketId: number }) {
  const { t } = useTranslation('tickets');
  const dateTime = useDateTime();
  const author = message.author ?? (message.staff ? t('customer.ticket.supportTeam') : t('customer.ticket.formerAccount'));
  return (
    <li
      css={{
        display: 'grid',
        gap: 8,
        padding: '14px 16px',
        borderRadius: theme.radii.lg,
        border: `1px solid ${message.staff ? c.primarySoft : c.border}`,
        background: message.staff ? c.primarySoft : c.surface,
        // staff on the left, the customer on the right, as in a chat; full width on phones
        marginInlineStart: message.staff ? 0 : 'min(10%, 64px)',
        marginInlineEnd: message.staff ? 'min(10%, 64px)' : 0,
      }}
    >
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, fontSize: theme.font.size.sm }}>
        <strong css={{ color: c.text, fontSize: theme.font.size.md }}>{author}</strong>
        <Badge tone={message.staff ? 'primary' : 'neutral'}>{message.staff ? t('customer.ticket.roleStaff') : t('customer.ticket.roleYou')}</Badge>
        <time dateTime={message.created_at} css={{ color: c.muted, marginInlineStart: 'auto' }}>
          {dateTime(message.created_at)}
        </time>
      </div>
      <div css={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', lineHeight: 1.55, color: c.text }}>{message.body}</div>
      <MessageAttachments side="customer" ticketId={ticketId} attachments={message.attachments} />
    </li>
  );
}

function ReplyBox({ ticketId, onSent }: { ticketId: number; onSent(): void }) {
  const { t } = useTranslation('tickets');
  const errorText = useCustomerErrorText();
  const [message, setMessage] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const attachments = useFileSelection(useAttachmentLimits('customer'));
  const [progress, setProgress] = useState<number | null>(null);
  const send = async () => {
    if (message.trim() === '') {
      setProblem(t('customer.validation.required'));
      return;
    }
    setProgress(attachments.files.length > 0 ? 0 : null);
    try {
      await sendWithFiles(customerUrl.replies(ticketId), { message: message.trim() }, attachments.files, setProgress);
    } finally {
      setProgress(null);
    }
    setMessage('');
    attachments.clear();
    onSent();
  };
  return (
    <Card title={t('customer.ticket.reply')}>
      <Form onSubmit={send} errorText={errorText} aria-label={t('customer.ticket.reply')} noValidate>
        <TextArea
          label={t('customer.ticket.yourReply')}
          name="message"
          value={message}
          onChange={(value) => {
            setMessage(value);
            setProblem(null);
          }}
          error={problem}
          rows={5}
          maxLength={LIMITS.messageMaxLength}
          onPaste={attachments.onPaste}
        />
        <FilePicker selection={attachments} progress={progress} />
        <div>
          <Button type="submit" icon="mail">
            {t('customer.ticket.send')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function TicketPage() {
  const { t } = useTranslation('tickets');
  const { id = '' } = useParams();
  const dateTime = useDateTime();
  const errorText = useCustomerErrorText();
  const { nameOf } = useOpenDepartments();
  const view = useApi<TicketView>(customerUrl.ticket(id));
  const ticket = view.data?.ticket;
  // read again when the ticket changes (its socket, else polling); a ticket that failed to load is
  // not asked for again until the customer retries
  useTicketLive('customer', id, view.reload, view.data !== undefined);
  // this load marked a staff answer read: the sidebar's count drops now, not at the next session load
  const justRead = view.data?.ticket.unread === true;
  useEffect(() => {
    if (justRead) refreshNavBadges();
  }, [justRead, view.data]);

  const change = async (action: 'close' | 'reopen') => {
    const confirmed = await dialogs.confirm({
      title: t(`customer.ticket.${action}Title`),
      text: t(`customer.ticket.${action}Text`),
      icon: 'question',
      danger: action === 'close',
      confirmText: t(`customer.ticket.${action}`),
      cancelText: t('customer.ticket.cancel'),
    });
    if (!confirmed) return;
    try {
      await http.post(action === 'close' ? customerUrl.close(id) : customerUrl.reopen(id));
      void dialogs.toast(t(`customer.ticket.${action}Done`));
    } catch (error) {
      void dialogs.error(t('customer.ticket.actionFailed'), errorText(error));
    }
    view.reload();
  };

  return (
    <Page
      title={ticket ? ticket.subject : t('titles.ticket')}
      description={ticket ? t('customer.ticket.meta', { id: ticket.id, department: nameOf(ticket.department_id), opened: dateTime(ticket.created_at) }) : undefined}
      actions={
        <>
          <Button variant="ghost" to={customerPath.list}>
            {t('customer.back')}
          </Button>
          {ticket &&
            (ticket.status === 'closed' ? (
              <Button variant="secondary" onClick={() => change('reopen')}>
                {t('customer.ticket.reopen')}
              </Button>
            ) : (
              <Button variant="danger" onClick={() => change('close')}>
                {t('customer.ticket.close')}
              </Button>
            ))}
        </>
      }
    >
      {view.error?.code === 'TICKET_NOT_FOUND' && !view.data ? (
        <EmptyStateCard
          icon="ticket"
          title={t('customer.errors.TICKET_NOT_FOUND')}
          action={
            <Button variant="secondary" to={customerPath.list}>
              {t('customer.back')}
            </Button>
          }
        />
      ) : (
        <ResourceState data={view.data} loading={view.loading} error={view.error} reload={view.reload} errorTitle={t('customer.ticket.loadFailed')}>
          {({ ticket: shown, messages }) => (
            <div css={{ display: 'grid', gap: 16, minWidth: 0 }}>
              <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
                <StatusBadge status={shown.status} />
                <PriorityBadge priority={shown.priority} />
              </div>
              <LinkedServerLine ticketId={shown.id} />
              <ol aria-label={t('customer.ticket.conversation')} css={{ display: 'grid', gap: 12, margin: 0, padding: 0, listStyle: 'none', minWidth: 0 }}>
                {messages.map((message) => (
                  <Message key={message.id} message={message} ticketId={shown.id} />
                ))}
              </ol>
              {shown.status === 'closed' ? (
                <Alert tone="info" title={t('customer.ticket.closedTitle')}>
                  {shown.closed_at ? t('customer.ticket.closedText', { when: dateTime(shown.closed_at) }) : t('customer.ticket.closedTextNoDate')}
                </Alert>
              ) : (
                <ReplyBox ticketId={shown.id} onSent={view.reload} />
              )}
            </div>
          )}
        </ResourceState>
      )}
    </Page>
  );
}
