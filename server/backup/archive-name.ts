// The names of archives in DATA_DIR/backups. A name is the only thing a caller (a route, the command
// line, an off-site listing) gives to pick an archive, so it is checked against one strict shape
// before it is ever joined to the folder: no separators, no dots beyond the extension.
import { BACKUP_KINDS, BackupArchiveError, type BackupKind } from '../../sdk/server/panel-backup';

/** orepanel-YYYYMMDD-HHMMSS[-N]-<kind>.opbk; N separates archives taken within the same second */
export const ARCHIVE_NAME = /^orepanel-(\d{4})(\d{2})(\d{2})-(\d{2})(\d{2})(\d{2})(?:-(\d{1,3}))?-(manual|scheduled|before-restore|imported)\.opbk$/;

export const ARCHIVE_EXTENSION = '.opbk';

export function isArchiveName(name: string): boolean {
  return typeof name === 'string' && name.length <= 64 && ARCHIVE_NAME.test(name);
}

/** Throws BACKUP_NAME_INVALID unless `name` is an archive's name. */
export function checkArchiveName(name: string): string {
  if (!isArchiveName(name)) {
    throw new BackupArchiveError('BACKUP_NAME_INVALID', 'This is not the name of a backup (expected orepanel-YYYYMMDD-HHMMSS-<kind>.opbk).');
  }
  return name;
}

/** The kind and the time a name carries (the time is the snapshot's, in UTC, to the second). */
export function parseArchiveName(name: string): { kind: BackupKind; createdAt: string } {
  const m = ARCHIVE_NAME.exec(checkArchiveName(name))!;
  const kind = m[8] as BackupKind;
  if (!BACKUP_KINDS.includes(kind)) throw new BackupArchiveError('BACKUP_NAME_INVALID', 'This is not the name of a backup.');
  return { kind, createdAt: `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z` };
}

/** The name for an archive of `kind` taken at `when`; `attempt` > 0 adds the same-second counter. */
export function archiveName(kind: BackupKind, when: Date, attempt = 0): string {
  const iso = when.toISOString();
  const stamp = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}`;
  return `orepanel-${stamp}${attempt > 0 ? `-${attempt}` : ''}-${kind}${ARCHIVE_EXTENSION}`;
}
