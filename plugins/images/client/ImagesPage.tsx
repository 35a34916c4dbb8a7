// /mc-admin/images: the library as a grid of thumbnails with name, size and pixel size, paged on the
// server with a name search; each picture's address can be copied, and it can be deleted (the delete
// page says what uses it first).
import {
  Button,
  CopyButton,
  EmptyState,
  formatFileSize,
  LazyImage,
  LoadError,
  Page,
  Pagination,
  PermissionGate,
  SearchField,
  Skeleton,
  theme,
  useHasPermission,
  usePagedList,
  useTranslation,
} from '@orepanel/sdk';
import { absoluteUrl, IMAGE_PERMISSIONS, imagesPath, imagesUrl, type LibraryImage } from './images-api';

const c = theme.colors;
const GRID = { listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 12, gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))' } as const;

function ImageCard({ image, mayDelete }: { image: LibraryImage; mayDelete: boolean }) {
  const { t, i18n } = useTranslation('images');
  return (
    <li css={{ display: 'grid', background: c.surface, border: `1px solid ${c.border}`, borderRadius: theme.radii.lg, overflow: 'hidden', minWidth: 0 }}>
      <a href={image.url} target="_blank" rel="noopener noreferrer" aria-label={t('list.open', { name: image.name })} css={{ display: 'block', background: c.background }}>
        <LazyImage
          src={image.url}
          alt=""
          width={image.width ?? undefined}
          height={image.height ?? undefined}
          css={{ display: 'block', width: '100%', aspectRatio: '4 / 3', objectFit: 'contain' }}
        />
      </a>
      <div css={{ display: 'grid', gap: 6, padding: 10 }}>
        <strong css={{ overflowWrap: 'anywhere' }}>{image.name}</strong>
        <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>
          {image.width !== null && image.height !== null
            ? t('list.details', { size: formatFileSize(image.size, i18n.language), width: image.width, height: image.height })
            : formatFileSize(image.size, i18n.language)}
        </span>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 6 }}>
          <CopyButton text={absoluteUrl(image.url)} label={t('list.copy')} />
          {mayDelete && (
            <Button size="sm" variant="ghost" to={imagesPath.delete(image.id)} aria-label={t('list.deleteImage', { name: image.name })}>
              {t('list.delete')}
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

export default function ImagesPage() {
  const { t } = useTranslation('images');
  const list = usePagedList<LibraryImage>(imagesUrl.images(), { perPage: 24, searchable: true });
  const mayDelete = useHasPermission(IMAGE_PERMISSIONS.delete);
  const rows = list.rows;

  return (
    <Page
      title={t('list.title')}
      description={t('list.description')}
      actions={
        <PermissionGate permission={IMAGE_PERMISSIONS.create}>
          <Button icon="image" to={imagesPath.create}>
            {t('list.create')}
          </Button>
        </PermissionGate>
      }
    >
      <section aria-label={t('list.title')} css={{ display: 'grid', gap: 12 }}>
        <SearchField value={list.searchText} onChange={list.setSearchText} label={t('list.search')} />
        {list.error && !list.loading ? (
          <LoadError title={t('list.loadFailed')} error={list.error} onRetry={list.reload} />
        ) : rows === undefined ? (
          <ul css={GRID} aria-busy="true" aria-label={t('list.loading')}>
            {[0, 1, 2, 3].map((n) => (
              <li key={n}>
                <Skeleton height={200} />
              </li>
            ))}
          </ul>
        ) : rows.length === 0 ? (
          list.search ? (
            <EmptyState icon="search" title={t('list.noMatch')} />
          ) : (
            <EmptyState icon="image" title={t('list.empty')} text={t('list.emptyText')} />
          )
        ) : (
          <ul css={GRID}>
            {rows.map((image) => (
              <ImageCard key={image.id} image={image} mayDelete={mayDelete} />
            ))}
          </ul>
        )}
        {list.meta && list.meta.total_pages > 1 && (
          <Pagination page={list.page} totalPages={list.meta.total_pages} onPageChange={list.setPage} total={list.meta.total} perPage={list.perPage} disabled={list.loading} />
        )}
      </section>
    </Page>
  );
}
