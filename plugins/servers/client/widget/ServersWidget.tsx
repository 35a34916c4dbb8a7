// The dashboard's servers widget (slot dashboard.widgets): the user's queue entries (pending,
// building, failed with the panel's reason) and servers (status, resources, expiry with the days
// left, the panel link, update/renew/delete). While an entry waits or builds the list is fetched
// again every POLL_MS, so a finished server appears without a reload; the session is refreshed
// then too, so the dashboard's resource figures agree.
import { Button, Card, EmptyState, isSettingEnabled, LoadError, Skeleton, theme, useApi, useSession, useSetting, useTranslation } from '@orepanel/sdk';
import { useEffect, useRef } from 'react';
import type { MyServersResponse } from '../../shared/api';
import { api, paths } from '../paths';
import { QueueEntryRow } from './QueueEntryRow';
import { ServerRow } from './ServerRow';

/** how often the list is fetched again while an entry is pending or building */
export const POLL_MS = 5000;

const inProgress = (data: MyServersResponse | undefined) => (data?.queue ?? []).filter((e) => e.status === 'pending' || e.status === 'building').length;

export default function ServersWidget() {
  const { t } = useTranslation('servers');
  const { refresh } = useSession();
  const createOn = isSettingEnabled(useSetting('allow_servers'));
  const { data, loading, error, reload } = useApi<MyServersResponse>(api.myServers);
  const waiting = inProgress(data);
  const loadingRef = useRef(loading);
  loadingRef.current = loading;

  useEffect(() => {
    if (waiting === 0) return;
    const timer = setInterval(() => {
      if (!loadingRef.current) reload();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting, reload]);

  // an entry finished (built or failed): the session's server count and free resources moved
  const previous = useRef(waiting);
  useEffect(() => {
    if (waiting < previous.current) void refresh();
    previous.current = waiting;
  }, [waiting, refresh]);

  const create = createOn ? (
    <Button size="sm" icon="server" to={paths.create}>
      {t('widget.create')}
    </Button>
  ) : undefined;

  const empty = data && data.servers.length === 0 && data.queue.length === 0;

  return (
    <Card title={t('widget.title')} actions={data && !empty ? create : undefined} flush css={{ gridColumn: '1 / -1' }}>
      {!data ? (
        error && !loading ? (
          <div css={{ padding: 16 }}>
            <LoadError error={error} onRetry={reload} title={t('widget.loadFailed')} />
          </div>
        ) : (
          <div css={{ padding: 16 }}>
            <Skeleton lines={3} height={44} label={t('widget.loading')} />
          </div>
        )
      ) : empty ? (
        <EmptyState icon="server" title={t('widget.emptyTitle')} text={createOn ? t('widget.emptyText') : t('widget.emptyTextOff')} action={create} />
      ) : (
        <ul aria-label={t('widget.title')} css={{ margin: 0, padding: 0, listStyle: 'none', '& > li + li': { borderTop: `1px solid ${theme.colors.border}` } }}>
          {data.queue.map((entry) => (
            <QueueEntryRow key={`q${entry.id}`} entry={entry} onChanged={reload} />
          ))}
          {data.servers.map((server) => (
            <ServerRow key={`s${server.id}`} server={server} />
          ))}
        </ul>
      )}
    </Card>
  );
}
