// /mc-admin/server-queue: the creation queue, newest first, filtered by state and paged on the
// server. Each entry shows its owner, what it asks for, its attempts and the last failure; it opens
// the entry's page (attempt timeline) and its delete page.
import { Button, Page, PagedList, PermissionGate, RowActions, Select, theme, useHasPermission, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import { QUEUE_STATUSES, type AdminQueueEntryView, type AdminQueueResponse } from '../../shared/api';
import { OwnerLink } from './OwnerLink';
import { adminApi, paths, PERMISSIONS } from '../paths';
import { ResourceSummary } from '../ResourceSummary';
import { QueueStatusBadge } from '../server-status';
import { useAdminList } from './admin-list';

const FILTERS = ['status'] as const;

export default function AdminQueuePage() {
  const { t } = useTranslation('servers');
  const list = useAdminList<AdminQueueResponse, AdminQueueEntryView>(adminApi.queue, (a) => a.entries, FILTERS);
  const mayView = useHasPermission(PERMISSIONS.queueView);
  const mayDelete = useHasPermission(PERMISSIONS.queueDelete);

  const columns = useMemo<DataColumn<AdminQueueEntryView>[]>(
    () => [
      {
        id: 'entry',
        header: t('admin.columns.entry'),
        primary: true,
        cell: (e) => (
          <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
            <strong css={{ overflowWrap: 'anywhere' }}>{e.name}</strong>
            <QueueStatusBadge status={e.status} />
          </span>
        ),
      },
      { id: 'owner', header: t('admin.columns.owner'), cell: (e) => <OwnerLink owner={e.owner} /> },
      {
        id: 'where',
        header: t('admin.columns.where'),
        cell: (e) => <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{[e.location?.name, e.egg?.name].filter(Boolean).join(' · ') || '—'}</span>,
      },
      { id: 'resources', header: t('admin.columns.resources'), cell: (e) => <ResourceSummary resources={e.resources} broken={e.broken_fields} /> },
      {
        id: 'attempts',
        header: t('admin.columns.attempts'),
        cell: (e) => (
          <span css={{ display: 'grid', gap: 2, fontSize: theme.font.size.sm }}>
            <span css={{ fontVariantNumeric: 'tabular-nums' }}>{t('units.count', { value: e.attempts })}</span>
            {e.last_error && <span css={{ color: theme.colors.danger, overflowWrap: 'anywhere' }}>{e.last_error}</span>}
            {e.next_attempt_at && <span css={{ color: theme.colors.muted }}>{t('admin.queue.nextAttempt', { date: new Date(e.next_attempt_at) })}</span>}
          </span>
        ),
      },
      { id: 'created', header: t('admin.columns.created'), cell: (e) => <span css={{ fontSize: theme.font.size.sm }}>{t('dateTime', { value: new Date(e.created_at) })}</span> },
      {
        id: 'actions',
        header: t('admin.columns.actions'),
        align: 'end',
        cell: (e) => (
          <RowActions
            actions={[
              mayView && { to: paths.adminEntry(e.id), text: t('admin.queue.view'), label: t('admin.queue.viewEntry', { name: e.name }) },
              mayDelete &&
                e.status !== 'building' && {
                  to: paths.adminEntryDelete(e.id),
                  text: t('admin.queue.delete'),
                  label: t('admin.queue.deleteEntry', { name: e.name }),
                  variant: 'ghost',
                },
            ]}
          />
        ),
      },
    ],
    [t, mayView, mayDelete],
  );

  const statusFilter = (
    <div css={{ minWidth: 180 }}>
      <Select
        name="status"
        label={t('admin.queue.statusFilter')}
        value={list.filter('status')}
        onChange={(value) => list.setFilter('status', value)}
        placeholder={t('admin.queue.allStatuses')}
        options={QUEUE_STATUSES.map((s) => ({ value: s, label: t(`status.queue.${s}`) }))}
      />
    </div>
  );

  return (
    <Page
      title={t('admin.titles.queue')}
      description={t('admin.queue.description')}
      actions={
        <>
          <PermissionGate permission={PERMISSIONS.queueLogs}>
            <Button variant="secondary" icon="clock" to={paths.adminQueueLogs}>
              {t('admin.queue.logs')}
            </Button>
          </PermissionGate>
          <PermissionGate permission={PERMISSIONS.queueCreate}>
            <Button icon="server" to={paths.adminQueueCreate}>
              {t('admin.queue.create')}
            </Button>
          </PermissionGate>
        </>
      }
    >
      <PagedList
        list={list}
        caption={t('admin.titles.queue')}
        columns={columns}
        rowKey={(e) => e.id}
        toolbar={statusFilter}
        empty={{ icon: 'archive', title: t('admin.queue.empty') }}
      />
    </Page>
  );
}
