// The preview of a template as the server renders it with sample placeholder values. The HTML is a
// mail written by an administrator (or a plugin): it is shown only inside a sandboxed iframe with no
// permissions at all (no scripts, no same origin, no forms), never injected into the panel's page.
import { Alert, Badge, Button, Card, http, theme, useTranslation, type ApiError } from '@orepanel/sdk';
import { useCallback, useEffect, useState } from 'react';
import { mailUrl, type MailPreview as Preview } from './mail-templates-api';

export interface MailPreviewProps {
  templateId: number;
  /** the form's current parts: unsaved edits are previewed too */
  parts: { subject: string; html: string; text: string };
}

export function MailPreview({ templateId, parts }: MailPreviewProps) {
  const { t } = useTranslation('mail-templates');
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [loading, setLoading] = useState(false);

  const render = useCallback(
    /** null: the stored template */
    async (wanted: MailPreviewProps['parts'] | null) => {
      setLoading(true);
      try {
        // an empty part is not valid for the server: it previews the stored one instead
        const body: Partial<MailPreviewProps['parts']> = {};
        if (wanted) {
          body.text = wanted.text;
          if (wanted.subject.trim() !== '') body.subject = wanted.subject;
          if (wanted.html.trim() !== '') body.html = wanted.html;
        }
        setPreview(await http.post<Preview>(mailUrl.mailTemplatePreview(templateId), body));
        setError(null);
      } catch (caught) {
        setError(caught as ApiError);
      } finally {
        setLoading(false);
      }
    },
    [templateId],
  );

  // the first preview shows the stored template; the form's edits are previewed when asked
  useEffect(() => {
    void render(null);
  }, [render]);

  return (
    <Card
      title={t('mailTemplates.preview.title')}
      actions={
        <Button size="sm" variant="secondary" loading={loading} onClick={() => void render(parts)}>
          {t('mailTemplates.preview.refresh')}
        </Button>
      }
    >
      <div css={{ display: 'grid', gap: 12 }}>
        {error && <Alert tone="error">{error.message}</Alert>}
        {preview && (
          <>
            <div>
              <span css={{ color: theme.colors.muted }}>{t('mailTemplates.preview.subject')}: </span>
              <strong>{preview.subject}</strong>
            </div>
            <iframe
              title={t('mailTemplates.preview.frame')}
              sandbox=""
              srcDoc={preview.html}
              referrerPolicy="no-referrer"
              css={{ width: '100%', minHeight: 360, border: `1px solid ${theme.colors.border}`, borderRadius: theme.radii.md, background: '#fff' }}
            />
            {preview.text !== '' && (
              <details>
                <summary css={{ cursor: 'pointer' }}>{t('mailTemplates.preview.text')}</summary>
                <pre css={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: theme.font.mono, fontSize: theme.font.size.sm, margin: '8px 0 0' }}>{preview.text}</pre>
              </details>
            )}
            <div>
              <div css={{ color: theme.colors.muted, marginBottom: 6 }}>{t('mailTemplates.preview.values')}</div>
              <dl css={{ display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '4px 12px', margin: 0, fontSize: theme.font.size.sm }}>
                {Object.entries(preview.placeholders).map(([name, value]) => (
                  <div key={name} css={{ display: 'contents' }}>
                    <dt>
                      <Badge tone="neutral">{`\${${name}}`}</Badge>
                    </dt>
                    <dd css={{ margin: 0, overflowWrap: 'anywhere' }}>{value}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </>
        )}
      </div>
    </Card>
  );
}
