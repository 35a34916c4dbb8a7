// /mc-admin/backups (spec §2: list only): every action happens here — make a backup now and watch its
// progress, verify one, download it, delete it (after a confirmation), and, for a root administrator,
// restore one through a dialog that asks for the panel's name, the password and the 2FA code. An
// archive kept only off-site is listed too; it is fetched back on the off-site screen first.
import {
  Alert,
  Badge,
  Button,
  Card,
  confirmAction,
  DataTable,
  formatFileSize,
  http,
  Page,
  PermissionGate,
  theme,
  useApi,
  useDateTime,
  useHasPermission,
  useTranslation,
  type BadgeTone,
  type DataColumn,
} from '@orepanel/sdk';
import { useCallback, useEffect, useState } from 'react';
import { BACKUP_PERMISSIONS, backupsUrl, useBackupErrorText, useJobFollower, type BackupJob, type BackupList, type BackupRow } from './backups-api';
import { JobProgress } from './JobProgress';
import { RestoreDialog } from './RestoreDialog';

const PLACE_TONE: Record<BackupRow['where'], BadgeTone> = { local: 'neutral', remote: 'info', both: 'success' };
const KIND_TONE: Record<string, BadgeTone> = { manual: 'primary', scheduled: 'neutral', 'before-restore': 'warning', imported: 'info' };
/** an ended restore is shown on arrival for this long: the admin who ran it was signed out by it */
const SHOW_ENDED_RESTORE_MS = 60 * 60_000;

export default function BackupsPage() {
  const { t, i18n } = useTranslation('backups');
  const dateTime = useDateTime();
  const errorText = useBackupErrorText();
  const list = useApi<BackupList>(backupsUrl.list());
  const mayCreate = useHasPermission(BACKUP_PERMISSIONS.create);
  const mayDelete = useHasPermission(BACKUP_PERMISSIONS.delete);
  const mayRestore = useHasPermission(BACKUP_PERMISSIONS.restore);
  const [starting, setStarting] = useState(false);
  const [startError, setStartError] = useState<string | null>(null);
  const [restoring, setRestoring] = useState<BackupRow | null>(null);
  const [shown, setShown] = useState(true);

  const reload = list.reload;
  const onEnded = useCallback(
    (job: BackupJob) => {
      if (job.action !== 'verify') reload();
    },
    [reload],
  );
  const { job, pollError, follow } = useJobFollower(onEnded);
  const running = job?.state === 'running';

  // a job already under way (another administrator, the schedule, a reload of this page), or the
  // outcome of a restore that signed this administrator out
  useEffect(() => {
    let stopped = false;
    http.get<{ job: BackupJob | null }>(backupsUrl.currentJob()).then(
      ({ job: current }) => {
        if (stopped || !current) return;
        const endedRestore = current.action === 'restore' && current.finished_at !== null && Date.now() - Date.parse(current.finished_at) < SHOW_ENDED_RESTORE_MS;
        if (current.state === 'running' || endedRestore) follow(current);
      },
      () => undefined,
    );
    return () => {
      stopped = true;
    };
  }, [follow]);

  /** starts a job by `request`; a refusal (another job runs) is shown above the list */
  const startJob = async (request: () => Promise<{ job: BackupJob }>) => {
    setStarting(true);
    setStartError(null);
    try {
      const { job: started } = await request();
      setShown(true);
      follow(started);
    } catch (error) {
      setStartError(errorText(error));
    } finally {
      setStarting(false);
    }
  };

  const remove = async (row: BackupRow) => {
    const result = await confirmAction({
      title: t('delete.title'),
      text: t('delete.text', { name: row.name }),
      confirmText: t('delete.confirm'),
      danger: true,
      successText: t('delete.done'),
      action: () => http.delete(backupsUrl.archive(row.name)),
    });
    if (result.status === 'done' || result.status === 'failed') reload();
  };

  const columns: DataColumn<BackupRow>[] = [
    {
      id: 'name',
      header: t('columns.name'),
      primary: true,
      cell: (row) => <span css={{ fontFamily: theme.font.mono, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{row.name}</span>,
    },
    { id: 'kind', header: t('columns.kind'), cell: (row) => <Badge tone={KIND_TONE[row.kind ?? ''] ?? 'neutral'}>{t(`kinds.${row.kind ?? 'unknown'}`)}</Badge> },
    { id: 'size', header: t('columns.size'), align: 'end', cell: (row) => <span css={{ whiteSpace: 'nowrap' }}>{formatFileSize(row.size, i18n.language)}</span> },
    { id: 'created', header: t('columns.created'), cell: (row) => dateTime(row.created_at) },
    { id: 'where', header: t('columns.where'), cell: (row) => <Badge tone={PLACE_TONE[row.where]}>{t(`places.${row.where}`)}</Badge> },
    {
      id: 'actions',
      header: t('columns.actions'),
      align: 'end',
      cell: (row) =>
        row.where === 'remote' ? (
          <span css={{ color: theme.colors.muted, fontSize: theme.font.size.sm }}>{t('list.remoteOnly')}</span>
        ) : (
          <div css={{ display: 'inline-flex', flexWrap: 'wrap', gap: 6, justifyContent: 'flex-end' }}>
            <Button
              size="sm"
              variant="secondary"
              disabled={running || starting}
              onClick={() => void startJob(() => http.post(backupsUrl.verify(row.name)))}
              aria-label={t('actions.verifyNamed', { name: row.name })}
            >
              {t('actions.verify')}
            </Button>
            {mayCreate && (
              <Button size="sm" variant="secondary" to={backupsUrl.download(row.name)} reloadDocument aria-label={t('actions.downloadNamed', { name: row.name })}>
                {t('actions.download')}
              </Button>
            )}
            {mayRestore && (
              <Button size="sm" variant="secondary" disabled={running || starting} onClick={() => setRestoring(row)} aria-label={t('actions.restoreNamed', { name: row.name })}>
                {t('actions.restore')}
              </Button>
            )}
            {mayDelete && (
              <Button
                size="sm"
                variant="ghost"
                disabled={running && job?.name === row.name}
                onClick={() => void remove(row)}
                aria-label={t('actions.deleteNamed', { name: row.name })}
              >
                {t('actions.delete')}
              </Button>
            )}
          </div>
        ),
    },
  ];

  return (
    <Page
      title={t('list.title')}
      description={t('list.description')}
      actions={
        <PermissionGate permission={BACKUP_PERMISSIONS.create}>
          <Button icon="archive" loading={starting} disabled={running} onClick={() => void startJob(() => http.post(backupsUrl.list()))}>
            {t('list.create')}
          </Button>
        </PermissionGate>
      }
    >
      <div css={{ display: 'grid', gap: 12, minWidth: 0 }}>
        {startError && (
          <Alert tone="error" onClose={() => setStartError(null)}>
            {startError}
          </Alert>
        )}
        {job && shown && <JobProgress job={job} pollError={pollError} onDismiss={() => setShown(false)} />}
        {list.data?.remote === 'unavailable' && <Alert tone="warning">{t('list.remoteUnavailable')}</Alert>}
        <Card flush>
          <DataTable
            caption={t('list.title')}
            columns={columns}
            rows={list.data?.data}
            rowKey={(row) => row.name}
            loading={list.loading}
            error={list.error}
            onRetry={reload}
            empty={{ icon: 'archive', title: t('list.empty'), text: mayCreate ? t('list.emptyText') : t('list.emptyTextReadOnly') }}
          />
        </Card>
        <p css={{ margin: 0, color: theme.colors.muted, fontSize: theme.font.size.sm, lineHeight: 1.5 }}>{t('list.retention')}</p>
      </div>
      {restoring && (
        <RestoreDialog
          archive={restoring}
          onClose={() => setRestoring(null)}
          onStarted={(started) => {
            setRestoring(null);
            setShown(true);
            follow(started);
          }}
        />
      )}
    </Page>
  );
}
