// Mail: the kinds of mail the enabled plugins declare (announcements…) as checkboxes. The list and
// the labels come from the server (GET /api/user/mail-preferences), so a plugin adds a choice here
// without this page knowing it; each change is saved at once.
import { Alert, Card, Checkbox, http, LoadError, Skeleton, theme, useApi, useErrorText, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';

export const MAIL_PREFERENCES_API = '/api/user/mail-preferences';

export interface MailPreference {
  plugin: string;
  key: string;
  label: Readonly<Record<string, string>>;
  accepts: boolean;
}

/** The label in the page's language, else English (the manifest requires it). */
function labelIn(label: Readonly<Record<string, string>>, language: string): string {
  return label[language.split('-')[0]] ?? label.en ?? '';
}

export function MailSection() {
  const { t, i18n } = useTranslation('account');
  const errorText = useErrorText();
  const { data, error, loading, reload } = useApi<{ preferences: MailPreference[] }>(MAIL_PREFERENCES_API);
  const [saved, setSaved] = useState<MailPreference[] | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const preferences = saved ?? data?.preferences ?? null;

  const change = async (preference: MailPreference, accepts: boolean) => {
    const name = `${preference.plugin}.${preference.key}`;
    setBusy(name);
    setFailure(null);
    try {
      const answer = await http.put<{ preferences: MailPreference[] }>(MAIL_PREFERENCES_API, {
        preferences: [{ plugin: preference.plugin, key: preference.key, accepts }],
      });
      setSaved(answer.preferences);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <Card title={t('mail.title')}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('mail.text')}</p>
        {error && !preferences ? (
          <LoadError error={error} onRetry={reload} />
        ) : loading && !preferences ? (
          <Skeleton width={220} height={24} label={t('mail.loading')} />
        ) : preferences && preferences.length > 0 ? (
          preferences.map((p) => {
            const name = `${p.plugin}.${p.key}`;
            return (
              <Checkbox
                key={name}
                name={name}
                label={labelIn(p.label, i18n.language)}
                checked={p.accepts}
                disabled={busy !== null}
                onChange={(accepts) => void change(p, accepts)}
              />
            );
          })
        ) : (
          <span css={{ color: theme.colors.muted }}>{t('mail.none')}</span>
        )}
        {failure && (
          <Alert tone="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
      </div>
    </Card>
  );
}
