// Active sessions: every signed-in device (browser and system from its User-Agent, IP, last seen),
// the one in use marked; any other can be ended, or all others at once.
import { Badge, Button, Card, confirmAction, DataTable, http, theme, useApi, useTranslation, type DataColumn } from '@orepanel/sdk';
import { useState } from 'react';
import { describeDevice, formatDateTime } from './format';

export const SESSIONS_API = '/api/user/session/sessions';

export interface SessionRow {
  id: string;
  created_at: string;
  last_seen_at: string;
  ip: string | null;
  user_agent: string | null;
  current: boolean;
}

export function SessionsSection() {
  const { t, i18n } = useTranslation('account');
  const { data, error, loading, reload } = useApi<{ data: SessionRow[] }>(SESSIONS_API);
  const [busy, setBusy] = useState(false);
  const rows = data?.data;
  const others = rows?.filter((row) => !row.current) ?? [];

  const device = (row: SessionRow) => {
    const { browser, os } = describeDevice(row.user_agent);
    if (browser && os) return t('sessions.browserOn', { browser, os });
    return browser ?? os ?? t('sessions.unknownDevice');
  };

  const revoke = async (row: SessionRow) => {
    setBusy(true);
    const result = await confirmAction({
      title: t('sessions.revokeTitle'),
      text: t('sessions.revokeText', { device: device(row) }),
      confirmText: t('sessions.revoke'),
      cancelText: t('common.cancel'),
      danger: true,
      action: () => http.delete(`${SESSIONS_API}/${encodeURIComponent(row.id)}`),
      successText: t('sessions.revoked'),
    });
    setBusy(false);
    if (result.status !== 'cancelled') reload();
  };

  const revokeOthers = async () => {
    setBusy(true);
    const result = await confirmAction({
      title: t('sessions.revokeOthersTitle'),
      text: t('sessions.revokeOthersText', { count: others.length }),
      confirmText: t('sessions.revokeOthers'),
      cancelText: t('common.cancel'),
      danger: true,
      // one by one: a session that ended meanwhile (404) must not stop the rest
      action: async () => {
        const outcomes = await Promise.allSettled(others.map((row) => http.delete(`${SESSIONS_API}/${encodeURIComponent(row.id)}`)));
        const failure = outcomes.find(
          (o): o is PromiseRejectedResult => o.status === 'rejected' && !(typeof o.reason === 'object' && o.reason !== null && 'status' in o.reason && o.reason.status === 404),
        );
        if (failure) throw failure.reason;
      },
      successText: t('sessions.othersRevoked'),
    });
    setBusy(false);
    if (result.status !== 'cancelled') reload();
  };

  const columns: DataColumn<SessionRow>[] = [
    {
      id: 'device',
      header: t('sessions.device'),
      primary: true,
      cell: (row) => (
        <span css={{ display: 'inline-flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
          <span css={{ fontWeight: theme.font.weight.medium }} title={row.user_agent ?? undefined}>
            {device(row)}
          </span>
          {row.current && <Badge tone="success">{t('sessions.thisDevice')}</Badge>}
        </span>
      ),
    },
    { id: 'ip', header: t('sessions.ip'), cell: (row) => <span css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{row.ip ?? t('sessions.unknownIp')}</span> },
    { id: 'seen', header: t('sessions.lastSeen'), cell: (row) => formatDateTime(row.last_seen_at, i18n.language) },
    {
      id: 'actions',
      header: t('sessions.actions'),
      align: 'end',
      cell: (row) =>
        row.current ? null : (
          <Button size="sm" variant="ghost" disabled={busy} onClick={() => void revoke(row)} aria-label={t('sessions.revokeOne', { device: device(row) })}>
            {t('sessions.revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Card
      flush
      title={t('sessions.title')}
      actions={
        others.length > 0 ? (
          <Button size="sm" variant="danger" disabled={busy} onClick={() => void revokeOthers()}>
            {t('sessions.revokeOthers')}
          </Button>
        ) : null
      }
    >
      <DataTable
        caption={t('sessions.title')}
        columns={columns}
        rows={rows}
        rowKey={(row) => row.id}
        loading={loading}
        error={error}
        onRetry={reload}
        skeletonRows={2}
        empty={{ icon: 'lock', title: t('sessions.emptyTitle'), text: t('sessions.emptyText') }}
      />
    </Card>
  );
}
