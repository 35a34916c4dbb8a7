// The backups API's addresses, the permissions the page checks, a job followed until it ends, and
// the error texts of the screens.
import { ADMIN_API, ApiError, http, useErrorText, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { BackupJob } from '../shared/wire';

export type { ArchiveSummary, BackupJob, BackupKindName, BackupList, BackupPlace, BackupRow, JobPhase, RemoteState } from '../shared/wire';

export const backupsUrl = {
  list: () => `${ADMIN_API}/backups`,
  currentJob: () => `${ADMIN_API}/backup-jobs/current`,
  job: (id: string) => `${ADMIN_API}/backup-jobs/${encodeURIComponent(id)}`,
  archive: (name: string) => `${ADMIN_API}/backups/${encodeURIComponent(name)}`,
  verify: (name: string) => `${ADMIN_API}/backups/${encodeURIComponent(name)}/verify`,
  download: (name: string) => `${ADMIN_API}/backups/${encodeURIComponent(name)}/download`,
  restore: (name: string) => `${ADMIN_API}/backups/${encodeURIComponent(name)}/restore`,
};

export const BACKUP_PERMISSIONS = Object.freeze({
  create: 'admin.backups.create',
  delete: 'admin.backups.delete',
  restore: 'admin.root',
});

/** how often a running job is asked about */
const POLL_MS = 1000;

/**
 * Follows a job: asks for it every second while it runs and hands over each state. A failed poll
 * (the network, a restore that signs everyone out) is kept as `pollError` and asked again; the
 * caller decides what it means.
 */
export function useJobFollower(onEnded: (job: BackupJob) => void): {
  job: BackupJob | null;
  pollError: ApiError | null;
  follow(job: BackupJob): void;
} {
  const [job, setJob] = useState<BackupJob | null>(null);
  const [pollError, setPollError] = useState<ApiError | null>(null);
  const ended = useRef(onEnded);
  ended.current = onEnded;

  useEffect(() => {
    if (job?.state !== 'running') return;
    let stopped = false;
    const timer = window.setTimeout(async () => {
      try {
        const { job: next } = await http.get<{ job: BackupJob }>(backupsUrl.job(job.id));
        if (stopped) return;
        setPollError(null);
        setJob(next);
        if (next.state !== 'running') ended.current(next);
      } catch (error) {
        if (stopped) return;
        setPollError(error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error)));
        // ask again: a new object with the same state schedules the next poll
        setJob((current) => (current ? { ...current } : current));
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [job]);

  const follow = useCallback((next: BackupJob) => {
    setPollError(null);
    setJob(next);
    if (next.state !== 'running') ended.current(next);
  }, []);

  return { job, pollError, follow };
}

/** The plugin's own refusals in words (by code and field); the sdk's texts for the rest. */
export function useBackupErrorText(): (error: unknown) => string {
  const fallback = useErrorText();
  const { t, i18n } = useTranslation('backups');
  return useCallback(
    (error: unknown) => {
      if (error instanceof ApiError) {
        const key = `errors.${error.code}`;
        if (i18n.exists(key, { ns: 'backups' })) return t(key);
      }
      return fallback(error);
    },
    [fallback, t, i18n],
  );
}

/** A job's error code in words, falling back to the server's message. */
export function useJobErrorText(): (error: { code: string; message: string }) => string {
  const { t, i18n } = useTranslation('backups');
  return useCallback((error) => (i18n.exists(`errors.${error.code}`, { ns: 'backups' }) ? t(`errors.${error.code}`) : error.message), [t, i18n]);
}
