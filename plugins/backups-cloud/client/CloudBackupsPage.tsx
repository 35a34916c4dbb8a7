// /mc-admin/cloud-backups (spec §2 "cloud backup integration screen", §6 admin.cloud.view / .download
// / .upload): the bucket the copies go to (root edits it here), the transfer under way with its
// progress, the archives held off-site (download back, delete: root) and the local ones (upload).
import {
  Alert,
  Badge,
  Button,
  Card,
  DataTable,
  EmptyState,
  formatFileSize,
  http,
  Link,
  LoadError,
  Page,
  Skeleton,
  TaskCard,
  TaskNote,
  theme,
  useApi,
  useDateTime,
  useErrorText,
  useHasPermission,
  useTranslation,
  dialogs,
  type ApiError,
  type DataColumn,
} from '@orepanel/sdk';
import { useCallback, useEffect, useState } from 'react';
import { CodedError } from './CodedError';
import { ConnectionCard } from './ConnectionCard';
import { BACKUPS_PATH, CLOUD_PERMISSIONS, cloudUrl, useTransferFollower, type CloudStatus, type LocalArchive, type RemoteArchive, type Transfer } from './cloud-api';

function TransferCard({ transfer, pollError, onDismiss }: { transfer: Transfer; pollError: ApiError | null; onDismiss(): void }) {
  const { t, i18n } = useTranslation('backups-cloud');
  const errorText = useErrorText();
  const dateTime = useDateTime();
  const title = t(`transfer.${transfer.direction}.${transfer.state}`, { name: transfer.name });
  const amounts =
    transfer.total > 0
      ? t('transfer.amounts', {
          done: formatFileSize(transfer.done, i18n.language),
          total: formatFileSize(transfer.total, i18n.language),
          percent: Math.floor((transfer.done / transfer.total) * 100),
        })
      : t('transfer.starting');
  return (
    <TaskCard
      title={title}
      state={transfer.state}
      done={transfer.done}
      total={transfer.total}
      progress={<TaskNote>{amounts}</TaskNote>}
      dismissLabel={t('transfer.dismiss')}
      onDismiss={onDismiss}
    >
      {transfer.state === 'done' && (
        <TaskNote>{t('transfer.finished', { size: formatFileSize(transfer.total, i18n.language), time: dateTime(transfer.finished_at ?? transfer.started_at) })}</TaskNote>
      )}
      {transfer.state === 'failed' && transfer.error && (
        <Alert tone="error">
          <CodedError error={transfer.error} />
        </Alert>
      )}
      {transfer.started_by === null && <TaskNote>{t('transfer.automatic')}</TaskNote>}
      {pollError && <Alert tone="warning">{errorText(pollError)}</Alert>}
    </TaskCard>
  );
}

function KindBadge({ kind }: { kind: string | null }) {
  const { t } = useTranslation('backups-cloud');
  if (!kind) return null;
  return <Badge tone={kind === 'scheduled' ? 'info' : kind === 'before-restore' ? 'warning' : 'neutral'}>{t(`kinds.${kind}`)}</Badge>;
}

interface ListsProps {
  status: CloudStatus;
  busy: boolean;
  onUpload(name: string): void;
  onDownload(name: string): void;
  onDelete(name: string): void;
}

function RemoteList({ status, busy, onDownload, onDelete }: Omit<ListsProps, 'onUpload'>) {
  const { t, i18n } = useTranslation('backups-cloud');
  const dateTime = useDateTime();
  const mayDownload = useHasPermission(CLOUD_PERMISSIONS.download);
  const isRoot = useHasPermission(CLOUD_PERMISSIONS.root);
  const columns: DataColumn<RemoteArchive>[] = [
    {
      id: 'name',
      header: t('lists.name'),
      primary: true,
      cell: (a) => <span css={{ overflowWrap: 'anywhere', fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{a.name}</span>,
    },
    { id: 'time', header: t('lists.time'), cell: (a) => dateTime(a.created_at) },
    { id: 'size', header: t('lists.size'), align: 'end', cell: (a) => formatFileSize(a.size, i18n.language) },
    {
      id: 'where',
      header: t('lists.where'),
      cell: (a) => (
        <span css={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6 }}>
          <KindBadge kind={a.kind} />
          <Badge tone={a.local ? 'success' : 'neutral'}>{a.local ? t('lists.alsoLocal') : t('lists.onlyOffsite')}</Badge>
        </span>
      ),
    },
    {
      id: 'actions',
      header: t('lists.actions'),
      align: 'end',
      cell: (a) => (
        <span css={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, justifyContent: 'flex-end' }}>
          {mayDownload && !a.local && (
            <Button size="sm" variant="secondary" icon="archive" disabled={busy} onClick={() => onDownload(a.name)} aria-label={t('lists.downloadNamed', { name: a.name })}>
              {t('lists.download')}
            </Button>
          )}
          {isRoot && (
            <Button size="sm" variant="ghost" disabled={busy} onClick={() => onDelete(a.name)} aria-label={t('lists.deleteNamed', { name: a.name })}>
              {t('lists.delete')}
            </Button>
          )}
        </span>
      ),
    },
  ];

  let body;
  if (status.remote.state === 'off') {
    // the page's notice above says why and what to do
    body = <EmptyState icon="cloud" title={t('lists.remoteOff')} />;
  } else if (status.remote.state === 'unavailable') {
    body = (
      <Alert tone="error" title={t('lists.unavailable')}>
        {status.remote.error ? <CodedError error={status.remote.error} /> : null}
      </Alert>
    );
  } else {
    body = (
      <DataTable
        caption={t('lists.remoteTitle')}
        columns={columns}
        rows={status.remote.data}
        rowKey={(a) => a.name}
        empty={{ icon: 'cloud', title: t('lists.remoteEmpty'), text: t('lists.remoteEmptyText') }}
      />
    );
  }
  return (
    <Card title={t('lists.remoteTitle')} flush={status.remote.state === 'ok' && status.remote.data.length > 0}>
      {body}
    </Card>
  );
}

function LocalList({ status, busy, onUpload }: Pick<ListsProps, 'status' | 'busy' | 'onUpload'>) {
  const { t, i18n } = useTranslation('backups-cloud');
  const dateTime = useDateTime();
  const mayUpload = useHasPermission(CLOUD_PERMISSIONS.upload);
  const columns: DataColumn<LocalArchive>[] = [
    {
      id: 'name',
      header: t('lists.name'),
      primary: true,
      cell: (a) => <span css={{ overflowWrap: 'anywhere', fontFamily: theme.font.mono, fontSize: theme.font.size.sm }}>{a.name}</span>,
    },
    { id: 'time', header: t('lists.time'), cell: (a) => dateTime(a.created_at) },
    { id: 'size', header: t('lists.size'), align: 'end', cell: (a) => formatFileSize(a.size, i18n.language) },
    {
      id: 'where',
      header: t('lists.where'),
      cell: (a) => (
        <span css={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6 }}>
          <KindBadge kind={a.kind} />
          {a.remote && <Badge tone="success">{t('lists.alsoOffsite')}</Badge>}
        </span>
      ),
    },
    {
      id: 'actions',
      header: t('lists.actions'),
      align: 'end',
      cell: (a) =>
        mayUpload && status.configured && !a.remote && status.remote.state !== 'unavailable' ? (
          <Button size="sm" variant="secondary" icon="cloud" disabled={busy} onClick={() => onUpload(a.name)} aria-label={t('lists.uploadNamed', { name: a.name })}>
            {t('lists.upload')}
          </Button>
        ) : null,
    },
  ];
  return (
    <Card title={t('lists.localTitle')} flush={status.local.length > 0}>
      <DataTable
        caption={t('lists.localTitle')}
        columns={columns}
        rows={status.local}
        rowKey={(a) => a.name}
        empty={{ icon: 'archive', title: t('lists.localEmpty'), text: <Link to={BACKUPS_PATH}>{t('lists.localEmptyLink')}</Link> }}
      />
    </Card>
  );
}

export default function CloudBackupsPage() {
  const { t } = useTranslation('backups-cloud');
  const errorText = useErrorText();
  const isRoot = useHasPermission(CLOUD_PERMISSIONS.root);
  const { data, error, loading, reload } = useApi<CloudStatus>(cloudUrl.status());
  const [status, setStatus] = useState<CloudStatus | undefined>(undefined);
  const [actionError, setActionError] = useState<string | null>(null);
  const [dismissed, setDismissed] = useState<string | null>(null);
  const onEnded = useCallback(() => reload(), [reload]);
  const { transfer, pollError, follow } = useTransferFollower(onEnded);

  useEffect(() => {
    if (!data) return;
    setStatus(data);
    // a transfer started elsewhere (another administrator, the schedule) is followed too
    if (data.transfer && (data.transfer.state === 'running' || !transfer || transfer.id === data.transfer.id)) follow(data.transfer);
  }, [data, follow]);

  const busy = transfer?.state === 'running';
  const start = async (url: string, name: string) => {
    setActionError(null);
    try {
      const { transfer: started } = await http.post<{ transfer: Transfer }>(url, { name });
      setDismissed(null);
      follow(started);
    } catch (failure) {
      setActionError(errorText(failure));
      reload();
    }
  };
  const remove = async (name: string) => {
    if (!(await dialogs.confirm({ title: t('lists.deleteQuestion', { name }), text: t('lists.deleteExplain'), danger: true, confirmText: t('lists.delete') }))) return;
    setActionError(null);
    try {
      await http.delete(cloudUrl.remote(name));
    } catch (failure) {
      setActionError(errorText(failure));
    }
    reload();
  };

  const shown = status ?? data;
  return (
    <Page title={t('page.title')} description={t('page.description')}>
      {transfer && transfer.id !== dismissed && <TransferCard transfer={transfer} pollError={pollError} onDismiss={() => setDismissed(transfer.id)} />}
      {actionError && (
        <Alert tone="error" onClose={() => setActionError(null)}>
          {actionError}
        </Alert>
      )}
      {error && !loading && !shown ? (
        <LoadError title={t('page.loadFailed')} error={error} onRetry={reload} />
      ) : !shown ? (
        <div css={{ display: 'grid', gap: 16 }} aria-busy="true" aria-label={t('page.loading')}>
          <Skeleton height={180} />
          <Skeleton height={140} />
        </div>
      ) : (
        <>
          {!shown.configured && (
            <Alert tone="info" title={t('notConfigured.title')}>
              {isRoot ? t('notConfigured.root') : t('notConfigured.others')}
            </Alert>
          )}
          <div css={{ display: 'grid', gap: 20, gridTemplateColumns: 'minmax(0, 1fr)' }}>
            <RemoteList status={shown} busy={busy} onDownload={(name) => void start(cloudUrl.downloads(), name)} onDelete={(name) => void remove(name)} />
            <LocalList status={shown} busy={busy} onUpload={(name) => void start(cloudUrl.uploads(), name)} />
            <ConnectionCard status={shown} isRoot={isRoot} onSaved={(next) => setStatus(next)} />
          </div>
        </>
      )}
    </Page>
  );
}
