// How a ticket's status and priority look wherever staff see them (list, view, counts).
import { Badge, useTranslation, type BadgeTone } from '@orepanel/sdk';
import type { TicketPriority, TicketStatus } from './staff-api';

export const STATUS_TONE: Record<TicketStatus, BadgeTone> = { open: 'warning', inprogress: 'primary', waiting: 'info', replied: 'success', closed: 'neutral' };
export const PRIORITY_TONE: Record<TicketPriority, BadgeTone> = { low: 'neutral', medium: 'info', high: 'warning', urgent: 'danger' };

export function StatusBadge({ status }: { status: TicketStatus }) {
  const { t } = useTranslation('tickets');
  return <Badge tone={STATUS_TONE[status]}>{t(`staff.status.${status}`)}</Badge>;
}

export function PriorityBadge({ priority }: { priority: TicketPriority }) {
  const { t } = useTranslation('tickets');
  return <Badge tone={PRIORITY_TONE[priority]}>{t(`staff.priority.${priority}`)}</Badge>;
}
