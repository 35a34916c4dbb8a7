// /ws (spec §2: "lost connection"): where a live page (the AFK page) sends the user after its
// reconnect attempts ran out. It keeps asking the panel, with growing pauses, and goes back to the
// page it came from (?from=, a path of this panel only) as soon as the panel answers again.
import { Alert, Button, Card, http, Link, Page, theme, useNavigate, useSearchParams, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import { backoffDelay } from './use-afk-socket';

/** Any public route answers; this one is small and needs no session. */
export const PROBE_PATH = '/api/system/settings';

/** Only a path of this panel: never another site (an open redirect). */
export function safeReturnPath(from: string | null): string {
  return from && from.startsWith('/') && !from.startsWith('//') && !from.startsWith('/\\') ? from : '/dashboard';
}

export default function ConnectionLostPage() {
  const { t } = useTranslation('earn-afk');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const back = safeReturnPath(params.get('from'));
  const [attempt, setAttempt] = useState(0);
  const [checking, setChecking] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const probe = useCallback(async () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    setChecking(true);
    try {
      await http.get(PROBE_PATH);
      navigate(back, { replace: true });
    } catch {
      setChecking(false);
      setAttempt((n) => n + 1);
    }
  }, [back, navigate]);

  useEffect(() => {
    if (checking) return;
    timer.current = setTimeout(() => void probe(), backoffDelay(attempt + 1));
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [attempt, checking, probe]);

  return (
    <Page title={t('lost.title')}>
      <Card>
        <div css={{ display: 'grid', gap: 14, justifyItems: 'start' }}>
          <Alert tone="warning">{t('lost.text')}</Alert>
          <p css={{ margin: 0, color: theme.colors.muted }} role="status">
            {checking ? t('lost.checking') : t('lost.waiting', { value: attempt })}
          </p>
          <div css={{ display: 'flex', gap: 10, flexWrap: 'wrap' }}>
            <Button loading={checking} onClick={() => void probe()}>
              {t('actions.reconnect')}
            </Button>
            <Link to={back} css={{ alignSelf: 'center', color: theme.colors.primaryHover }}>
              {t('lost.back')}
            </Link>
          </div>
        </div>
      </Card>
    </Page>
  );
}
