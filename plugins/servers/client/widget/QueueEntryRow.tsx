// One queue entry in the widget: a server on its way (pending, building) or one whose build failed,
// with the panel's reason. A pending entry may be withdrawn (its resources come back at once).
import { Button, confirmAction, Icon, http, Spinner, theme, useTranslation } from '@orepanel/sdk';
import { useId } from 'react';
import type { OkResponse, QueueEntryView } from '../../shared/api';
import { api } from '../paths';
import { ResourceSummary } from '../ResourceSummary';
import { QueueStatusBadge } from '../server-status';

const c = theme.colors;

export function QueueEntryRow({ entry, onChanged }: { entry: QueueEntryView; onChanged(): void }) {
  const { t } = useTranslation('servers');
  const nameId = useId();
  const where = [entry.location?.name, entry.egg?.name].filter(Boolean).join(' · ');
  const working = entry.status === 'pending' || entry.status === 'building';

  const withdraw = async () => {
    const result = await confirmAction({
      title: t('widget.withdrawTitle', { name: entry.name }),
      text: t('widget.withdrawText'),
      confirmText: t('widget.withdrawConfirm'),
      cancelText: t('common.cancel'),
      danger: true,
      action: () => http.post<OkResponse>(api.removeQueueEntry(entry.id)),
      successText: t('widget.withdrawn', { name: entry.name }),
    });
    if (result.status !== 'cancelled') onChanged();
  };

  return (
    <li
      aria-labelledby={nameId}
      css={{
        display: 'grid',
        gap: 10,
        padding: '14px 18px',
        background: entry.status === 'failed' ? c.dangerSoft : c.surfaceRaised,
        [theme.breakpoints.md]: { gridTemplateColumns: 'minmax(0, 1fr) auto', alignItems: 'center' },
      }}
    >
      <div css={{ display: 'grid', gap: 6, minWidth: 0 }}>
        <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
          {working ? <Spinner size={16} label={t(`widget.queue.${entry.status}`)} /> : <Icon name="alert" size={18} style={{ color: c.danger }} />}
          <strong id={nameId} css={{ color: c.text, fontSize: theme.font.size.lg, overflowWrap: 'anywhere' }}>
            {entry.name}
          </strong>
          <QueueStatusBadge status={entry.status} />
        </div>
        {where && <div css={{ color: c.muted, fontSize: theme.font.size.sm }}>{where}</div>}
        <ResourceSummary resources={entry.resources} broken={entry.broken_fields} />
        <p css={{ margin: 0, fontSize: theme.font.size.sm, color: entry.status === 'failed' ? c.danger : c.muted, overflowWrap: 'anywhere' }}>
          {entry.status === 'failed'
            ? t('widget.queue.failedWith', { error: entry.last_error ?? t('widget.queue.noReason') })
            : entry.status === 'pending' && entry.next_attempt_at
              ? t('widget.queue.retryAt', { date: new Date(entry.next_attempt_at) })
              : t(`widget.queue.${entry.status}Text`)}
        </p>
      </div>
      {entry.status === 'pending' && (
        <div css={{ display: 'flex', [theme.breakpoints.md]: { justifyContent: 'flex-end' } }}>
          <Button size="sm" variant="ghost" onClick={() => void withdraw()} aria-label={t('widget.withdrawEntry', { name: entry.name })}>
            {t('widget.withdraw')}
          </Button>
        </div>
      )}
    </li>
  );
}
