// /ticket/create: a department that takes tickets (its description says what it handles; its opening
// hours, whether it is open now), a subject, a priority and the first message; then straight to the
// new ticket (at any hour: outside the hours the page only says replies may take longer). The server
// stays the authority: its refusals (too many open tickets, a department switched off meanwhile, the
// rate limit) land on the field they name or at the top.
import {
  Button,
  Card,
  EmptyStateCard,
  FilePicker,
  Form,
  Grid,
  Page,
  ResourceState,
  Select,
  TextArea,
  TextField,
  useEditForm,
  useFileSelection,
  useNavigate,
  useTranslation,
} from '@orepanel/sdk';
import { useRef, useState } from 'react';
import { sendWithFiles, useAttachmentLimits } from '../attachments';
import { DepartmentHours } from '../opening-hours-text';
import { customerPath, customerUrl, LIMITS, TICKET_PRIORITIES, type OpenDepartment, type TicketPriority, type TicketSummary } from './api';
import { ServerSelect } from './LinkedServer';
import { useCustomerErrorText, useOpenDepartments } from './ticket-bits';

interface NewTicketValues {
  department_id: string;
  subject: string;
  priority: TicketPriority;
  message: string;
  /** '' for no particular server */
  server_id: string;
}

interface NewTicketBody {
  department_id: number;
  subject: string;
  priority: TicketPriority;
  message: string;
  server_id?: number;
}

function checkNewTicket(values: NewTicketValues): Partial<Record<keyof NewTicketValues, string>> {
  const problems: Partial<Record<keyof NewTicketValues, string>> = {};
  if (values.department_id === '') problems.department_id = 'customer.create.pickDepartment';
  if (values.subject.trim() === '') problems.subject = 'customer.validation.required';
  else if (values.subject.trim().length < LIMITS.subjectMinLength) problems.subject = 'customer.validation.subjectShort';
  if (values.message.trim() === '') problems.message = 'customer.validation.required';
  return problems;
}

function NewTicketForm({ departments }: { departments: OpenDepartment[] }) {
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  const errorText = useCustomerErrorText();
  // screenshots and logs go with the first message (chosen, dropped or pasted into the message box)
  const attachments = useFileSelection(useAttachmentLimits('customer'));
  const chosenFiles = useRef(attachments.files);
  chosenFiles.current = attachments.files;
  const [progress, setProgress] = useState<number | null>(null);
  const form = useEditForm<NewTicketValues, NewTicketBody>({
    // one department needs no choosing
    initial: { department_id: departments.length === 1 ? String(departments[0].id) : '', subject: '', priority: 'medium', message: '', server_id: '' },
    check: checkNewTicket,
    changes: (v) => ({
      department_id: Number(v.department_id),
      subject: v.subject.trim(),
      priority: v.priority,
      message: v.message.trim(),
      ...(v.server_id === '' ? {} : { server_id: Number(v.server_id) }),
    }),
    submit: async (body) => {
      const files = chosenFiles.current;
      setProgress(files.length > 0 ? 0 : null);
      try {
        const { ticket } = await sendWithFiles<{ ticket: TicketSummary }>(customerUrl.tickets(), { ...body }, files, setProgress);
        navigate(customerPath.ticket(ticket.id), { replace: true });
      } finally {
        setProgress(null);
      }
    },
    problemText: (problem) => t(problem, { min: LIMITS.subjectMinLength }),
  });
  const chosen = departments.find((d) => String(d.id) === form.values.department_id);

  return (
    <Card>
      <Form onSubmit={form.submit} errorText={errorText} aria-label={t('titles.create')} noValidate>
        <Grid min={240} gap={16} css={{ alignItems: 'start' }}>
          <Select
            label={t('customer.create.department')}
            {...form.field('department_id')}
            placeholder={t('customer.create.departmentPlaceholder')}
            options={departments.map((d) => ({ value: String(d.id), label: d.name }))}
            hint={chosen?.description || undefined}
          />
          <Select
            label={t('customer.create.priority')}
            {...form.field('priority')}
            onChange={(value) => form.set('priority')(TICKET_PRIORITIES.find((p) => p === value) ?? 'medium')}
            options={TICKET_PRIORITIES.map((p) => ({ value: p, label: t(`customer.priority.${p}`) }))}
            hint={t('customer.create.priorityHint')}
          />
        </Grid>
        {/* a ticket can be opened at any time; outside the hours the box says replies may take longer */}
        {chosen && <DepartmentHours hours={chosen.hours} note={chosen.hours_note} />}
        <ServerSelect {...form.field('server_id')} />
        <TextField label={t('customer.create.subject')} {...form.field('subject')} maxLength={LIMITS.subjectMaxLength} autoComplete="off" />
        <TextArea
          label={t('customer.create.message')}
          {...form.field('message')}
          rows={8}
          maxLength={LIMITS.messageMaxLength}
          hint={t('customer.create.messageHint')}
          onPaste={attachments.onPaste}
        />
        <FilePicker selection={attachments} progress={progress} />
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit" icon="ticket">
            {t('customer.create.submit')}
          </Button>
          <Button variant="ghost" to={customerPath.list}>
            {t('customer.back')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function NewTicketPage() {
  const { t } = useTranslation('tickets');
  const departments = useOpenDepartments();
  return (
    <Page title={t('titles.create')} description={t('customer.create.description')}>
      <ResourceState data={departments.departments} loading={departments.loading} error={departments.error} reload={departments.reload}>
        {(list) =>
          list.length === 0 ? (
            <EmptyStateCard icon="ticket" title={t('customer.create.noDepartments')} text={t('customer.create.noDepartmentsText')} />
          ) : (
            <NewTicketForm departments={list} />
          )
        }
      </ResourceState>
    </Page>
  );
}
