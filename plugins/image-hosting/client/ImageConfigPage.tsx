// /images/config: the customer's upload key (hidden until revealed; copy; rotate after a warning that
// ShareX must get the new file), the ShareX file download, and the embed settings that turn the viewer
// link into a Discord card.
import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, confirmAction, CopyButton, dialogs, Form, http, Page, ResourceState, TextArea, TextField, theme, useApi, useTranslation } from '@orepanel/sdk';
import { imagesUrl, type EmbedSettings } from './api';

const c = theme.colors;
const COLOR = /^#[0-9A-Fa-f]{6}$/;

function KeyCard() {
  const { t } = useTranslation('image-hosting');
  const [key, setKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reveal = async () => {
    setBusy(true);
    try {
      setKey((await http.get<{ key: string }>(imagesUrl.key, { cache: 'no-store' })).key);
    } catch {
      void dialogs.error(t('key.failed'));
    } finally {
      setBusy(false);
    }
  };
  const rotate = async () => {
    const result = await confirmAction({
      title: t('key.rotateTitle'),
      text: t('key.rotateText'),
      confirmText: t('key.rotateConfirm'),
      danger: true,
      successText: t('key.rotated'),
      action: () => http.post<{ key: string }>(imagesUrl.rotate),
    });
    if (result.status === 'done') setKey(result.value.key);
  };
  return (
    <Card title={t('key.title')}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={{ margin: 0, color: c.muted }}>{t('key.description')}</p>
        <code css={{ display: 'block', padding: '10px 12px', borderRadius: theme.radii.md, background: c.surfaceRaised, overflowWrap: 'anywhere', fontSize: theme.font.size.sm }}>
          {key ?? '•'.repeat(36)}
        </code>
        <div css={{ display: 'flex', flexWrap: 'wrap', gap: 8 }}>
          {key === null ? (
            <Button variant="secondary" icon="eye" onClick={() => void reveal()} loading={busy}>
              {t('key.reveal')}
            </Button>
          ) : (
            <>
              <Button variant="secondary" icon="eye-off" onClick={() => setKey(null)}>
                {t('key.hide')}
              </Button>
              <CopyButton text={key} label={t('key.copy')} size="md" />
            </>
          )}
          <Button variant="danger" icon="lock" onClick={() => void rotate()}>
            {t('key.rotate')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function ShareXCard() {
  const { t } = useTranslation('image-hosting');
  return (
    <Card title={t('sharex.title')}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={{ margin: 0, color: c.muted }}>{t('sharex.description')}</p>
        <div>
          <Button to={imagesUrl.sharex} reloadDocument icon="archive">
            {t('sharex.download')}
          </Button>
        </div>
      </div>
    </Card>
  );
}

function EmbedCard({ saved, onSaved }: { saved: EmbedSettings; onSaved(next: EmbedSettings): void }) {
  const { t } = useTranslation('image-hosting');
  const [draft, setDraft] = useState(saved);
  useEffect(() => setDraft(saved), [saved]);
  const colorProblem = COLOR.test(draft.color) ? null : t('embed.colorInvalid');
  const save = async () => {
    if (colorProblem) return;
    onSaved(await http.put<EmbedSettings>(imagesUrl.embed, draft));
    void dialogs.toast(t('embed.saved'));
  };
  return (
    <Card title={t('embed.title')}>
      <Form onSubmit={save} aria-label={t('embed.title')}>
        <div css={{ display: 'grid', gap: 12 }}>
          <p css={{ margin: 0, color: c.muted }}>{t('embed.description')}</p>
          <Checkbox label={t('embed.enabled')} name="enabled" checked={draft.enabled} onChange={(enabled) => setDraft({ ...draft, enabled })} />
          <TextField
            label={t('embed.cardTitle')}
            name="title"
            value={draft.title}
            maxLength={100}
            hint={t('embed.cardTitleHint')}
            onChange={(title) => setDraft({ ...draft, title })}
          />
          <TextArea
            label={t('embed.cardDescription')}
            name="description"
            value={draft.description}
            maxLength={300}
            rows={3}
            onChange={(description) => setDraft({ ...draft, description })}
          />
          <div css={{ display: 'flex', gap: 12, alignItems: 'flex-end', flexWrap: 'wrap' }}>
            <TextField label={t('embed.color')} name="color" value={draft.color} maxLength={7} error={colorProblem} onChange={(color) => setDraft({ ...draft, color })} />
            <span
              aria-hidden="true"
              css={{
                width: 36,
                height: 36,
                marginBottom: 2,
                borderRadius: theme.radii.md,
                border: `1px solid ${c.border}`,
                background: colorProblem ? 'transparent' : draft.color,
              }}
            />
          </div>
          <div>
            <Button type="submit" disabled={colorProblem !== null}>
              {t('embed.save')}
            </Button>
          </div>
        </div>
      </Form>
    </Card>
  );
}

export default function ImageConfigPage() {
  const { t } = useTranslation('image-hosting');
  const embed = useApi<EmbedSettings>(imagesUrl.embed);
  const [saved, setSaved] = useState<EmbedSettings | null>(null);
  return (
    <Page
      title={t('titles.config')}
      description={t('config.description')}
      actions={
        <Button to="/images" variant="secondary" icon="image">
          {t('config.back')}
        </Button>
      }
    >
      <div css={{ display: 'grid', gap: 16 }}>
        <KeyCard />
        <ShareXCard />
        <ResourceState data={embed.data} loading={embed.loading} error={embed.error} reload={embed.reload}>
          {(loaded) => <EmbedCard saved={saved ?? loaded} onSaved={setSaved} />}
        </ResourceState>
      </div>
    </Page>
  );
}
