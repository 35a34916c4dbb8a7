// How a server's and a queue entry's state reads wherever they show (widget, admin lists, pages): a
// badge in the state's colour, and the expiry with the days left (warning from REMIND_DAYS on, as the
// renewal reminder mails then).
import { Badge, theme, useTranslation, type BadgeTone } from '@orepanel/sdk';
import type { QueueAttemptOutcome, QueueStatus, ServerView } from '../shared/api';
import { daysLeft } from './resources';

/** the renewal job reminds at ≤ 7 days left (reference behaviour): the widget warns from the same day */
export const REMIND_DAYS = 7;

const QUEUE_TONE: Record<QueueStatus, BadgeTone> = { pending: 'info', building: 'primary', completed: 'success', failed: 'danger' };
const OUTCOME_TONE: Record<QueueAttemptOutcome, BadgeTone> = { completed: 'success', reconciled: 'success', retry: 'warning', failed: 'danger' };

export function ServerStatusBadge({ server }: { server: Pick<ServerView, 'status'> }) {
  const { t } = useTranslation('servers');
  return <Badge tone={server.status === 'active' ? 'success' : 'danger'}>{t(`status.server.${server.status}`)}</Badge>;
}

export function QueueStatusBadge({ status }: { status: QueueStatus }) {
  const { t } = useTranslation('servers');
  return <Badge tone={QUEUE_TONE[status]}>{t(`status.queue.${status}`)}</Badge>;
}

export function OutcomeBadge({ outcome }: { outcome: QueueAttemptOutcome }) {
  const { t } = useTranslation('servers');
  return <Badge tone={OUTCOME_TONE[outcome]}>{t(`status.outcome.${outcome}`)}</Badge>;
}

/** "Expires 3 Dec 2026 · 5 days left", "Expired on …", or "Never expires". */
export function ExpiryText({ expiresAt, now = Date.now() }: { expiresAt: string | null; now?: number }) {
  const { t } = useTranslation('servers');
  const days = daysLeft(expiresAt, now);
  if (expiresAt === null || days === null) return <span css={{ color: theme.colors.muted }}>{t('expiry.never')}</span>;
  const date = new Date(expiresAt);
  if (days <= 0) return <span css={{ color: theme.colors.danger }}>{t('expiry.expired', { date })}</span>;
  return (
    <span css={{ color: days <= REMIND_DAYS ? theme.colors.warning : theme.colors.text }}>
      {t('expiry.expires', { date })} · {t('expiry.daysLeft', { days })}
    </span>
  );
}
