// /earn/links: the link providers on offer, each with its coins per link, today's count against the
// daily limit and the cooldown left (counting down while the page is open). "Start" is a plain
// navigation to the server, which sends the browser on to the provider's short link; the provider
// sends it back to the callback, which pays and returns here with the outcome in the address
// (?l4r=paid&coins=… or ?l4r_error=<code>), shown above the list until dismissed.
import { Alert, ApiError, Badge, Button, Card, EmptyState, Grid, LoadError, Page, Skeleton, Slot, theme, useApi, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { isLinkProviderId, LINK_PROVIDER_NAMES } from '../shared/providers';
import { LINKS_API, startPath, type LinksAnswer, type ProviderView } from './api';

/** Seconds since `data` last changed, ticking once a second (the cooldowns count down on screen). */
function useSecondsSince(data: unknown): number {
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    setElapsed(0);
    const timer = setInterval(() => setElapsed((s) => s + 1), 1000);
    return () => clearInterval(timer);
  }, [data]);
  return elapsed;
}

function useDuration(): (seconds: number) => string {
  const { t } = useTranslation('earn-links');
  return useCallback(
    (seconds: number) => {
      if (seconds >= 3600) return t('duration.hours', { hours: Math.floor(seconds / 3600), minutes: Math.floor((seconds % 3600) / 60) });
      if (seconds >= 60) return t('duration.minutes', { minutes: Math.ceil(seconds / 60) });
      return t('duration.seconds', { seconds: Math.max(0, seconds) });
    },
    [t],
  );
}

/** The outcome the callback (or a refused start) put in the address, until the user dismisses it. */
function Outcome() {
  const { t } = useTranslation('earn-links');
  const errorText = useErrorText();
  const [params, setParams] = useSearchParams();
  const provider = params.get('provider');
  const name = provider && isLinkProviderId(provider) ? LINK_PROVIDER_NAMES[provider] : null;
  const dismiss = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of ['l4r', 'l4r_error', 'provider', 'coins']) next.delete(key);
        return next;
      },
      { replace: true },
    );
  if (params.get('l4r') === 'paid') {
    const coins = Number(params.get('coins'));
    return (
      <Alert tone="success" title={t('outcome.paidTitle')} onClose={dismiss}>
        {t('outcome.paid', { coins: Number.isFinite(coins) ? coins : 0, provider: name ?? '' })}
      </Alert>
    );
  }
  const code = params.get('l4r_error');
  if (!code) return null;
  return (
    <Alert tone="error" title={t('outcome.failedTitle')} onClose={dismiss}>
      {errorText(new ApiError(400, code, t('outcome.failed')))}
    </Alert>
  );
}

function ProviderCard({ provider, elapsed, nextDayIn }: { provider: ProviderView; elapsed: number; nextDayIn: number }) {
  const { t } = useTranslation('earn-links');
  const duration = useDuration();
  const cooldownLeft = Math.max(0, provider.cooldown_left_seconds - elapsed);
  const limitReached = provider.today >= provider.daily_limit;
  const available = !limitReached && cooldownLeft === 0;
  return (
    <Card title={provider.name} actions={available ? <Badge tone="success">{t('provider.ready')}</Badge> : <Badge tone="warning">{t('provider.waiting')}</Badge>}>
      <div css={{ display: 'grid', gap: 12 }}>
        <p css={{ margin: 0, fontSize: theme.font.size.xl, fontWeight: theme.font.weight.bold }}>{t('provider.coins', { coins: provider.coins })}</p>
        <dl css={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '6px 12px', dt: { color: theme.colors.muted } }}>
          <dt>{t('provider.today')}</dt>
          <dd css={{ margin: 0 }}>{t('provider.todayValue', { today: provider.today, limit: provider.daily_limit })}</dd>
          <dt>{t('provider.cooldown')}</dt>
          <dd css={{ margin: 0 }}>{cooldownLeft > 0 ? t('provider.cooldownLeft', { time: duration(cooldownLeft) }) : t('provider.noCooldown')}</dd>
          <dt>{t('provider.minTime')}</dt>
          <dd css={{ margin: 0 }}>{duration(provider.min_time_seconds)}</dd>
        </dl>
        {limitReached && <p css={{ margin: 0 }}>{t('provider.limitReached', { time: duration(Math.max(0, nextDayIn - elapsed)) })}</p>}
        <div>
          <Button to={startPath(provider.id)} reloadDocument icon="external" disabled={!available}>
            {t('provider.start', { provider: provider.name })}
          </Button>
        </div>
      </div>
    </Card>
  );
}

export default function LinksPage() {
  const { t } = useTranslation('earn-links');
  const { data, error, reload } = useApi<LinksAnswer>(LINKS_API);
  const elapsed = useSecondsSince(data);

  return (
    <Page title={t('title')} description={t('description')}>
      <Outcome />
      {error && !data ? (
        <LoadError error={error} onRetry={reload} title={t('loadFailed')} />
      ) : !data ? (
        <Skeleton height={180} label={t('loading')} />
      ) : data.providers.length === 0 ? (
        <Card>
          <EmptyState icon="link" title={t('empty.title')} text={t('empty.text')} />
        </Card>
      ) : (
        <>
          <p css={{ margin: 0 }}>{t('howItWorks')}</p>
          <Grid min={280}>
            {data.providers.map((p) => (
              <ProviderCard key={p.id} provider={p} elapsed={elapsed} nextDayIn={data.next_day_in_seconds} />
            ))}
          </Grid>
        </>
      )}
      <Slot name="earn.ads" loading={false} />
    </Page>
  );
}
