// /mc-admin/server-queue/:id: one queue entry — who asked for what, where, its state — and the
// timeline of its creation attempts with each outcome and the panel's message.
import type { ReactNode } from 'react';
import { Badge, Button, Card, EmptyState, Page, PermissionGate, ResourceState, theme, useApi, useParams, useTranslation } from '@orepanel/sdk';
import type { AdminQueueEntryResponse, AdminQueueEntryView, QueueLogView } from '../../shared/api';
import { BrokenNote } from '../BrokenNote';
import { OwnerLink } from './OwnerLink';
import { adminApi, paths, PERMISSIONS } from '../paths';
import { resourceText, SERVER_RESOURCE_KEYS } from '../resources';
import { OutcomeBadge, QueueStatusBadge } from '../server-status';

const c = theme.colors;

function EntryDetails({ entry }: { entry: AdminQueueEntryView }) {
  const { t } = useTranslation('servers');
  const rows: [string, ReactNode][] = [
    [t('admin.entry.status'), <QueueStatusBadge key="s" status={entry.status} />],
    [t('admin.entry.owner'), <OwnerLink key="o" owner={entry.owner} />],
    [t('admin.entry.location'), entry.location?.name ?? '—'],
    [t('admin.entry.egg'), entry.egg?.name ?? '—'],
    ...SERVER_RESOURCE_KEYS.map((key): [string, ReactNode] => [t(`resources.names.${key}`), resourceText(t, key, entry.resources[key])]),
    [t('admin.entry.attempts'), t('units.count', { value: entry.attempts })],
    [t('admin.entry.created'), t('dateTime', { value: new Date(entry.created_at) })],
    [t('admin.entry.updated'), t('dateTime', { value: new Date(entry.updated_at) })],
  ];
  if (entry.next_attempt_at) rows.push([t('admin.entry.nextAttempt'), t('dateTime', { value: new Date(entry.next_attempt_at) })]);
  if (entry.server_id !== null)
    rows.push([
      t('admin.entry.server'),
      <Badge key="id" tone="success">
        #{entry.server_id}
      </Badge>,
    ]);
  return (
    <Card title={entry.name}>
      <div css={{ display: 'grid', gap: 14 }}>
        {entry.description && <p css={{ margin: 0, color: c.muted }}>{entry.description}</p>}
        <BrokenNote fields={entry.broken_fields} />
        <dl css={{ display: 'grid', gridTemplateColumns: 'max-content minmax(0, 1fr)', gap: '8px 18px', margin: 0 }}>
          {rows.map(([label, value]) => (
            <div key={label} css={{ display: 'contents' }}>
              <dt css={{ color: c.muted }}>{label}</dt>
              <dd css={{ margin: 0, fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}>{value}</dd>
            </div>
          ))}
        </dl>
        {entry.last_error && (
          <p css={{ margin: 0, color: c.danger, overflowWrap: 'anywhere' }}>
            {t('admin.entry.lastError')}: {entry.last_error}
          </p>
        )}
      </div>
    </Card>
  );
}

/** The attempts in order, each a dot on a line with its outcome, time and message. */
export function AttemptTimeline({ logs }: { logs: QueueLogView[] }) {
  const { t } = useTranslation('servers');
  if (logs.length === 0) return <EmptyState icon="clock" title={t('admin.entry.noAttempts')} text={t('admin.entry.noAttemptsText')} />;
  return (
    <ol aria-label={t('admin.entry.timeline')} css={{ margin: 0, padding: 0, listStyle: 'none', display: 'grid', gap: 0 }}>
      {logs.map((log, i) => (
        <li key={log.id} css={{ display: 'grid', gridTemplateColumns: '20px minmax(0, 1fr)', gap: 12 }}>
          <span aria-hidden css={{ position: 'relative', display: 'flex', justifyContent: 'center' }}>
            <span css={{ position: 'absolute', top: 0, bottom: 0, width: 2, background: i === logs.length - 1 ? 'transparent' : c.border, marginTop: 14 }} />
            <span
              css={{
                width: 12,
                height: 12,
                marginTop: 6,
                borderRadius: '50%',
                background: log.outcome === 'failed' ? c.danger : log.outcome === 'retry' ? c.warning : c.success,
                zIndex: 1,
              }}
            />
          </span>
          <div css={{ display: 'grid', gap: 4, paddingBottom: 18 }}>
            <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
              <strong>{t('admin.entry.attempt', { n: log.attempt })}</strong>
              <OutcomeBadge outcome={log.outcome} />
              <time dateTime={log.created_at} css={{ color: c.muted, fontSize: theme.font.size.sm }}>
                {t('dateTime', { value: new Date(log.created_at) })}
              </time>
            </div>
            <p css={{ margin: 0, color: c.text, overflowWrap: 'anywhere', fontSize: theme.font.size.sm }}>{log.message}</p>
          </div>
        </li>
      ))}
    </ol>
  );
}

export default function AdminQueueEntryPage() {
  const { t } = useTranslation('servers');
  const { id = '' } = useParams();
  const loaded = useApi<AdminQueueEntryResponse>(id ? adminApi.entry(id) : null);
  return (
    <Page
      title={t('admin.titles.queueEntry')}
      actions={
        <>
          {loaded.data && loaded.data.entry.status !== 'building' && (
            <PermissionGate permission={PERMISSIONS.queueDelete}>
              <Button variant="danger" to={paths.adminEntryDelete(loaded.data.entry.id)}>
                {t('admin.queue.delete')}
              </Button>
            </PermissionGate>
          )}
          <Button variant="secondary" onClick={loaded.reload} icon="clock">
            {t('admin.entry.refresh')}
          </Button>
          <Button variant="secondary" to={paths.adminQueue}>
            {t('admin.back')}
          </Button>
        </>
      }
    >
      <ResourceState data={loaded.data} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('admin.entry.loadFailed')}>
        {({ entry, logs }) => (
          <div css={{ display: 'grid', gap: 16 }}>
            <EntryDetails entry={entry} />
            <Card title={t('admin.entry.timeline')}>
              <AttemptTimeline logs={logs} />
            </Card>
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
