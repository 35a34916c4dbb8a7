// The job under way (or just ended) above the list: what it does, its phase, a bar that fills as the
// engine reports progress (a moving stripe while the total is not known), then how it ended.
import { Alert, Button, formatFileSize, ProgressBar, theme, useDateTime, useTranslation, type ApiError } from '@orepanel/sdk';
import { useJobErrorText, type BackupJob } from './backups-api';

const c = theme.colors;

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
    <section
      aria-label={title}
      aria-live="polite"
      css={{
        display: 'grid',
        gap: 10,
        padding: 16,
        background: c.surface,
        border: `1px solid ${job.state === 'failed' ? `${c.danger}66` : c.border}`,
        borderRadius: theme.radii.lg,
        minWidth: 0,
      }}
    >
      <div css={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', justifyContent: 'space-between', gap: 8 }}>
        <strong css={{ overflowWrap: 'anywhere' }}>{title}</strong>
        {job.state !== 'running' && (
          <Button size="sm" variant="ghost" onClick={onDismiss}>
            {t('job.dismiss')}
          </Button>
        )}
      </div>
      {job.state === 'running' && (
        <>
          <ProgressBar done={job.done} total={job.total} label={phase} />
          <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>
            {phase}
            {numbers && ` · ${numbers}`}
          </span>
          {job.action === 'restore' && <span css={{ color: c.muted, fontSize: theme.font.size.sm }}>{t('job.restore.wait')}</span>}
          {pollError && <Alert tone={job.action === 'restore' ? 'info' : 'warning'}>{t(pollErrorKey(job, pollError))}</Alert>}
        </>
      )}
      {job.state === 'failed' && job.error && <Alert tone="error">{errorText(job.error)}</Alert>}
      {job.state === 'done' && job.summary && (
        <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm }}>
          {t('job.summary', {
            tables: job.summary.tables.toLocaleString(i18n.language),
            rows: job.summary.rows.toLocaleString(i18n.language),
            files: job.summary.files.toLocaleString(i18n.language),
            bytes: formatFileSize(job.summary.file_bytes, i18n.language),
            version: job.summary.panel_version,
            date: dateTime(job.summary.created_at),
          })}
        </p>
      )}
      {job.state === 'done' && job.before_restore && (
        <p css={{ margin: 0, color: c.muted, fontSize: theme.font.size.sm, overflowWrap: 'anywhere' }}>{t('job.restore.beforeRestore', { name: job.before_restore })}</p>
      )}
    </section>
  );
}
