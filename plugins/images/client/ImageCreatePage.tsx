// /mc-admin/images/create: a name and one picture (chosen, dropped or pasted; png, jpeg, gif or webp
// within the size the settings allow, as the server publishes them), sent with a progress bar; then
// back to the library. The server stays the authority: a taken name lands on the name field.
import {
  Button,
  Card,
  FilePicker,
  Form,
  formWithFiles,
  http,
  Page,
  ResourceState,
  TextField,
  dialogs,
  theme,
  useApi,
  useEditForm,
  useFileSelection,
  useNavigate,
  useTranslation,
  type FileLimitsView,
} from '@orepanel/sdk';
import { useMemo, useRef, useState } from 'react';
import { IMAGE_RULES } from '../shared/image-rules';
import { imagesPath, imagesUrl, useImageErrorText, type LibraryImage, type UploadLimits } from './images-api';

const EXTENSIONS: Readonly<Record<string, readonly string[]>> = { 'image/png': ['png'], 'image/jpeg': ['jpg', 'jpeg'], 'image/gif': ['gif'], 'image/webp': ['webp'] };

function UploadForm({ limits }: { limits: UploadLimits }) {
  const { t } = useTranslation('images');
  const navigate = useNavigate();
  const errorText = useImageErrorText();
  const view = useMemo<FileLimitsView>(() => ({ maxFiles: 1, maxBytes: limits.max_bytes, extensions: limits.types.flatMap((type) => EXTENSIONS[type] ?? []) }), [limits]);
  const picture = useFileSelection(view);
  const chosen = useRef(picture.files);
  chosen.current = picture.files;
  const [progress, setProgress] = useState<number | null>(null);
  const [fileMissing, setFileMissing] = useState(false);
  const form = useEditForm<{ name: string }, { name: string }>({
    initial: { name: '' },
    check: (values) => (values.name.trim() === '' ? { name: 'create.nameRequired' } : {}),
    changes: (values) => ({ name: values.name.trim() }),
    submit: async (body) => {
      const [file] = chosen.current;
      if (!file) {
        setFileMissing(true);
        return;
      }
      setProgress(0);
      try {
        const { image } = await http.upload<{ image: LibraryImage }>(imagesUrl.images(), formWithFiles(body, [file], 'file'), {
          onProgress: ({ loaded, total }) => setProgress(total > 0 ? loaded / total : 0),
        });
        void dialogs.toast(t('create.done', { name: image.name }));
        navigate(imagesPath.list, { replace: true });
      } finally {
        setProgress(null);
      }
    },
    problemText: (problem) => t(problem),
  });

  return (
    <Card>
      <Form onSubmit={form.submit} errorText={errorText} aria-label={t('titles.create')} noValidate>
        <TextField label={t('create.name')} {...form.field('name')} maxLength={IMAGE_RULES.name.maxLength} hint={t('create.nameHint')} autoComplete="off" />
        <FilePicker selection={picture} label={t('create.file')} progress={progress} />
        {fileMissing && picture.files.length === 0 && (
          <p role="alert" css={{ margin: 0, color: theme.colors.danger }}>
            {t('create.fileRequired')}
          </p>
        )}
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          <Button type="submit" icon="image">
            {t('create.submit')}
          </Button>
          <Button variant="ghost" to={imagesPath.list}>
            {t('back')}
          </Button>
        </div>
      </Form>
    </Card>
  );
}

export default function ImageCreatePage() {
  const { t } = useTranslation('images');
  const limits = useApi<UploadLimits>(imagesUrl.limits());
  return (
    <Page
      title={t('titles.create')}
      description={t('create.description')}
      actions={
        <Button variant="secondary" to={imagesPath.list}>
          {t('back')}
        </Button>
      }
    >
      <ResourceState data={limits.data} loading={limits.loading} error={limits.error} reload={limits.reload} errorTitle={t('create.limitsFailed')} lines={3}>
        {(loaded) => <UploadForm limits={loaded} />}
      </ResourceState>
    </Page>
  );
}
