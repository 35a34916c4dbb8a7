// The images of an announcement on its edit page: upload (the sdk's picker, with drop, paste and a
// progress bar), put one into the body as Markdown, or remove it. Images only (the server decides by
// the bytes; the limits here only spare a refused upload).
import { Alert, Button, FilePicker, formWithFiles, http, LazyImage, theme, useErrorText, useFileSelection, useTranslation, type FileLimitsView } from '@orepanel/sdk';
import { useState } from 'react';
import { url, type AnnouncementImage } from '../api';

/** the server's IMAGE_UPLOAD (admin-routes.ts) */
const LIMITS: FileLimitsView = { maxFiles: 1, maxBytes: 5 * 1024 * 1024, extensions: ['png', 'jpg', 'jpeg', 'gif', 'webp'] };

export function AnnouncementImages({ id, initial, insert }: { id: number; initial: readonly AnnouncementImage[]; insert(markdown: string): void }) {
  const { t } = useTranslation('announcements');
  const errorText = useErrorText();
  const selection = useFileSelection(LIMITS);
  const [images, setImages] = useState<readonly AnnouncementImage[]>(initial);
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async () => {
    setError(null);
    setProgress(0);
    try {
      const answer = await http.upload<{ image: AnnouncementImage }>(url.images(id), formWithFiles({}, selection.files), {
        onProgress: ({ loaded, total }) => setProgress(total > 0 ? loaded / total : 0),
      });
      setImages((list) => [...list, answer.image]);
      selection.clear();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setProgress(null);
    }
  };
  const remove = async (image: AnnouncementImage) => {
    setError(null);
    try {
      await http.delete(url.image(id, image.key));
      setImages((list) => list.filter((i) => i.key !== image.key));
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section aria-label={t('images.title')} css={{ display: 'grid', gap: 10, minWidth: 0 }}>
      <span css={{ fontWeight: 600 }}>{t('images.title')}</span>
      <FilePicker selection={selection} label={t('images.pick')} progress={progress} />
      {selection.files.length > 0 && (
        <div>
          <Button size="sm" onClick={() => void upload()} loading={progress !== null}>
            {t('images.upload')}
          </Button>
        </div>
      )}
      {error && <Alert tone="error">{error}</Alert>}
      {images.length > 0 && (
        <ul css={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
          {images.map((image) => (
            <li key={image.key} css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 10, minWidth: 0 }}>
              <LazyImage src={image.url} alt="" css={{ width: 56, height: 56, objectFit: 'cover', borderRadius: theme.radii.sm }} />
              <span css={{ flex: '1 1 160px', overflowWrap: 'anywhere' }}>{image.name}</span>
              <Button
                size="sm"
                variant="secondary"
                onClick={() => insert(`![${image.name.replace(/[[\]]/g, '')}](${image.url})`)}
                aria-label={t('images.insertOne', { name: image.name })}
              >
                {t('images.insert')}
              </Button>
              <Button size="sm" variant="ghost" onClick={() => void remove(image)} aria-label={t('images.removeOne', { name: image.name })}>
                {t('images.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
