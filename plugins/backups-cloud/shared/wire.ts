// The off-site copies API's shapes, written once for the server's schemas and the screen.

/**
 * An archive's file name, as the panel's archive engine makes them and the routes take them:
 * orepanel-YYYYMMDD-HHMMSS[-N]-<kind>.opbk (N tells apart archives of the same second). Nothing else
 * is listed, uploaded, fetched or deleted — so never a path, never `..`, never another object that
 * happens to sit in the bucket's folder.
 */
export const ARCHIVE_NAME_PATTERN = '^orepanel-[0-9]{8}-[0-9]{6}(-[0-9]{1,3})?-(manual|scheduled|before-restore|imported)\\.opbk$';
export const ARCHIVE_NAME = new RegExp(ARCHIVE_NAME_PATTERN);
export const ARCHIVE_NAME_MAX = 64;

export const ARCHIVE_KINDS = ['manual', 'scheduled', 'before-restore', 'imported'] as const;
export type ArchiveKind = (typeof ARCHIVE_KINDS)[number];

/**
 * The kind, the snapshot's time (UTC, to the second) and the same-second counter an archive's name
 * carries; null for another name.
 */
export function parseArchiveName(name: string): { kind: ArchiveKind; createdAt: string; sequence: number } | null {
  if (name.length > ARCHIVE_NAME_MAX || !ARCHIVE_NAME.test(name)) return null;
  const [, date, time, counter] = name.split('-');
  const kind = ARCHIVE_KINDS.find((k) => name.endsWith(`-${k}.opbk`));
  if (!kind) return null;
  const iso = `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${time.slice(0, 2)}:${time.slice(2, 4)}:${time.slice(4, 6)}.000Z`;
  if (Number.isNaN(Date.parse(iso))) return null;
  return { kind, createdAt: iso, sequence: /^[0-9]+$/.test(counter) ? Number(counter) : 0 };
}

/** newest archive first: its snapshot time, then its same-second counter */
export function newestArchiveFirst(a: { name: string; created_at: string }, b: { name: string; created_at: string }): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
  return (parseArchiveName(b.name)?.sequence ?? 0) - (parseArchiveName(a.name)?.sequence ?? 0);
}

/** the bucket settings as the screen shows them (the secret only as set or not) */
export interface CloudConnection {
  /** '' for Amazon S3 itself */
  endpoint: string;
  region: string;
  bucket: string;
  prefix: string;
  force_path_style: boolean;
  /** null for whoever is not admin.root: half of a credential */
  access_key_id: string | null;
  secret_set: boolean;
  auto_upload: boolean;
  /** off-site archives kept (the newest) */
  keep: number;
}

/** An archive held off-site. */
export interface RemoteArchive {
  name: string;
  size: number;
  /** when the archive was made (from its name), else when it was uploaded */
  created_at: string;
  uploaded_at: string;
  kind: ArchiveKind | null;
  /** a copy is in this panel's local folder too */
  local: boolean;
}

/** An archive of the local folder, with whether it is held off-site. */
export interface LocalArchive {
  name: string;
  size: number;
  created_at: string;
  kind: ArchiveKind;
  remote: boolean;
}

export const REMOTE_STATES = ['off', 'ok', 'unavailable'] as const;
/** off: not configured; unavailable: the bucket did not answer (error says why) */
export type RemoteState = (typeof REMOTE_STATES)[number];

export const TRANSFER_DIRECTIONS = ['upload', 'download'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];
export const TRANSFER_STATES = ['running', 'done', 'failed'] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

/** An upload to the bucket or a download back into the local folder, followed by the screen. */
export interface Transfer {
  id: string;
  direction: TransferDirection;
  name: string;
  state: TransferState;
  /** bytes sent or received, of total */
  done: number;
  total: number;
  /** a username; null for the automatic upload after a scheduled backup */
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
  error: { code: string; message: string } | null;
}

export interface CloudStatus {
  configured: boolean;
  connection: CloudConnection;
  remote: { state: RemoteState; error: { code: string; message: string } | null; data: RemoteArchive[] };
  local: LocalArchive[];
  /** the running transfer, else the last one that ended */
  transfer: Transfer | null;
}

/** The settings form's body (root only). An absent secret keeps the stored one. */
export interface CloudSettingsInput {
  endpoint: string;
  region: string;
  bucket: string;
  access_key_id: string;
  secret_access_key?: string;
  prefix: string;
  force_path_style: boolean;
  auto_upload: boolean;
  keep: number;
}

export const TEST_STEPS = ['list', 'put', 'get', 'remove'] as const;
export type TestStep = (typeof TEST_STEPS)[number];

/** "Test connection": each step in order, up to the first that failed. */
export interface ConnectionTest {
  ok: boolean;
  steps: { step: TestStep; ok: boolean; error: { code: string; message: string } | null }[];
}

/** the API's limits, shared with the form */
export const CLOUD_LIMITS = {
  keep: { min: 1, max: 1000, default: 14 },
  text: 512,
} as const;
