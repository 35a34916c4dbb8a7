// The backups API's addresses, the permissions the page checks, a job followed until it ends, and
// the error texts of the screens.
import { ADMIN_API, ApiError, http, useErrorText, useTaskFollower, useTranslation } from '@orepanel/sdk';
import { useCallback } from 'react';
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

/**
 * Follows a job until it ends (the sdk's task follower). A job handed over already ended (one that
 * finished before its start answer came back) ends at once too.
 */
export function useJobFollower(onEnded: (job: BackupJob) => void): { job: BackupJob | null; pollError: ApiError | null; follow(job: BackupJob): void } {
  const { task, pollError, follow } = useTaskFollower<BackupJob>({
    read: async (job) => (await http.get<{ job: BackupJob }>(backupsUrl.job(job.id))).job,
    onEnded,
    endedOnFollow: true,
  });
  return { job: task, pollError, follow };
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
