// The archive's encryption. An archive is a 64-byte header, then two encrypted streams: the data
// (tables and files) and, after it, the manifest. Each stream is cut into frames of at most 64 KiB,
// each sealed with AES-256-GCM under a nonce made of the stream's number and the frame's counter, so
// frames cannot be reordered, swapped between the streams or replayed from another archive (every
// archive has its own salt, hence its own key). The last frame of a stream carries a final flag in
// its authenticated data: a stream cut short after any frame is refused, not read as complete.
//
// The key is never a constant: HKDF-SHA256 over this install's secret key (SECRET_KEY or
// DATA_DIR/secret.key), or over scrypt(BACKUP_PASSPHRASE) when one is set, salted per archive. The
// header keeps a check value derived with the key, so a wrong key is told apart from a damaged file.
//
// Header layout: 0..8 magic, 8 format, 9 key source (1 install key, 2 passphrase), 10 scrypt log2(N),
// 11 reserved, 12..28 salt, 28..44 key check, 44..52 the manifest stream's offset (u64, written last),
// 52..64 reserved (zero). Bytes 0..28 are every frame's associated data.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { BackupArchiveError } from '../../sdk/server/panel-backup';

export const ARCHIVE_MAGIC = Buffer.from('OPBACKUP', 'ascii');
export const ARCHIVE_FORMAT = 1;
export const HEADER_BYTES = 64;
const BOUND_BYTES = 28;
const OFFSET_AT = 44;
/** plaintext bytes per frame */
export const FRAME_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const FINAL_FLAG = 0x8000_0000;
const SCRYPT_LOG_N = 15;

export const DATA_STREAM = 1;
export const MANIFEST_STREAM = 2;

/** Where the key comes from: the install's secret key, or a passphrase (BACKUP_PASSPHRASE). */
export type BackupKeySource = { kind: 'install'; secretKey: string } | { kind: 'passphrase'; passphrase: string };

export interface ArchiveHeader {
  format: number;
  source: 'install' | 'passphrase';
  scryptLogN: number;
  salt: Buffer;
  keyCheck: Buffer;
  manifestOffset: number;
  /** bytes 0..28: bound into every frame */
  bound: Buffer;
}

export interface ArchiveKey {
  key: Buffer;
  check: Buffer;
}

const damaged = (why: string) => new BackupArchiveError('BACKUP_DAMAGED', `The backup is damaged (${why}).`);

function scryptAsync(passphrase: string, salt: Buffer, logN: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // N·r·128 bytes: 32 MiB at log2(N) = 15, above Node's default ceiling
    scrypt(passphrase, salt, 32, { N: 2 ** logN, r: 8, p: 1, maxmem: 256 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** The archive key from the source and the archive's salt. */
export async function deriveArchiveKey(source: BackupKeySource, salt: Buffer, scryptLogN: number): Promise<ArchiveKey> {
  const ikm = source.kind === 'install' ? Buffer.from(source.secretKey, 'utf8') : await scryptAsync(source.passphrase, salt, scryptLogN);
  const okm = Buffer.from(hkdfSync('sha256', ikm, salt, `orepanel backup v1 ${source.kind}`, 48));
  return { key: okm.subarray(0, 32), check: okm.subarray(32, 48) };
}

/** A fresh header (offset 0 until the manifest is written) and its key. */
export async function newArchiveHeader(source: BackupKeySource): Promise<{ header: Buffer; key: ArchiveKey }> {
  const salt = randomBytes(16);
  const logN = source.kind === 'passphrase' ? SCRYPT_LOG_N : 0;
  const key = await deriveArchiveKey(source, salt, logN);
  const header = Buffer.alloc(HEADER_BYTES);
  ARCHIVE_MAGIC.copy(header, 0);
  header[8] = ARCHIVE_FORMAT;
  header[9] = source.kind === 'install' ? 1 : 2;
  header[10] = logN;
  salt.copy(header, 12);
  key.check.copy(header, 28);
  return { header, key };
}

export function writeManifestOffset(header: Buffer, offset: number): void {
  header.writeBigUInt64BE(BigInt(offset), OFFSET_AT);
}

export function parseArchiveHeader(bytes: Buffer): ArchiveHeader {
  if (bytes.length < HEADER_BYTES || !bytes.subarray(0, 8).equals(ARCHIVE_MAGIC)) throw damaged('it is not an Orepanel backup');
  const format = bytes[8];
  if (format > ARCHIVE_FORMAT) throw new BackupArchiveError('BACKUP_TOO_NEW', 'The backup was made by a newer panel (its archive format is unknown here): update the panel first.');
  if (format !== ARCHIVE_FORMAT || (bytes[9] !== 1 && bytes[9] !== 2)) throw damaged('its header is not readable');
  const offset = bytes.readBigUInt64BE(OFFSET_AT);
  if (offset < BigInt(HEADER_BYTES) || offset > BigInt(Number.MAX_SAFE_INTEGER)) throw damaged('it was not written to the end');
  return {
    format,
    source: bytes[9] === 1 ? 'install' : 'passphrase',
    scryptLogN: bytes[10],
    salt: Buffer.from(bytes.subarray(12, 28)),
    keyCheck: Buffer.from(bytes.subarray(28, 44)),
    manifestOffset: Number(offset),
    bound: Buffer.from(bytes.subarray(0, BOUND_BYTES)),
  };
}

/**
 * The key that opens an archive with this header: from the passphrase when the archive was made
 * with one, else from the install's key. Throws BACKUP_WRONG_KEY when the key check disagrees.
 */
export async function openArchiveKey(header: ArchiveHeader, secretKey: string, passphrase: string | null): Promise<ArchiveKey> {
  if (header.source === 'passphrase' && !passphrase) {
    throw new BackupArchiveError('BACKUP_WRONG_KEY', 'The backup is encrypted with a passphrase: set BACKUP_PASSPHRASE to the one it was made with.');
  }
  if (header.source === 'passphrase' && (header.scryptLogN < 10 || header.scryptLogN > 20)) throw damaged('its header is not readable');
  const source: BackupKeySource = header.source === 'passphrase' ? { kind: 'passphrase', passphrase: passphrase! } : { kind: 'install', secretKey };
  const key = await deriveArchiveKey(source, header.salt, header.scryptLogN);
  if (!timingSafeEqual(key.check, header.keyCheck)) {
    throw new BackupArchiveError(
      'BACKUP_WRONG_KEY',
      header.source === 'passphrase'
        ? 'The backup was made with another passphrase (BACKUP_PASSPHRASE).'
        : "The backup was made with another install's key: it opens only with the SECRET_KEY (or DATA_DIR/secret.key) of the panel that made it.",
    );
  }
  return key;
}

function nonce(stream: number, counter: number): Buffer {
  const iv = Buffer.alloc(12);
  iv.writeUInt32BE(stream, 0);
  iv.writeBigUInt64BE(BigInt(counter), 4);
  return iv;
}

function aad(bound: Buffer, stream: number, final: boolean): Buffer {
  return Buffer.concat([bound, Buffer.from([stream, final ? 1 : 0])]);
}

function sealFrame(key: Buffer, bound: Buffer, stream: number, counter: number, plain: Buffer, final: boolean): Buffer {
  const cipher = createCipheriv('aes-256-gcm', key, nonce(stream, counter));
  cipher.setAAD(aad(bound, stream, final));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  const head = Buffer.alloc(4);
  head.writeUInt32BE((final ? FINAL_FLAG : 0) + plain.length);
  return Buffer.concat([head, body, cipher.getAuthTag()]);
}

/** Plaintext in, sealed frames out; the last frame (at the end of the input) is final. */
export class FrameSealer extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private counter = 0;
  /** plaintext bytes taken so far */
  plainBytes = 0;

  constructor(
    private readonly key: Buffer,
    private readonly bound: Buffer,
    private readonly stream: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    this.plainBytes += chunk.length;
    if (this.pendingBytes > FRAME_BYTES) {
      let all = Buffer.concat(this.pending);
      // keep at least one byte back: the final frame must not be empty only because the input ended on a frame boundary
      while (all.length > FRAME_BYTES) {
        this.push(sealFrame(this.key, this.bound, this.stream, this.counter++, all.subarray(0, FRAME_BYTES), false));
        all = all.subarray(FRAME_BYTES);
      }
      this.pending = [all];
      this.pendingBytes = all.length;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.push(sealFrame(this.key, this.bound, this.stream, this.counter++, Buffer.concat(this.pending), true));
    this.pending = [];
    done();
  }
}

/** A whole small stream (the manifest) sealed at once. */
export function sealWhole(key: Buffer, bound: Buffer, stream: number, plain: Buffer): Buffer {
  const frames: Buffer[] = [];
  let counter = 0;
  let rest = plain;
  while (rest.length > FRAME_BYTES) {
    frames.push(sealFrame(key, bound, stream, counter++, rest.subarray(0, FRAME_BYTES), false));
    rest = rest.subarray(FRAME_BYTES);
  }
  frames.push(sealFrame(key, bound, stream, counter, rest, true));
  return Buffer.concat(frames);
}

/** Sealed frames in, plaintext out; a failed tag, a missing final frame or bytes after it: BACKUP_DAMAGED. */
export class FrameOpener extends Transform {
  private buffer: Buffer = Buffer.alloc(0);
  private counter = 0;
  private finished = false;

  constructor(
    private readonly key: Buffer,
    private readonly bound: Buffer,
    private readonly stream: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    try {
      for (;;) {
        if (this.buffer.length === 0) break;
        if (this.finished) throw damaged('there are bytes after its end');
        if (this.buffer.length < 4) break;
        const head = this.buffer.readUInt32BE(0);
        const final = (head & FINAL_FLAG) !== 0;
        const length = head & ~FINAL_FLAG;
        if (length > FRAME_BYTES) throw damaged('a frame is malformed');
        const total = 4 + length + TAG_BYTES;
        if (this.buffer.length < total) break;
        const decipher = createDecipheriv('aes-256-gcm', this.key, nonce(this.stream, this.counter++));
        decipher.setAAD(aad(this.bound, this.stream, final));
        decipher.setAuthTag(this.buffer.subarray(4 + length, total));
        let plain: Buffer;
        try {
          plain = Buffer.concat([decipher.update(this.buffer.subarray(4, 4 + length)), decipher.final()]);
        } catch {
          throw damaged('a part of it fails its authentication');
        }
        this.buffer = this.buffer.subarray(total);
        if (final) this.finished = true;
        if (plain.length > 0) this.push(plain);
      }
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.finished || this.buffer.length > 0) done(damaged('it is cut short'));
    else done();
  }
}

/** Opens a whole small sealed stream (the manifest). */
export function openWhole(key: Buffer, bound: Buffer, stream: number, sealed: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const opener = new FrameOpener(key, bound, stream);
    const parts: Buffer[] = [];
    opener.on('data', (part: Buffer) => parts.push(part));
    opener.on('error', reject);
    opener.on('end', () => resolve(Buffer.concat(parts)));
    opener.end(sealed);
  });
}
