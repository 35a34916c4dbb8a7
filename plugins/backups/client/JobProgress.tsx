// The job under way (or just ended) above the list: what it does, its phase, a bar that fills as the
// engine reports progress (a moving stripe while the total is not known), then how it ended.
import { Alert, formatFileSize, TaskCard, TaskNote, useDateTime, useTranslation, type ApiError } from '@orepanel/sdk';
import { useJobErrorText, type BackupJob } from './backups-api';

export interface JobProgressProps {
  job: BackupJob;
  /** the last poll failed (the network; after a restore, a session that was signed out) */
  pollError: ApiError | null;
  onDismiss(): void;
}

/** Why the progress could not be read: a restore signs everyone out, and holds the API while it replaces the tables. */
function pollErrorKey(job: BackupJob, error: ApiError): string {
  if (job.action !== 'restore') return 'job.pollFailed';
  if (error.status === 401) return 'job.restore.signedOut';
  if (error.code === 'PANEL_RESTORING') return 'job.restore.held';
  return 'job.pollFailed';
}

export function JobProgress({ job, pollError, onDismiss }: JobProgressProps) {
  const { t, i18n } = useTranslation('backups');
  const dateTime = useDateTime();
  const errorText = useJobErrorText();
  const title = t(`job.${job.action}.${job.state}`, { name: job.name ?? '' });
  const phase = t(`phases.${job.phase}`);
  const numbers = job.total > 0 ? t('job.count', { done: job.done.toLocaleString(i18n.language), total: job.total.toLocaleString(i18n.language) }) : null;

  return (
    <TaskCard
      title={title}
      state={job.state}
      done={job.done}
      total={job.total}
      barLabel={phase}
      dismissLabel={t('job.dismiss')}
      onDismiss={onDismiss}
      progress={
        <>
          <TaskNote>
            {phase}
            {numbers && ` · ${numbers}`}
          </TaskNote>
          {job.action === 'restore' && <TaskNote>{t('job.restore.wait')}</TaskNote>}
          {pollError && <Alert tone={job.action === 'restore' ? 'info' : 'warning'}>{t(pollErrorKey(job, pollError))}</Alert>}
        </>
      }
    >
      {job.state === 'failed' && job.error && <Alert tone="error">{errorText(job.error)}</Alert>}
      {job.state === 'done' && job.summary && (
        <TaskNote>
          {t('job.summary', {
            tables: job.summary.tables.toLocaleString(i18n.language),
            rows: job.summary.rows.toLocaleString(i18n.language),
            files: job.summary.files.toLocaleString(i18n.language),
            bytes: formatFileSize(job.summary.file_bytes, i18n.language),
            version: job.summary.panel_version,
            date: dateTime(job.summary.created_at),
          })}
        </TaskNote>
      )}
      {job.state === 'done' && job.before_restore && <TaskNote>{t('job.restore.beforeRestore', { name: job.before_restore })}</TaskNote>}
    </TaskCard>
  );
}
