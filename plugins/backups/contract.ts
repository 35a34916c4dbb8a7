// The backups plugin's contract: the one file of it another plugin may import (a plugin that lists
// "backups" in its plugin.json `requires`). It imports nothing of the plugin itself.
//
// Two things cross it, both for an off-site copy plugin (backups-cloud):
// - events: `backup.created` after every archive this plugin makes (manual, scheduled, and the
//   before-restore one a restore from the screen takes), `backup.deleted` after one is removed (by an
//   administrator or by the retention) — so the copy plugin uploads new archives and may follow
//   deletions without polling the folder.
// - the list's "where" column: the backups screen shows whether an archive is kept here, off-site or
//   both, and lists the off-site-only ones too. The question is the backups plugin's, so its shape is
//   written here; the answer comes from the copy plugin, which provides BACKUP_REMOTE_COPIES in its
//   register() (the reference is named after it, as every service is after its provider). The backups
//   plugin lists "backups-cloud" under `optional` and asks with ctx.services.find at each request: with
//   no copy plugin (absent or switched off) every archive is simply local.
import { type BackupKind, createServiceRef } from '@orepanel/sdk/server';

declare module '@orepanel/sdk/server' {
  interface ServerEvents {
    /**
     * An archive this plugin made is complete in the local folder (DATA_DIR/backups). Handlers run
     * after the job that made it has finished; a slow handler (an upload) delays nothing the admin waits for.
     */
    'backup.created': { name: string; kind: BackupKind; size: number; createdAt: string };
    /** an archive was removed from the local folder: by an administrator, or by the schedule's retention */
    'backup.deleted': { name: string; reason: 'admin' | 'retention' };
  }
}

/** An archive kept off-site, as the copy plugin lists it. */
export interface RemoteBackupCopy {
  /** the archive's file name, the same as the local one it was uploaded from */
  name: string;
  size: number;
  /** ISO 8601: when the archive was made (its manifest's time), or when it was uploaded when that is unknown */
  createdAt: string;
  /** null when the copy plugin cannot tell */
  kind: BackupKind | null;
}

export interface BackupRemoteCopies {
  /**
   * The archives held off-site now, or null when off-site copies are not set up (no bucket configured:
   * the list simply shows the local archives). Throws (or rejects) when the store is set up but cannot
   * be reached; the backups screen then shows the local list with a note that the off-site copies are
   * unknown just now, and waits at most a few seconds for an answer.
   */
  list(): Promise<RemoteBackupCopy[] | null>;
}

/** Provided by the backups-cloud plugin; the backups plugin asks for it with ctx.services.find. */
export const BACKUP_REMOTE_COPIES = createServiceRef<BackupRemoteCopies>('backups-cloud.remote-copies');
