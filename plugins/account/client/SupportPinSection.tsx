// Support PIN: six digits the user tells staff so they can be identified in a ticket. Shown here,
// and regenerated on request (the old one stops working).
import { Alert, Button, Card, http, LoadError, Skeleton, theme, useApi, useErrorText, useTranslation } from '@orepanel/sdk';
import { useState } from 'react';

export const PIN_API = '/api/user/session/pin';
export const NEW_PIN_API = '/api/user/session/newPin';

export function SupportPinSection() {
  const { t } = useTranslation('account');
  const errorText = useErrorText();
  const { data, error, loading, reload } = useApi<{ pin: string | null }>(PIN_API);
  const [fresh, setFresh] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const pin = fresh ?? data?.pin ?? null;

  const regenerate = async () => {
    setBusy(true);
    setFailure(null);
    try {
      const answer = await http.post<{ success: boolean; pin: string }>(NEW_PIN_API);
      setFresh(answer.pin);
    } catch (err) {
      setFailure(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title={t('pin.title')}>
      <div css={{ display: 'grid', gap: 14, justifyItems: 'start' }}>
        <p css={{ margin: 0, color: theme.colors.muted }}>{t('pin.text')}</p>
        {error && !data ? (
          <LoadError error={error} onRetry={reload} />
        ) : loading && !data ? (
          <Skeleton width={160} height={40} label={t('pin.loading')} />
        ) : pin ? (
          <output
            aria-label={t('pin.label')}
            css={{ fontFamily: theme.font.mono, fontSize: 32, fontWeight: theme.font.weight.bold, letterSpacing: '0.2em', color: theme.colors.text }}
          >
            {pin}
          </output>
        ) : (
          <span css={{ color: theme.colors.muted }}>{t('pin.none')}</span>
        )}
        {failure && (
          <Alert tone="error" onClose={() => setFailure(null)}>
            {failure}
          </Alert>
        )}
        <Button variant="secondary" loading={busy} disabled={loading && !data} onClick={() => void regenerate()}>
          {pin ? t('pin.regenerate') : t('pin.create')}
        </Button>
      </div>
    </Card>
  );
}
