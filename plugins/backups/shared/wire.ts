// The backups API's shapes, written once for the server's schemas and the page.

export const BACKUP_KIND_NAMES = ['manual', 'scheduled', 'before-restore', 'imported'] as const;
export type BackupKindName = (typeof BACKUP_KIND_NAMES)[number];

/** where an archive is kept: this panel's data directory, the off-site copy plugin's bucket, or both */
export const BACKUP_PLACES = ['local', 'remote', 'both'] as const;
export type BackupPlace = (typeof BACKUP_PLACES)[number];

/**
 * An archive's file name as the routes take it — the core engine's one shape,
 * orepanel-YYYYMMDD-HHMMSS[-N]-<kind>.opbk — so nothing else (a path, `..`) reaches it.
 */
export const BACKUP_NAME_PATTERN = '^orepanel-[0-9]{8}-[0-9]{6}(?:-[0-9]{1,3})?-(?:manual|scheduled|before-restore|imported)\\.opbk$';

export interface BackupRow {
  name: string;
  /** bytes */
  size: number;
  created_at: string;
  kind: BackupKindName | null;
  where: BackupPlace;
  /** the release that made it; null for an off-site-only copy */
  panel_version: string | null;
}

/** whether the off-site copies could be asked: no copy plugin, it answered, or it did not */
export const REMOTE_STATES = ['off', 'ok', 'unavailable'] as const;
export type RemoteState = (typeof REMOTE_STATES)[number];

export interface BackupList {
  data: BackupRow[];
  remote: RemoteState;
}

export const JOB_ACTIONS = ['create', 'verify', 'restore'] as const;
export type JobAction = (typeof JOB_ACTIONS)[number];

export const JOB_STATES = ['running', 'done', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JOB_PHASES = ['queued', 'snapshot', 'tables', 'files', 'verify', 'before-restore', 'restore', 'migrate', 'done'] as const;
export type JobPhase = (typeof JOB_PHASES)[number];

/** what a verify or a restore read from the archive */
export interface ArchiveSummary {
  created_at: string;
  panel_version: string;
  dialect: string;
  tables: number;
  rows: number;
  files: number;
  file_bytes: number;
}

export interface BackupJob {
  id: string;
  action: JobAction;
  state: JobState;
  /** the archive made (create: once known), checked or restored */
  name: string | null;
  /** create: why the archive is made */
  kind: BackupKindName | null;
  phase: JobPhase;
  /** units done and total in this phase; total 0 when not known */
  done: number;
  total: number;
  started_at: string;
  finished_at: string | null;
  /** who started it (a username), null for the schedule */
  started_by: string | null;
  error: { code: string; message: string } | null;
  /** verify and restore: what the archive holds */
  summary: ArchiveSummary | null;
  /** restore: the archive taken of the panel just before */
  before_restore: string | null;
}

/** The restore request's body. */
export interface RestoreRequest {
  /** the panel's name (the app_name setting), typed exactly */
  panel_name: string;
  /** the administrator's current password */
  password: string;
  /** a code from the authenticator app (or a recovery code), when the administrator has two-factor authentication */
  code?: string;
  /** checks everything (who asks, the archive's version) and restores nothing */
  dry_run?: boolean;
}
