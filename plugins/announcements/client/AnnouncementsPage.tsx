// /announcements: the published announcements meant for me — pinned first, then newest — as cards
// with a "new" badge until opened, a tag filter and paging; ?id= opens one (its body and images),
// which marks it read and refreshes the sidebar's count.
import {
  Alert,
  Badge,
  Button,
  Card,
  EmptyStateCard,
  Grid,
  http,
  LazyImage,
  Page,
  Pagination,
  refreshNavBadges,
  ResourceState,
  Skeleton,
  theme,
  useApi,
  useDateTime,
  useSearchParams,
  useTranslation,
  type PagedResponse,
} from '@orepanel/sdk';
import { useEffect } from 'react';
import { AnnouncementBody } from './AnnouncementBody';
import { severityBadge, url, type AnnouncementCard, type AnnouncementDetail } from './api';

const PER_PAGE = 12;

function TagButtons({ tags, onPick }: { tags: readonly string[]; onPick(tag: string): void }) {
  const { t } = useTranslation('announcements');
  if (tags.length === 0) return null;
  return (
    <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
      {tags.map((tag) => (
        <Button key={tag} size="sm" variant="ghost" onClick={() => onPick(tag)} aria-label={t('list.filterBy', { tag })}>
          #{tag}
        </Button>
      ))}
    </div>
  );
}

function Labels({ item }: { item: AnnouncementCard }) {
  const { t } = useTranslation('announcements');
  return (
    <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
      {!item.read && <Badge tone="primary">{t('list.new')}</Badge>}
      {item.pinned && <Badge tone="neutral">{t('list.pinned')}</Badge>}
      <Badge tone={severityBadge[item.severity]}>{t(`severity.${item.severity}`)}</Badge>
    </div>
  );
}

function Detail({ id, onBack, onTag }: { id: string; onBack(): void; onTag(tag: string): void }) {
  const { t } = useTranslation('announcements');
  const when = useDateTime();
  const loaded = useApi<{ announcement: AnnouncementDetail }>(url.one(id));
  const item = loaded.data?.announcement;
  useEffect(() => {
    if (!item || item.read) return;
    // opening it is reading it: the sidebar's count follows
    void http.post(url.read(item.id)).then(refreshNavBadges, () => undefined);
  }, [item]);
  return (
    <ResourceState data={item} loading={loaded.loading} error={loaded.error} reload={loaded.reload} errorTitle={t('detail.loadFailed')} lines={6}>
      {(a) => (
        <Card>
          <article css={{ display: 'grid', gap: 14 }}>
            <div>
              <Button variant="secondary" size="sm" onClick={onBack}>
                {t('detail.back')}
              </Button>
            </div>
            <Labels item={{ ...a, read: true }} />
            <h2 css={{ margin: 0, overflowWrap: 'anywhere' }}>{a.title}</h2>
            <p css={{ margin: 0, color: theme.colors.muted }}>{t('detail.published', { date: when(a.publish_at) })}</p>
            {a.summary && <p css={{ margin: 0, fontWeight: 500 }}>{a.summary}</p>}
            <AnnouncementBody html={a.body_html} />
            {a.images.length > 0 && (
              <section aria-label={t('detail.images')}>
                <Grid min={160} gap={10}>
                  {a.images.map((image) => (
                    <a key={image.key} href={image.url} target="_blank" rel="noopener noreferrer">
                      <LazyImage src={image.url} alt={image.name} css={{ width: '100%', borderRadius: theme.radii.md, display: 'block' }} />
                    </a>
                  ))}
                </Grid>
              </section>
            )}
            <TagButtons tags={a.tags} onPick={onTag} />
          </article>
        </Card>
      )}
    </ResourceState>
  );
}

export default function AnnouncementsPage() {
  const { t } = useTranslation('announcements');
  const when = useDateTime();
  const [params, setParams] = useSearchParams();
  const tag = params.get('tag') ?? '';
  const id = params.get('id');
  const page = Math.max(1, Number(params.get('page')) || 1);
  const query = new URLSearchParams({ page: String(page), per_page: String(PER_PAGE) });
  if (tag) query.set('tag', tag);
  const list = useApi<PagedResponse<AnnouncementCard>>(id ? null : `${url.mine}?${query.toString()}`);
  const go = (next: Record<string, string | null>) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      for (const [key, value] of Object.entries(next)) {
        if (value === null) out.delete(key);
        else out.set(key, value);
      }
      return out;
    });
  const pickTag = (picked: string) => go({ tag: picked, page: null, id: null });

  return (
    <Page title={t('titles.list')} description={t('list.description')}>
      {id ? (
        <Detail id={id} onBack={() => go({ id: null })} onTag={pickTag} />
      ) : (
        <div css={{ display: 'grid', gap: 14 }}>
          {tag && (
            <Alert tone="info" onClose={() => go({ tag: null, page: null })}>
              {t('list.filtered', { tag })}
            </Alert>
          )}
          {list.error ? (
            <Alert tone="error" title={t('list.loadFailed')}>
              <Button size="sm" onClick={list.reload}>
                {t('list.retry')}
              </Button>
            </Alert>
          ) : !list.data ? (
            <Grid min={280} gap={14}>
              {Array.from({ length: 3 }, (_, i) => (
                <Skeleton key={i} height={160} radius="14px" label={t('list.loading')} />
              ))}
            </Grid>
          ) : list.data.data.length === 0 ? (
            <EmptyStateCard icon="mail" title={t('list.emptyTitle')} text={tag ? t('list.emptyTagged', { tag }) : t('list.emptyText')} />
          ) : (
            <>
              <Grid min={280} gap={14}>
                {list.data.data.map((item) => (
                  <Card key={item.id}>
                    <article css={{ display: 'grid', gap: 10, height: '100%', alignContent: 'start' }}>
                      {item.image && <LazyImage src={item.image} alt="" css={{ width: '100%', maxHeight: 160, objectFit: 'cover', borderRadius: theme.radii.md }} />}
                      <Labels item={item} />
                      <h2 css={{ margin: 0, fontSize: '1.1rem', overflowWrap: 'anywhere' }}>{item.title}</h2>
                      <span css={{ color: theme.colors.muted, fontSize: '0.875rem' }}>{when(item.publish_at)}</span>
                      {item.summary && <p css={{ margin: 0, overflowWrap: 'anywhere' }}>{item.summary}</p>}
                      <TagButtons tags={item.tags} onPick={pickTag} />
                      <div>
                        <Button size="sm" onClick={() => go({ id: String(item.id) })} aria-label={t('list.readOne', { title: item.title })}>
                          {t('list.read')}
                        </Button>
                      </div>
                    </article>
                  </Card>
                ))}
              </Grid>
              {list.data.meta.total_pages > 1 && (
                <Pagination
                  page={list.data.meta.page}
                  totalPages={list.data.meta.total_pages}
                  total={list.data.meta.total}
                  perPage={list.data.meta.per_page}
                  onPageChange={(next) => go({ page: next > 1 ? String(next) : null })}
                />
              )}
            </>
          )}
        </div>
      )}
    </Page>
  );
}
