// The account's activity (the audit log: logins, failed attempts, what administrators changed),
// newest first, paged on the server.
import { PagedList, theme, usePagedList, useTranslation, type DataColumn, useDateTime } from '@orepanel/sdk';
import { useMemo } from 'react';
import { usersUrl, type ActivityEntry } from './users-api';

/** "role_id: 4, previous_role: 1" — the entry's details as the server recorded them. */
function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .filter(([, value]) => value !== null && value !== undefined && value !== '')
    .map(([key, value]) => `${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

export function UserActivity({ uuid }: { uuid: string }) {
  const { t } = useTranslation('admin-users');
  const list = usePagedList<ActivityEntry>(usersUrl.userActivity(uuid), { perPage: 10, searchable: false, inAddress: false });
  const dateTime = useDateTime();
  const columns = useMemo<DataColumn<ActivityEntry>[]>(
    () => [
      {
        id: 'action',
        header: t('activity.columns.action'),
        primary: true,
        cell: (e) => <code css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{e.action}</code>,
      },
      { id: 'by', header: t('activity.columns.by'), cell: (e) => e.actor?.username ?? t('activity.system') },
      {
        id: 'details',
        header: t('activity.columns.details'),
        cell: (e) => <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{detailsText(e.details) || '—'}</span>,
      },
      { id: 'ip', header: t('activity.columns.ip'), cell: (e) => e.ip ?? '—' },
      { id: 'when', header: t('activity.columns.when'), align: 'end', cell: (e) => dateTime(e.created_at) },
    ],
    [t, dateTime],
  );
  return (
    <div css={{ display: 'grid', gap: 10 }}>
      <h2 css={{ margin: 0, fontSize: theme.font.size.lg, fontWeight: theme.font.weight.semibold }}>{t('activity.title')}</h2>
      <PagedList list={list} caption={t('activity.title')} columns={columns} rowKey={(e) => e.id} empty={{ icon: 'clock', title: t('activity.empty') }} skeletonRows={3} />
    </div>
  );
}
