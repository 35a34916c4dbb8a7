// /earn/afk: keep the page open and visible and the server pays every full minute it observed. The
// page shows this visit's earning time and coins, the rate, the daily cap and what is left today, and
// says plainly why it is not earning when it is not: another tab holds the paying session, the page
// is hidden, the connection dropped (reconnecting with backoff), or today's cap is reached.
import { Alert, Button, Card, Grid, Page, Slot, Spinner, StatCard, theme, useSession, useTranslation } from '@orepanel/sdk';
import { useEffect, useState } from 'react';
import type { AfkStateMessage } from '../shared/protocol';
import { formatClock, formatDuration, formatUtcTime } from './format';
import { useAfkSocket, type UseAfkSocket } from './use-afk-socket';

export const AFK_PATH = '/earn/afk';

/** Re-renders every second (countdowns, the earning timer). */
function useSecondTicker(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Seconds this page spent in the earning state, counted locally while the server says "earning". */
function useEarningSeconds(earning: boolean, now: number): number {
  const [total, setTotal] = useState({ seconds: 0, since: null as number | null });
  useEffect(() => {
    setTotal((t) => {
      if (earning && t.since === null) return { ...t, since: now };
      if (!earning && t.since !== null) return { seconds: t.seconds + (now - t.since) / 1000, since: null };
      return t;
    });
  }, [earning, now]);
  return Math.floor(total.seconds + (total.since !== null ? (now - total.since) / 1000 : 0));
}

function StatusNotice({ afk, now }: { afk: UseAfkSocket; now: number }) {
  const { t } = useTranslation('earn-afk');
  const server: AfkStateMessage | null = afk.server;
  if (afk.phase === 'ended') {
    if (afk.endReason === 'disabled')
      return (
        <Alert tone="warning" title={t('state.disabledTitle')}>
          {t('state.disabled')}
        </Alert>
      );
    if (afk.endReason === 'session')
      return (
        <Alert tone="error" title={t('state.sessionTitle')}>
          {t('state.session')}
        </Alert>
      );
    return (
      <Alert tone="error" title={t('state.failedTitle')}>
        <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
          <span>{t('state.failed')}</span>
          <Button size="sm" variant="secondary" onClick={afk.reconnectNow}>
            {t('actions.reconnect')}
          </Button>
        </div>
      </Alert>
    );
  }
  if (afk.phase === 'retrying') {
    // the kernel's banner counts down and offers "Reconnect now"; this says what it costs here
    return (
      <Alert tone="warning" title={t('state.droppedTitle')}>
        {t('state.dropped')}
      </Alert>
    );
  }
  if (afk.phase === 'connecting' || !server) {
    return (
      <Alert tone="info">
        <span css={{ display: 'inline-flex', gap: 8, alignItems: 'center' }}>
          <Spinner size={14} /> {t('state.connecting')}
        </span>
      </Alert>
    );
  }
  switch (server.status) {
    case 'earning': {
      // the ticker's `now` may be up to a second older than the message just received: never count
      // from before the moment the state arrived (server time moved to this clock)
      const current = Math.max(now, server.serverTime + afk.clockSkewMs);
      const next = server.nextPayoutAt === null ? null : Math.max(0, Math.ceil((server.nextPayoutAt + afk.clockSkewMs - current) / 1000));
      return (
        <Alert tone="success" title={t('state.earningTitle')}>
          {next === null ? t('state.earning') : t('state.earningNext', { time: formatClock(next), value: server.rate })}
        </Alert>
      );
    }
    case 'standby':
      return (
        <Alert tone="warning" title={t('state.standbyTitle')}>
          <div css={{ display: 'grid', gap: 10, justifyItems: 'start' }}>
            <span>{t('state.standby')}</span>
            <Button size="sm" onClick={afk.takeover}>
              {t('actions.takeover')}
            </Button>
          </div>
        </Alert>
      );
    case 'capped':
      return (
        <Alert tone="info" title={t('state.cappedTitle')}>
          {t('state.capped', { cap: server.dailyCap, time: formatUtcTime(server.resetsAt) })}
        </Alert>
      );
    case 'paused':
      return (
        <Alert tone="info" title={t('state.pausedTitle')}>
          {t('state.paused')}
        </Alert>
      );
  }
}

export default function AfkPage() {
  const { t } = useTranslation('earn-afk');
  const { refresh } = useSession();
  const afk = useAfkSocket({
    // the kernel sends a signed-out browser to the login page
    onSessionEnded: () => void refresh(),
  });
  const now = useSecondTicker();
  const server = afk.server;
  const earningSeconds = useEarningSeconds(server?.status === 'earning', now);
  const cap = server?.dailyCap ?? null;
  const earnedToday = server?.earnedToday ?? null;
  const share = cap && earnedToday !== null ? Math.min(100, Math.round((earnedToday / cap) * 100)) : 0;

  return (
    <Page title={t('title')} description={t('description')}>
      <div css={{ display: 'grid', gap: 20 }}>
        <StatusNotice afk={afk} now={now} />
        <Grid min={200}>
          <StatCard icon="clock" label={t('stats.time')} value={formatDuration(earningSeconds)} hint={t('stats.timeHint')} />
          <StatCard icon="coins" label={t('stats.coins')} value={afk.pageCoins} hint={t('stats.minutes', { value: afk.pageMinutes })} />
          <StatCard icon="earn" label={t('stats.rate')} value={server ? t('stats.rateValue', { value: server.rate }) : '–'} />
          <StatCard icon="chart" label={t('stats.left')} value={server ? server.remainingToday : '–'} hint={server ? t('stats.cap', { cap: server.dailyCap }) : undefined} />
        </Grid>
        <Card title={t('today.title')}>
          <div css={{ display: 'grid', gap: 10 }}>
            <div
              role="meter"
              aria-label={t('today.meter')}
              aria-valuemin={0}
              aria-valuemax={cap ?? 0}
              aria-valuenow={earnedToday ?? 0}
              css={{ height: 10, borderRadius: 999, background: theme.colors.border, overflow: 'hidden' }}
            >
              <div css={{ width: `${share}%`, height: '100%', background: theme.colors.primary, transition: 'width 300ms ease' }} />
            </div>
            <span css={{ color: theme.colors.muted }}>{server ? t('today.text', { earned: server.earnedToday, cap: server.dailyCap }) : t('today.unknown')}</span>
            <p css={{ margin: 0, color: theme.colors.muted, fontSize: 14 }}>{t('rules')}</p>
          </div>
        </Card>
        <Slot name="earn.ads" loading={false} />
      </div>
    </Page>
  );
}
