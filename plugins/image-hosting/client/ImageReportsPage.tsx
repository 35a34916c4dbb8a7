// /mc-admin/image-reports: reports of hosted images, by status, newest first. Resolve deletes the image
// (after a confirm); dismiss keeps it. Only holders of admin.image.reports.edit see the two actions.
import {
  Badge,
  Button,
  confirmAction,
  http,
  LazyImage,
  Page,
  PagedList,
  refreshNavBadges,
  Select,
  theme,
  useDateTime,
  useHasPermission,
  usePagedList,
  useSearchParams,
  useTranslation,
  type DataColumn,
} from '@orepanel/sdk';
import { imagesUrl, REPORT_STATUSES, type ImageReport, type ReportStatus } from './api';

const isStatus = (text: string | null): text is ReportStatus => REPORT_STATUSES.some((s) => s === text);

export default function ImageReportsPage() {
  const { t } = useTranslation('image-hosting');
  const dateTime = useDateTime();
  const canEdit = useHasPermission('admin.image.reports.edit');
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status: ReportStatus = isStatus(wanted) ? wanted : 'pending';
  const list = usePagedList<ImageReport>(imagesUrl.reports(status), { searchable: false });

  const act = async (report: ImageReport, kind: 'resolve' | 'dismiss') => {
    const result = await confirmAction({
      title: t(`admin.${kind}.title`),
      text: t(`admin.${kind}.text`, { name: report.image_name }),
      confirmText: t(`admin.${kind}.confirm`),
      danger: kind === 'resolve',
      successText: t(`admin.${kind}.done`),
      action: () => http.post(kind === 'resolve' ? imagesUrl.resolve(report.id) : imagesUrl.dismiss(report.id)),
    });
    if (result.status === 'done') {
      list.reload();
      // the sidebar's pending count changed
      refreshNavBadges();
    }
  };

  const columns: DataColumn<ImageReport>[] = [
    {
      id: 'image',
      header: t('admin.image'),
      primary: true,
      cell: (report) =>
        report.image_url ? (
          <a href={report.image_url} target="_blank" rel="noopener noreferrer" css={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            <LazyImage src={report.image_url} alt={report.image_name} css={{ width: 56, height: 42, objectFit: 'cover', borderRadius: theme.radii.sm }} />
            <code>{report.image_name}</code>
          </a>
        ) : (
          <span css={{ color: theme.colors.muted }}>
            <code>{report.image_name}</code> · {t('admin.gone')}
          </span>
        ),
    },
    { id: 'owner', header: t('admin.owner'), cell: (report) => report.owner ?? '—' },
    { id: 'reason', header: t('admin.reason'), cell: (report) => <Badge tone="warning">{t(`reasons.${report.reason}`)}</Badge> },
    { id: 'details', header: t('admin.details'), cell: (report) => <span css={{ overflowWrap: 'anywhere' }}>{report.details || '—'}</span> },
    { id: 'created', header: t('admin.created'), cell: (report) => dateTime(report.created_at) },
    {
      id: 'actions',
      header: t('admin.actions'),
      align: 'end',
      cell: (report) =>
        report.status === 'pending' && canEdit ? (
          <span css={{ display: 'inline-flex', gap: 8, flexWrap: 'wrap', justifyContent: 'flex-end' }}>
            <Button size="sm" variant="danger" onClick={() => void act(report, 'resolve')}>
              {t('admin.resolve.button')}
            </Button>
            <Button size="sm" variant="secondary" onClick={() => void act(report, 'dismiss')}>
              {t('admin.dismiss.button')}
            </Button>
          </span>
        ) : (
          <span css={{ color: theme.colors.muted }}>{report.handled_at ? dateTime(report.handled_at) : '—'}</span>
        ),
    },
  ];

  return (
    <Page title={t('admin.titles.reports')} description={t('admin.description')}>
      <PagedList
        list={list}
        caption={t('admin.caption')}
        columns={columns}
        rowKey={(report) => report.id}
        empty={{ icon: 'check', title: t('admin.emptyTitle'), text: t('admin.empty') }}
        toolbar={
          <div css={{ minWidth: 200 }}>
            <Select
              label={t('admin.status')}
              name="status"
              value={status}
              options={REPORT_STATUSES.map((value) => ({ value, label: t(`admin.statuses.${value}`) }))}
              onChange={(next) =>
                setParams(
                  (current) => {
                    const out = new URLSearchParams(current);
                    out.delete('page');
                    out.set('status', next);
                    return out;
                  },
                  { replace: true },
                )
              }
            />
          </div>
        }
      />
    </Page>
  );
}
