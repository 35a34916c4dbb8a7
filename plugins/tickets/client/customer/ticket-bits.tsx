// What the customer pages show the same way: a ticket's status and priority as badges, a department's
// name from its id (where an answer does not name it), and the server's refusals in the customer's words.
import { ApiError, Badge, type BadgeTone, useApi, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback, useMemo } from 'react';
import { customerUrl, type OpenDepartment, type TicketPriority, type TicketStatus } from './api';

const STATUS_TONES: Record<TicketStatus, BadgeTone> = { open: 'info', inprogress: 'primary', waiting: 'warning', replied: 'success', closed: 'neutral' };
const PRIORITY_TONES: Record<TicketPriority, BadgeTone> = { low: 'neutral', medium: 'info', high: 'warning', urgent: 'danger' };

export function StatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('tickets');
  return <Badge tone={STATUS_TONES[status]}>{t(`customer.status.${status}`)}</Badge>;
}

export function PriorityBadge({ priority }: { priority: TicketPriority }) {
  const { t } = useTranslation('tickets');
  return <Badge tone={PRIORITY_TONES[priority]}>{t(`customer.priority.${priority}`)}</Badge>;
}

/** The departments that take tickets, and a name for any department id (a disabled one has no name here). */
export function useOpenDepartments() {
  const { t } = useTranslation('tickets');
  const api = useApi<{ data: OpenDepartment[] }>(customerUrl.departments());
  const byId = useMemo(() => new Map((api.data?.data ?? []).map((d) => [d.id, d])), [api.data]);
  const nameOf = useCallback((id: number) => byId.get(id)?.name ?? t('customer.departmentNumber', { id }), [byId, t]);
  return { ...api, departments: api.data?.data, nameOf };
}

/**
 * The sdk's error text, but looking first in this side's catalogue (`customer.errors.<CODE>`): the
 * plugin's catalogue is shared with the staff pages, whose words for the same code differ.
 */
export function useCustomerErrorText(): (error: unknown) => string {
  const fallback = useErrorText();
  const { t, i18n } = useTranslation('tickets');
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        const key = `customer.errors.${error.code}`;
        if (i18n.exists(key, { ns: 'tickets' })) return t(key);
      }
      return fallback(error);
    },
    [fallback, t, i18n],
  );
}
