// /mc-admin/server-queue/logs: every creation attempt of every entry, newest first, paged on the
// server — what the worker tried, when, and what the panel said.
import { Button, Link, Page, PagedList, theme, useHasPermission, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo } from 'react';
import type { AdminQueueLogsResponse, AdminQueueLogView } from '../../shared/api';
import { OwnerLink } from './OwnerLink';
import { adminApi, paths, PERMISSIONS } from '../paths';
import { OutcomeBadge } from '../server-status';
import { useAdminList } from './admin-list';

export default function AdminQueueLogsPage() {
  const { t } = useTranslation('servers');
  const list = useAdminList<AdminQueueLogsResponse, AdminQueueLogView>(adminApi.logs, (a) => a.logs);
  const mayView = useHasPermission(PERMISSIONS.queueView);

  const columns = useMemo<DataColumn<AdminQueueLogView>[]>(
    () => [
      {
        id: 'when',
        header: t('admin.columns.when'),
        primary: true,
        cell: (l) => <time dateTime={l.created_at}>{t('dateTime', { value: new Date(l.created_at) })}</time>,
      },
      {
        id: 'entry',
        header: t('admin.columns.entry'),
        cell: (l) =>
          mayView ? (
            <Link to={paths.adminEntry(l.entry_id)} css={{ color: theme.colors.primaryHover }}>
              {l.entry_name}
            </Link>
          ) : (
            l.entry_name
          ),
      },
      { id: 'owner', header: t('admin.columns.owner'), cell: (l) => <OwnerLink owner={l.owner} /> },
      { id: 'attempt', header: t('admin.columns.attempt'), align: 'end', cell: (l) => t('units.count', { value: l.attempt }) },
      { id: 'outcome', header: t('admin.columns.outcome'), cell: (l) => <OutcomeBadge outcome={l.outcome} /> },
      { id: 'message', header: t('admin.columns.message'), cell: (l) => <span css={{ fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{l.message}</span> },
    ],
    [t, mayView],
  );

  return (
    <Page
      title={t('admin.titles.queueLogs')}
      description={t('admin.logs.description')}
      actions={
        <Button variant="secondary" to={paths.adminQueue}>
          {t('admin.back')}
        </Button>
      }
    >
      <PagedList list={list} caption={t('admin.titles.queueLogs')} columns={columns} rowKey={(l) => l.id} empty={{ icon: 'clock', title: t('admin.logs.empty') }} />
    </Page>
  );
}
