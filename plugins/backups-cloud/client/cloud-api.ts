// The off-site copies API's addresses, the permissions the screen checks, a transfer followed until
// it ends, and the errors inside answers in words (error answers: the sdk's useErrorText reads the
// plugin's errors.<CODE> texts itself).
import { ADMIN_API, ApiError, http, useTranslation } from '@orepanel/sdk';
import { useCallback, useEffect, useRef, useState } from 'react';
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

const POLL_MS = 1000;

/**
 * Follows a transfer: asks for it every second while it runs and hands over each state; a failed
 * poll is kept as `pollError` and asked again.
 */
export function useTransferFollower(onEnded: (transfer: Transfer) => void): {
  transfer: Transfer | null;
  pollError: ApiError | null;
  follow(transfer: Transfer | null): void;
} {
  const [transfer, setTransfer] = useState<Transfer | null>(null);
  const [pollError, setPollError] = useState<ApiError | null>(null);
  const ended = useRef(onEnded);
  ended.current = onEnded;

  useEffect(() => {
    if (!transfer || transfer.state !== 'running') return;
    let stopped = false;
    const timer = window.setTimeout(async () => {
      try {
        const { transfer: next } = await http.get<{ transfer: Transfer }>(cloudUrl.transfer(transfer.id));
        if (stopped) return;
        setPollError(null);
        setTransfer(next);
        if (next.state !== 'running') ended.current(next);
      } catch (error) {
        if (stopped) return;
        setPollError(error instanceof ApiError ? error : new ApiError(0, 'NETWORK_ERROR', String(error)));
        // a new object with the same state schedules the next poll
        setTransfer((current) => (current ? { ...current } : current));
      }
    }, POLL_MS);
    return () => {
      stopped = true;
      window.clearTimeout(timer);
    };
  }, [transfer]);

  const follow = useCallback((next: Transfer | null) => {
    setPollError(null);
    setTransfer(next);
  }, []);

  return { transfer, pollError, follow };
}

/** A coded error the server put inside an answer (a transfer's, a test step's) in words; its message otherwise. */
export function useCodedErrorText(): (error: { code: string; message: string }) => string {
  const { t, i18n } = useTranslation('backups-cloud');
  return useCallback((error) => (i18n.exists(`errors.${error.code}`, { ns: 'backups-cloud' }) ? t(`errors.${error.code}`) : error.message), [t, i18n]);
}
