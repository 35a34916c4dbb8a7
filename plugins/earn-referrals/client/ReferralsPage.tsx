// /earn/referrals: the user's referral code and link (with a copy button), what each side earns, what
// the user has earned so far, and the accounts they referred — a page at a time, usernames and dates
// only. A referral waiting for the new account's e-mail verification shows as pending.
import { Badge, Card, CopyButton, DataTable, Grid, LoadError, Page, Pagination, Skeleton, Slot, StatCard, TextField, useApi, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useMemo, useState } from 'react';
import { referralLink } from '../shared/referral-code';
import { referralsUrl, type ReferralsAnswer, type ReferredAccount } from './api';

const PER_PAGE = 10;

export default function ReferralsPage() {
  const { t } = useTranslation('earn-referrals');
  const [page, setPage] = useState(1);
  const { data, loading, error, reload } = useApi<ReferralsAnswer>(referralsUrl(page, PER_PAGE));
  const link = data ? referralLink(window.location.origin, data.code) : '';

  const columns = useMemo<DataColumn<ReferredAccount>[]>(
    () => [
      { id: 'username', header: t('list.username'), primary: true, cell: (r) => r.username },
      { id: 'joined', header: t('list.joined'), cell: (r) => t('dateTime', { value: new Date(r.joined_at) }) },
      {
        id: 'status',
        header: t('list.status'),
        cell: (r) => (r.status === 'paid' ? <Badge tone="success">{t('list.paid')}</Badge> : <Badge tone="warning">{t('list.pending')}</Badge>),
      },
      { id: 'coins', header: t('list.coins'), align: 'end', cell: (r) => t('number', { value: r.coins }) },
    ],
    [t],
  );

  if (error && !data) {
    return (
      <Page title={t('title')} description={t('description')}>
        <LoadError error={error} onRetry={reload} title={t('loadFailed')} />
      </Page>
    );
  }

  return (
    <Page title={t('title')} description={t('description')}>
      <Grid min={220}>
        <StatCard icon="coins" label={t('stats.earned')} value={data ? t('coinsValue', { value: data.earned.coins }) : '…'} />
        <StatCard icon="users" label={t('stats.paid')} value={data ? t('number', { value: data.earned.paid }) : '…'} />
        <StatCard
          icon="clock"
          label={t('stats.pending')}
          value={data ? t('number', { value: data.earned.pending }) : '…'}
          hint={data?.rewards.after_verification ? t('stats.pendingHint') : undefined}
        />
      </Grid>
      <Card title={t('share.title')}>
        {data ? (
          <div css={{ display: 'grid', gap: 14 }}>
            <p css={{ margin: 0 }}>{t('share.rewards', { referrer: data.rewards.referrer, redeemer: data.rewards.redeemer })}</p>
            {data.rewards.after_verification && <p css={{ margin: 0 }}>{t('share.afterVerification')}</p>}
            <Grid min={260}>
              <TextField label={t('share.code')} name="referral_code" value={data.code} readOnly spellCheck={false} />
              <TextField label={t('share.link')} name="referral_link" value={link} readOnly spellCheck={false} onFocus={(event) => event.currentTarget.select()} />
            </Grid>
            <div>
              <CopyButton text={link} label={t('share.copy')} />
            </div>
          </div>
        ) : (
          <Skeleton lines={3} label={t('loading')} />
        )}
      </Card>
      <Card title={t('list.title')} flush>
        <DataTable
          caption={t('list.title')}
          columns={columns}
          rows={data?.referred.data}
          rowKey={(r) => `${r.username}:${r.joined_at}`}
          loading={loading}
          error={error}
          onRetry={reload}
          empty={{ icon: 'users', title: t('list.empty'), text: t('list.emptyText') }}
          skeletonRows={3}
        />
        {data && (
          <Pagination
            page={data.referred.meta.page}
            totalPages={data.referred.meta.total_pages}
            total={data.referred.meta.total}
            perPage={PER_PAGE}
            onPageChange={setPage}
            disabled={loading}
          />
        )}
      </Card>
      <Slot name="earn.ads" loading={false} />
    </Page>
  );
}
