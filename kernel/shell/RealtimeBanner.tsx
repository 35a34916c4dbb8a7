// The non-blocking "reconnecting" banner (issue 14): while a realtime connection of the page on screen
// waits to try again (sdk/client/realtime.ts), a bar at the top of the page says so, counts down to the
// next attempt and offers to try now. The page stays usable; when the attempts run out and the panel
// does not answer either, the connection itself leads to /ws.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REALTIME_RETRY, realtimeStore, type RealtimeEntry } from '../../sdk/client/realtime';
import { Button } from '../../sdk/client/ui/Button';
import { Icon } from '../../sdk/client/ui/icons';
import { theme } from '../../sdk/client/ui/theme';

const c = theme.colors;

/** The connection to speak of: the one waiting longest to try again (several are rare). */
export function reconnectingConnection(connections: Readonly<Record<string, RealtimeEntry>>): RealtimeEntry | null {
  let shown: RealtimeEntry | null = null;
  for (const entry of Object.values(connections)) {
    if (entry.phase !== 'reconnecting') continue;
    if (!shown || (entry.retryAt ?? 0) > (shown.retryAt ?? 0)) shown = entry;
  }
  return shown;
}

export function RealtimeBanner() {
  const { t } = useTranslation('kernel');
  const entry = realtimeStore((s) => reconnectingConnection(s.connections));
  const [now, setNow] = useState(() => Date.now());
  const waiting = entry !== null;
  useEffect(() => {
    if (!waiting) return;
    setNow(Date.now());
    const ticker = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(ticker);
  }, [waiting]);
  if (!entry) return null;
  const seconds = Math.max(0, Math.ceil(((entry.retryAt ?? now) - now) / 1000));
  return (
    <div
      role="status"
      aria-live="polite"
      data-realtime-banner=""
      css={{
        position: 'sticky',
        top: 8,
        zIndex: 30,
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        gap: 10,
        marginBottom: 16,
        padding: '10px 14px',
        border: `1px solid ${c.warning}`,
        borderRadius: theme.radii.md,
        background: c.surface,
        boxShadow: theme.shadows.md,
        color: c.text,
      }}
    >
      <span aria-hidden css={{ color: c.warning, display: 'inline-flex' }}>
        <Icon name="plug" size={18} />
      </span>
      <span css={{ flex: '1 1 220px', minWidth: 0 }}>
        <strong>{t('realtime.title')}</strong> {t('realtime.retrying', { seconds, attempt: entry.attempt, max: REALTIME_RETRY.maxAttempts })}
      </span>
      <Button size="sm" variant="secondary" onClick={entry.reconnectNow}>
        {t('realtime.reconnect')}
      </Button>
    </div>
  );
}
