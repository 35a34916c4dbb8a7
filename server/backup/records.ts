// The records of an archive's data stream (its plaintext): a type byte, a 4-byte length, the
// payload. Tables are a start record (name, columns, key), row records (row lines, each ending in a
// line break) and an end record (count, checksum); files are a start record (key, description),
// byte records and an end record; one end-of-data record closes the stream, so a stream that stops
// early is never mistaken for a complete one.
import { BackupArchiveError } from '../../sdk/server/panel-backup';

export const RECORD = {
  tableStart: 0x54,
  rows: 0x52,
  tableEnd: 0x45,
  fileStart: 0x46,
  fileBytes: 0x42,
  fileEnd: 0x47,
  end: 0x5a,
} as const;

export type RecordType = (typeof RECORD)[keyof typeof RECORD];

/** the largest payload a reader accepts: a page of rows or a file chunk stays far below it */
const MAX_PAYLOAD = 64 * 1024 * 1024;

export interface TableStart {
  name: string;
  /** sorted column names, and each one's type on the database it was read from */
  columns: { name: string; type: string }[];
  primaryKey: string[];
}

export interface TableEnd {
  rows: number;
  sha256: string;
}

export interface FileStart {
  key: string;
  info: { type: string; size: number; name: string };
}

export interface FileEnd {
  size: number;
  sha256: string;
}

export function encodeRecord(type: RecordType, payload: Buffer | string | object): Buffer {
  const body = Buffer.isBuffer(payload) ? payload : Buffer.from(typeof payload === 'string' ? payload : JSON.stringify(payload), 'utf8');
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export interface ArchiveRecord {
  type: RecordType;
  payload: Buffer;
}

const KNOWN = new Set<number>(Object.values(RECORD));

/** The records of a plaintext stream, in order. A malformed record or a missing end record: BACKUP_DAMAGED. */
export async function* readRecords(plain: AsyncIterable<Buffer>): AsyncGenerator<ArchiveRecord> {
  let buffer: Buffer = Buffer.alloc(0);
  let ended = false;
  for await (const chunk of plain) {
    buffer = buffer.length === 0 ? chunk : Buffer.concat([buffer, chunk]);
    let at = 0;
    while (buffer.length - at >= 5) {
      if (ended) throw new BackupArchiveError('BACKUP_DAMAGED', 'The backup is damaged (data after its end).');
      const type = buffer[at];
      const length = buffer.readUInt32BE(at + 1);
      if (!KNOWN.has(type) || length > MAX_PAYLOAD) throw new BackupArchiveError('BACKUP_DAMAGED', 'The backup is damaged (an unreadable record).');
      if (buffer.length - at < 5 + length) break;
      const payload = buffer.subarray(at + 5, at + 5 + length);
      at += 5 + length;
      if (type === RECORD.end) ended = true;
      yield { type: type as RecordType, payload };
    }
    buffer = buffer.subarray(at);
  }
  if (!ended || buffer.length > 0) throw new BackupArchiveError('BACKUP_DAMAGED', 'The backup is damaged (it is cut short).');
}

export function parseJson<T>(payload: Buffer): T {
  try {
    return JSON.parse(payload.toString('utf8')) as T;
  } catch {
    throw new BackupArchiveError('BACKUP_DAMAGED', 'The backup is damaged (an unreadable record).');
  }
}
