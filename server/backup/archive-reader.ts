// Opens an archive: its header, its key (refusing another install's), its manifest — without
// reading the data — and, when asked, the data stream's records, decrypted and authenticated frame
// by frame as they are read from disk.
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { BackupArchiveError, type BackupManifest } from '../../sdk/server/panel-backup';
import { DATA_STREAM, FrameOpener, HEADER_BYTES, MANIFEST_STREAM, openArchiveKey, openWhole, parseArchiveHeader, type ArchiveHeader, type ArchiveKey } from './archive-crypto';
import { readRecords, type ArchiveRecord } from './records';

/** a manifest is small (a line per table and plugin); more than this is not one */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

export interface OpenedArchive {
  path: string;
  size: number;
  header: ArchiveHeader;
  manifest: BackupManifest;
  /** bytes of the sealed data stream */
  dataBytes: number;
  /** the data stream's records; `onBytes` hears the sealed bytes read, for progress */
  records(onBytes?: (bytes: number) => void): AsyncGenerator<ArchiveRecord>;
}

const damaged = (why: string) => new BackupArchiveError('BACKUP_DAMAGED', `The backup is damaged (${why}).`);

function isManifest(value: unknown): value is BackupManifest {
  if (!value || typeof value !== 'object') return false;
  const m = value as Partial<Record<keyof BackupManifest, unknown>>;
  return (
    typeof m.kind === 'string' &&
    typeof m.createdAt === 'string' &&
    typeof m.panelVersion === 'string' &&
    typeof m.sdkVersion === 'string' &&
    typeof m.dialect === 'string' &&
    Array.isArray(m.plugins) &&
    Array.isArray(m.tables) &&
    m.tables.every((t) => t && typeof t.name === 'string' && typeof t.rows === 'number' && typeof t.sha256 === 'string') &&
    !!m.migrations &&
    typeof m.migrations === 'object' &&
    Object.values(m.migrations).every((list) => Array.isArray(list) && list.every((n) => typeof n === 'string')) &&
    !!m.files &&
    typeof m.files === 'object'
  );
}

async function readExactly(path: string, position: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readManifest(path: string, size: number, header: ArchiveHeader, key: ArchiveKey): Promise<BackupManifest> {
  if (header.manifestOffset > size || size - header.manifestOffset > MAX_MANIFEST_BYTES) throw damaged('its manifest is missing');
  const sealed = await readExactly(path, header.manifestOffset, size - header.manifestOffset);
  const plain = await openWhole(key.key, header.bound, MANIFEST_STREAM, sealed);
  let parsed: unknown;
  try {
    parsed = JSON.parse(plain.toString('utf8'));
  } catch {
    throw damaged('its manifest is unreadable');
  }
  const format = (parsed as { format?: unknown } | null)?.format;
  if (typeof format === 'number' && format > 1)
    throw new BackupArchiveError('BACKUP_TOO_NEW', 'The backup was made by a newer panel (its manifest format is unknown here): update the panel first.');
  if (format !== 1 || !isManifest(parsed)) throw damaged('its manifest is unreadable');
  return parsed;
}

/** Opens the archive at `path`; BACKUP_NOT_FOUND when there is none. */
export async function openArchive(path: string, secretKey: string, passphrase: string | null): Promise<OpenedArchive> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOENT' });
    size = info.size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupArchiveError('BACKUP_NOT_FOUND', 'There is no such backup.');
    throw error;
  }
  const header = parseArchiveHeader(await readExactly(path, 0, HEADER_BYTES));
  const key = await openArchiveKey(header, secretKey, passphrase);
  const manifest = await readManifest(path, size, header, key);
  const dataBytes = header.manifestOffset - HEADER_BYTES;
  return {
    path,
    size,
    header,
    manifest,
    dataBytes,
    async *records(onBytes) {
      // an empty range cannot be expressed to createReadStream (end is inclusive): such a file is damaged anyway
      if (dataBytes <= 0) throw damaged('it holds no data');
      const file = createReadStream(path, { start: HEADER_BYTES, end: header.manifestOffset - 1, highWaterMark: 256 * 1024 });
      if (onBytes) file.on('data', (chunk) => onBytes(chunk.length));
      const opener = new FrameOpener(key.key, header.bound, DATA_STREAM);
      file.on('error', (error) => opener.destroy(error));
      file.pipe(opener);
      try {
        yield* readRecords(opener as AsyncIterable<Buffer>);
      } finally {
        // a reader that stops early (a checksum failed) lets go of the file at once
        file.destroy();
        opener.destroy();
      }
    },
  };
}
