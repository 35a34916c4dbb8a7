// ctx.panelBackup: archives of the whole panel (every table of the core and of every plugin, the
// migration state, the file service's files) kept in DATA_DIR/backups, and restores from them. The
// core owns the archive format and the local folder, so the command line (`orepanel backup …`) and
// the backups plugin's screens see the same archives. Only a plugin shipped with the panel whose
// plugin.json lists "panel-backup" in `privileges` is handed it; for every other plugin it is null.
import type { Readable } from 'node:stream';
import type { DatabaseDialect } from './database';

/** why an archive was made: shown on the list; before-restore ones are taken by restore() itself */
export type BackupKind = 'manual' | 'scheduled' | 'before-restore' | 'imported';

export const BACKUP_KINDS: readonly BackupKind[] = ['manual', 'scheduled', 'before-restore', 'imported'];

export interface BackupTableSummary {
  name: string;
  rows: number;
  /** sha256 (hex) of the table's rows in the archive's dialect-neutral form */
  sha256: string;
}

/** What an archive holds, written inside it (and readable without decrypting the data). */
export interface BackupManifest {
  format: 1;
  kind: BackupKind;
  /** ISO 8601, when the snapshot was taken */
  createdAt: string;
  panelVersion: string;
  sdkVersion: string;
  /** the database it was taken from */
  dialect: DatabaseDialect;
  plugins: { id: string; version: string; enabled: boolean }[];
  /** migration table name → the migrations applied, in order */
  migrations: Record<string, string[]>;
  tables: BackupTableSummary[];
  files: { count: number; bytes: number; sha256: string };
}

/** A archive in DATA_DIR/backups. `name` is its file name there, e.g. orepanel-20261126-154000-manual.opbk */
export interface LocalBackup {
  name: string;
  size: number;
  createdAt: string;
  kind: BackupKind;
  panelVersion: string;
}

export type BackupPhase = 'snapshot' | 'tables' | 'files' | 'verify' | 'before-restore' | 'restore' | 'migrate' | 'done';

export interface BackupProgress {
  phase: BackupPhase;
  /** units done and total in this phase (rows, files or bytes); total 0 when not known */
  done: number;
  total: number;
}

export interface BackupOptions {
  onProgress?: (progress: BackupProgress) => void;
}

export type BackupErrorCode = 'BACKUP_NOT_FOUND' | 'BACKUP_DAMAGED' | 'BACKUP_WRONG_KEY' | 'BACKUP_TOO_NEW' | 'BACKUP_NAME_INVALID' | 'BACKUP_EXISTS';

export const BACKUP_ARCHIVE_ERROR_BRAND = '@orepanel/backup-archive-error';

/**
 * Thrown for an archive that cannot be used: not an archive, damaged (a checksum or the encryption's
 * tag fails), encrypted with another key, from a newer panel (or holding the tables of a plugin this
 * panel does not have); for a name that is not an archive's; BACKUP_EXISTS when receive() is handed a
 * name already in the folder. `code` is the API error code. Recognise it with isBackupArchiveError.
 */
export class BackupArchiveError extends Error {
  readonly $$type = BACKUP_ARCHIVE_ERROR_BRAND;
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BackupArchiveError';
  }
}

export interface PanelBackup {
  /** the local folder: DATA_DIR/backups */
  readonly directory: string;
  /** newest first */
  list(): Promise<LocalBackup[]>;
  /**
   * Takes a consistent snapshot while the panel runs and streams it, encrypted with this install's
   * key, to a new archive in the folder (written under a temporary name, renamed when complete).
   */
  create(kind: BackupKind, options?: BackupOptions): Promise<LocalBackup>;
  /** the manifest, without reading the data */
  inspect(name: string): Promise<BackupManifest>;
  /** decrypts the whole archive and checks every checksum; touches nothing */
  verify(name: string, options?: BackupOptions): Promise<BackupManifest>;
  /** the archive's bytes (still encrypted), for a download */
  open(name: string): Promise<{ stream: Readable; size: number }>;
  /**
   * Keeps an archive that arrives from elsewhere (an off-site copy): written under a temporary name,
   * checked to be an archive of this install (its manifest decrypts), then renamed. Returns it.
   * BACKUP_EXISTS when an archive of that name is already in the folder (nothing is replaced).
   */
  receive(name: string, content: Readable): Promise<LocalBackup>;
  /** false when there was no such archive */
  remove(name: string): Promise<boolean>;
  /**
   * Replaces every table and file with the archive's: verifies it first, takes a before-restore
   * archive, then restores (one transaction where the database allows DDL in one: SQLite,
   * PostgreSQL; on MariaDB a failure puts the before-restore archive back), then applies the
   * migrations this panel has that the archive's panel did not. A failure leaves the panel as it was.
   */
  restore(name: string, options?: BackupOptions): Promise<{ manifest: BackupManifest; beforeRestore: LocalBackup }>;
}

/**
 * Recognises a BackupArchiveError thrown by the core: a built plugin bundles its own copy of this
 * class, so `instanceof` is not reliable across the boundary.
 */
export function isBackupArchiveError(value: unknown): value is BackupArchiveError {
  return value instanceof Error && (value as { $$type?: unknown }).$$type === BACKUP_ARCHIVE_ERROR_BRAND;
}
