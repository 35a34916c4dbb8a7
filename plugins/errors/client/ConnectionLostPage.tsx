// /ws (spec §2: "lost connection"): where a page's realtime connection sends the user when its
// attempts ran out and the panel itself did not answer either (the sdk's realtime sockets). It asks the
// panel again with growing pauses, at once when the browser comes back online or on "Reconnect now",
// and goes back to the page it came from (?from=, a path of this panel only) as soon as it answers.
import { Button, Icon, panelAnswers, realtimeRetryDelay, safeReturnPath, theme, useDocumentTitle, useNavigate, useSearchParams, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';

export default function ConnectionLostPage() {
  const { t } = useTranslation('errors');
  useDocumentTitle(t('lost.title'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const back = safeReturnPath(params.get('from'));
  const [attempt, setAttempt] = useState(0);
  const [checking, setChecking] = useState(false);
  const [nextAt, setNextAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const left = useRef(false);

  const probe = useCallback(async () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    setNextAt(null);
    setChecking(true);
    const answers = await panelAnswers();
    if (left.current) return;
    if (answers) {
      navigate(back, { replace: true });
      return;
    }
    setChecking(false);
    setAttempt((n) => n + 1);
  }, [back, navigate]);

  // the next automatic try, after a pause that grows with every failed one
  useEffect(() => {
    if (checking) return;
    const delay = realtimeRetryDelay(attempt + 1);
    setNextAt(Date.now() + delay);
    timer.current = setTimeout(() => void probe(), delay);
    return () => {
      if (timer.current !== null) clearTimeout(timer.current);
    };
  }, [attempt, checking, probe]);

  useEffect(() => {
    const onOnline = () => void probe();
    window.addEventListener('online', onOnline);
    const ticker = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      left.current = true;
      window.removeEventListener('online', onOnline);
      clearInterval(ticker);
    };
  }, [probe]);

  const seconds = nextAt === null ? null : Math.max(0, Math.ceil((nextAt - now) / 1000));
  return (
    <main
      data-lost-connection=""
      css={{ minHeight: ['100vh', '100dvh'], display: 'grid', placeItems: 'center', padding: '32px 16px', background: theme.colors.background, textAlign: 'center' }}
    >
      <div css={{ maxWidth: 520, display: 'grid', gap: 14, justifyItems: 'center' }}>
        <span
          aria-hidden
          css={{
            display: 'grid',
            placeItems: 'center',
            width: 72,
            height: 72,
            borderRadius: 999,
            color: theme.colors.warning,
            background: theme.colors.warningSoft,
            '@media (prefers-reduced-motion: no-preference)': { animation: 'op-lost-pulse 2s ease-in-out infinite' },
            '@keyframes op-lost-pulse': { '0%, 100%': { opacity: 1 }, '50%': { opacity: 0.55 } },
          }}
        >
          <Icon name="plug" size={32} />
        </span>
        <h1 css={{ margin: 0, fontSize: theme.font.size.xxl, color: theme.colors.text }}>{t('lost.title')}</h1>
        <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.lg, lineHeight: 1.6 }}>{t('lost.text')}</p>
        <p role="status" aria-live="polite" css={{ margin: 0, color: theme.colors.muted }}>
          {checking ? t('lost.checking') : seconds === null ? t('lost.waiting', { value: attempt }) : t('lost.next', { seconds, value: attempt })}
        </p>
        <div css={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'center', gap: 10, marginTop: 8 }}>
          <Button loading={checking} onClick={() => void probe()}>
            {t('lost.retry')}
          </Button>
          <Button variant="secondary" to={back}>
            {t('lost.back')}
          </Button>
        </div>
      </div>
    </main>
  );
}
