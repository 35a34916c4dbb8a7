// The activity log: the user's own audit trail (sign-ins, failed attempts, changes, what an
// administrator did to the account), newest first, paged by the server.
import { Card, DataTable, Pagination, theme, usePagedList, useTranslation, type DataColumn } from '@orepanel/sdk';
import { formatDateTime } from './format';

export const ACTIVITIES_API = '/api/user/session/activities';
export const ACTIVITY_PAGE_SIZE = 10;

export interface ActivityRow {
  id: number;
  action: string;
  by: 'self' | 'administrator' | 'anonymous';
  details: Record<string, unknown>;
  ip: string | null;
  created_at: string;
}

/** The catalogue key of an action's label: `activity.actions.<action with _ for .>`. */
export function actionKey(action: string): string {
  return `activity.actions.${action.replace(/[^a-zA-Z0-9_]/g, '_')}`;
}

export function ActivitySection() {
  const { t, i18n } = useTranslation('account');
  // a second list on a page keeps its position in state, not in the address
  const list = usePagedList<ActivityRow>(ACTIVITIES_API, { perPage: ACTIVITY_PAGE_SIZE, searchable: false, inAddress: false });

  // an action a newer server records and this catalogue does not know yet shows as recorded
  const label = (action: string) => (i18n.exists(actionKey(action), { ns: 'account' }) ? t(actionKey(action)) : action);

  const columns: DataColumn<ActivityRow>[] = [
    { id: 'event', header: t('activity.event'), primary: true, cell: (row) => <span css={{ fontWeight: theme.font.weight.medium }}>{label(row.action)}</span> },
    { id: 'by', header: t('activity.by'), cell: (row) => t(`activity.actors.${row.by}`) },
    { id: 'ip', header: t('activity.ip'), cell: (row) => <span css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{row.ip ?? '—'}</span> },
    { id: 'when', header: t('activity.when'), align: 'end', cell: (row) => formatDateTime(row.created_at, i18n.language) },
  ];

  return (
    <Card flush title={t('activity.title')}>
      <DataTable
        caption={t('activity.title')}
        columns={columns}
        rows={list.rows}
        rowKey={(row) => row.id}
        loading={list.loading}
        error={list.error}
        onRetry={list.reload}
        empty={{ icon: 'clock', title: t('activity.emptyTitle'), text: t('activity.emptyText') }}
      />
      {list.meta && (
        <Pagination page={list.page} totalPages={list.meta.total_pages} total={list.meta.total} perPage={list.perPage} onPageChange={list.setPage} disabled={list.loading} />
      )}
    </Card>
  );
}
