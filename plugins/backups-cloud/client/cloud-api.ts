// The off-site copies API's addresses, the permissions the screen checks, a transfer followed until
// it ends, and the errors inside answers in words (error answers: the sdk's useErrorText reads the
// plugin's errors.<CODE> texts itself).
import { ADMIN_API, http, useTaskFollower, useTranslation, type ApiError } from '@orepanel/sdk';
import { useCallback } from 'react';
import type { Transfer } from '../shared/wire';

export type { CloudConnection, CloudSettingsInput, CloudStatus, ConnectionTest, LocalArchive, RemoteArchive, TestStep, Transfer } from '../shared/wire';

export const cloudUrl = {
  status: () => `${ADMIN_API}/cloud-backups`,
  transfer: (id: string) => `${ADMIN_API}/cloud-backups/transfers/${encodeURIComponent(id)}`,
  uploads: () => `${ADMIN_API}/cloud-backups/uploads`,
  downloads: () => `${ADMIN_API}/cloud-backups/downloads`,
  remote: (name: string) => `${ADMIN_API}/cloud-backups/remote/${encodeURIComponent(name)}`,
  settings: () => `${ADMIN_API}/cloud-backups/settings`,
  test: () => `${ADMIN_API}/cloud-backups/test`,
};

export const CLOUD_PERMISSIONS = Object.freeze({
  upload: 'admin.cloud.upload',
  download: 'admin.cloud.download',
  /** the connection, and deleting an off-site copy */
  root: 'admin.root',
});

export const BACKUPS_PATH = '/mc-admin/backups';

/** Follows a transfer until it ends (the sdk's task follower). */
export function useTransferFollower(onEnded: (transfer: Transfer) => void): { transfer: Transfer | null; pollError: ApiError | null; follow(transfer: Transfer | null): void } {
  const { task, pollError, follow } = useTaskFollower<Transfer>({
    read: async (transfer) => (await http.get<{ transfer: Transfer }>(cloudUrl.transfer(transfer.id))).transfer,
    onEnded,
  });
  return { transfer: task, pollError, follow };
}

/** A coded error the server put inside an answer (a transfer's, a test step's) in words; its message otherwise. */
export function useCodedErrorText(): (error: { code: string; message: string }) => string {
  const { t, i18n } = useTranslation('backups-cloud');
  return useCallback((error) => (i18n.exists(`errors.${error.code}`, { ns: 'backups-cloud' }) ? t(`errors.${error.code}`) : error.message), [t, i18n]);
}
