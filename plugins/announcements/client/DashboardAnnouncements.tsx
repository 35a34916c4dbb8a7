// The dashboard.announcements slot: the pinned ones and the newest (the list's order), three at most,
// each opening on /announcements; "all announcements" below.
import { Badge, Button, Card, EmptyState, Skeleton, theme, useApi, useDateTime, useTranslation, type PagedResponse } from '@orepanel/sdk';
import { path, severityBadge, url, type AnnouncementCard } from './api';

export default function DashboardAnnouncements() {
  const { t } = useTranslation('announcements');
  const when = useDateTime();
  const latest = useApi<PagedResponse<AnnouncementCard>>(`${url.mine}?per_page=3`);
  if (latest.error) return null;
  if (!latest.data) return <Skeleton height={120} radius="14px" label={t('list.loading')} />;
  const items = latest.data.data;
  return (
    <Card>
      {items.length === 0 ? (
        <EmptyState icon="mail" title={t('list.emptyTitle')} text={t('list.emptyText')} />
      ) : (
        <div css={{ display: 'grid', gap: 12 }}>
          <ul css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 12 }}>
            {items.map((item) => (
              <li key={item.id} css={{ display: 'grid', gap: 4, minWidth: 0 }}>
                <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6, alignItems: 'center' }}>
                  {!item.read && <Badge tone="primary">{t('list.new')}</Badge>}
                  {item.pinned && <Badge tone="neutral">{t('list.pinned')}</Badge>}
                  <Badge tone={severityBadge[item.severity]}>{t(`severity.${item.severity}`)}</Badge>
                  <span css={{ color: theme.colors.muted, fontSize: '0.875rem' }}>{when(item.publish_at)}</span>
                </div>
                <Button variant="ghost" to={path.detail(item.id)} css={{ justifySelf: 'start', paddingLeft: 0, fontWeight: 600, textAlign: 'start' }}>
                  {item.title}
                </Button>
                {item.summary && <p css={{ margin: 0, color: theme.colors.muted, overflowWrap: 'anywhere' }}>{item.summary}</p>}
              </li>
            ))}
          </ul>
          <div>
            <Button size="sm" variant="secondary" to={path.list}>
              {t('dashboard.all')}
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
