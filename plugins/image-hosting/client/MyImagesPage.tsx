// /images: the customer's hosted images as a grid (thumbnail, size, date, copy link, delete), paged on
// the server, with the quota and an upload card (choose or drop images; progress while they go).
import { useMemo, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  confirmAction,
  CopyButton,
  EmptyStateCard,
  FilePicker,
  formatFileSize,
  formWithFiles,
  Grid,
  http,
  isApiError,
  LazyImage,
  Page,
  Pagination,
  ResourceState,
  theme,
  useApi,
  useDateTime,
  useFileSelection,
  useTranslation,
  type FileLimitsView,
} from '@orepanel/sdk';
import { extensionsFor, imagesUrl, type HostedImage, type ImagesAnswer, type Usage } from './api';
import { QuotaBar } from './QuotaBar';

const c = theme.colors;
/** how many images one upload may pick (each goes in its own request, one after another) */
const PICK_AT_ONCE = 10;

function UploadCard({ usage, onUploaded }: { usage: Usage; onUploaded(): void }) {
  const { t } = useTranslation('image-hosting');
  const limits = useMemo<FileLimitsView>(() => ({ maxFiles: PICK_AT_ONCE, maxBytes: usage.max_bytes, extensions: extensionsFor(usage.types) }), [usage]);
  const selection = useFileSelection(limits);
  const [progress, setProgress] = useState<number | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = async () => {
    const files = [...selection.files];
    setProblem(null);
    try {
      for (const [index, file] of files.entries()) {
        await http.upload(imagesUrl.upload, formWithFiles({}, [file], 'file'), {
          onProgress: ({ loaded, total }) => setProgress((index + (total > 0 ? loaded / total : 1)) / files.length),
        });
      }
      selection.clear();
    } catch (error) {
      setProblem(isApiError(error) ? t(`errors.${error.code}`, { defaultValue: error.message }) : t('upload.failed'));
    } finally {
      setProgress(null);
      onUploaded();
    }
  };
  return (
    <Card title={t('upload.title')}>
      <div css={{ display: 'grid', gap: 12 }}>
        {usage.coins_per_upload > 0 && <Alert tone="info">{t('upload.costs', { count: usage.coins_per_upload })}</Alert>}
        <FilePicker selection={selection} label={t('upload.label')} progress={progress} />
        {problem && <Alert tone="error">{problem}</Alert>}
        <div>
          <Button icon="image" onClick={() => void send()} disabled={selection.files.length === 0} loading={progress !== null}>
            {t('upload.send')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function ImageTile({ image, onDeleted }: { image: HostedImage; onDeleted(): void }) {
  const { t, i18n } = useTranslation('image-hosting');
  const dateTime = useDateTime();
  const remove = async () => {
    const result = await confirmAction({
      title: t('delete.title'),
      text: t('delete.text', { name: image.original_name }),
      confirmText: t('delete.confirm'),
      danger: true,
      successText: t('delete.done'),
      action: () => http.delete(imagesUrl.image(image.id)),
    });
    if (result.status === 'done') onDeleted();
  };
  return (
    <Card flush>
      <a href={image.url} target="_blank" rel="noopener noreferrer" css={{ display: 'block', background: c.surfaceRaised, aspectRatio: '4 / 3' }}>
        <LazyImage src={imagesUrl.raw(image.name)} alt={image.original_name} css={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }} />
      </a>
      <div css={{ display: 'grid', gap: 8, padding: 12, minWidth: 0 }}>
        <strong css={{ overflowWrap: 'anywhere', fontSize: theme.font.size.sm }}>{image.original_name}</strong>
        <span css={{ color: c.muted, fontSize: theme.font.size.xs }}>
          {formatFileSize(image.size, i18n.language)} · {dateTime(image.created_at)}
        </span>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <CopyButton text={image.url} label={t('list.copy')} />
          <Button size="sm" variant="danger" icon="close" onClick={() => void remove()}>
            {t('list.delete')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

export default function MyImagesPage() {
  const { t } = useTranslation('image-hosting');
  const [page, setPage] = useState(1);
  const answer = useApi<ImagesAnswer>(imagesUrl.list(page));
  return (
    <Page
      title={t('titles.images')}
      description={t('list.description')}
      actions={
        <Button to="/images/config" variant="secondary" icon="settings">
          {t('list.config')}
        </Button>
      }
    >
      <ResourceState data={answer.data} loading={answer.loading} error={answer.error} reload={answer.reload}>
        {({ data, meta, usage }) => (
          <div css={{ display: 'grid', gap: 16 }}>
            <Card title={t('quota.title')}>
              <QuotaBar usage={usage} />
            </Card>
            <UploadCard usage={usage} onUploaded={answer.reload} />
            {data.length === 0 ? (
              <EmptyStateCard icon="image" title={t('list.emptyTitle')} text={t('list.empty')} />
            ) : (
              <Grid min={200}>
                {data.map((image) => (
                  <ImageTile key={image.id} image={image} onDeleted={() => (data.length === 1 && page > 1 ? setPage(page - 1) : answer.reload())} />
                ))}
              </Grid>
            )}
            {meta.total_pages > 1 && <Pagination page={meta.page} totalPages={meta.total_pages} total={meta.total} perPage={meta.per_page} onPageChange={setPage} />}
          </div>
        )}
      </ResourceState>
    </Page>
  );
}
