// /mc-admin/announcements: every announcement, newest first, with its status (draft, scheduled,
// live, expired — decided by the server's clock), searchable and filtered by status.
import {
  Badge,
  Button,
  Page,
  PagedList,
  PermissionGate,
  RowActions,
  Select,
  useDateTime,
  useHasPermission,
  usePagedList,
  useSearchParams,
  useTranslation,
  type DataColumn,
} from '@orepanel/sdk';
import { useMemo } from 'react';
import { PERMISSIONS, path, severityBadge, STATUSES, statusBadge, url, type AdminAnnouncement } from '../api';

export default function AdminAnnouncementsPage() {
  const { t } = useTranslation('announcements');
  const when = useDateTime();
  const [params, setParams] = useSearchParams();
  const status = STATUSES.find((s) => s === params.get('status')) ?? '';
  const list = usePagedList<AdminAnnouncement>(status ? `${url.admin}?status=${status}` : url.admin);
  const mayEdit = useHasPermission(PERMISSIONS.edit);
  const mayDelete = useHasPermission(PERMISSIONS.delete);

  const columns = useMemo<DataColumn<AdminAnnouncement>[]>(
    () => [
      {
        id: 'title',
        header: t('admin.columns.title'),
        primary: true,
        cell: (a) => (
          <span css={{ display: 'grid', gap: 2, minWidth: 0 }}>
            <span css={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
              {a.title} {a.pinned && <Badge tone="neutral">{t('list.pinned')}</Badge>}
            </span>
            {a.tags.length > 0 && <span css={{ opacity: 0.75 }}>{a.tags.map((tag) => `#${tag}`).join(' ')}</span>}
          </span>
        ),
      },
      { id: 'status', header: t('admin.columns.status'), cell: (a) => <Badge tone={statusBadge[a.status]}>{t(`status.${a.status}`)}</Badge> },
      { id: 'severity', header: t('admin.columns.severity'), cell: (a) => <Badge tone={severityBadge[a.severity]}>{t(`severity.${a.severity}`)}</Badge> },
      {
        id: 'audience',
        header: t('admin.columns.audience'),
        cell: (a) => (a.role_ids.length === 0 ? t('admin.everyone') : t('admin.roleCount', { count: a.role_ids.length })),
      },
      {
        id: 'when',
        header: t('admin.columns.publishAt'),
        cell: (a) => (a.publish_at ? when(a.publish_at) : '—'),
      },
      {
        id: 'actions',
        header: t('admin.columns.actions'),
        align: 'end',
        cell: (a) => (
          <RowActions
            actions={[
              mayEdit && { to: path.edit(a.id), text: t('admin.edit'), label: t('admin.editOne', { title: a.title }) },
              mayDelete && { to: path.delete(a.id), text: t('admin.delete'), label: t('admin.deleteOne', { title: a.title }), variant: 'ghost' as const },
            ]}
          />
        ),
      },
    ],
    [t, when, mayEdit, mayDelete],
  );

  return (
    <Page
      title={t('admin.titles.list')}
      description={t('admin.description')}
      actions={
        <PermissionGate permission={PERMISSIONS.create}>
          <Button to={path.create}>{t('admin.create')}</Button>
        </PermissionGate>
      }
    >
      <PagedList
        list={list}
        caption={t('admin.titles.list')}
        searchLabel={t('admin.search')}
        columns={columns}
        rowKey={(a) => a.id}
        empty={{ icon: 'mail', title: t('admin.emptyTitle'), text: t('admin.emptyText') }}
        toolbar={
          <Select
            label={t('admin.statusFilter')}
            name="status"
            value={status}
            placeholder={t('admin.allStatuses')}
            options={STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            onChange={(value) =>
              setParams((current) => {
                const out = new URLSearchParams(current);
                if (value) out.set('status', value);
                else out.delete('status');
                out.delete('page');
                return out;
              })
            }
          />
        }
      />
    </Page>
  );
}
