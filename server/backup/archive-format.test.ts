// The archive's building blocks: names, the neutral form of values, and the framed encryption that
// refuses a stream cut at a frame boundary, frames swapped, a flag flipped or bytes appended.
import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { BackupArchiveError } from '../../sdk/server/panel-backup';
import { archiveName, checkArchiveName, isArchiveName, parseArchiveName } from './archive-name';
import { DATA_STREAM, FRAME_BYTES, FrameSealer, MANIFEST_STREAM, openWhole, sealWhole } from './archive-crypto';
import { decodeCell, encodeCell, rowLine } from './neutral-form';

const KEY = randomBytes(32);
const BOUND = randomBytes(28);

async function seal(plain: Buffer, stream = DATA_STREAM): Promise<Buffer> {
  const out: Buffer[] = [];
  // in uneven pieces, as a pipeline hands them over
  const pieces = [];
  for (let at = 0; at < plain.length; at += 7001) pieces.push(plain.subarray(at, at + 7001));
  await pipeline(
    Readable.from(pieces),
    new FrameSealer(KEY, BOUND, stream),
    new Writable({
      write(chunk, _encoding, done) {
        out.push(chunk);
        done();
      },
    }),
  );
  return Buffer.concat(out);
}

/** the frames of a sealed stream, as separate buffers */
function frames(sealed: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < sealed.length; ) {
    const length = sealed.readUInt32BE(at) & 0x7fff_ffff;
    out.push(sealed.subarray(at, at + 4 + length + 16));
    at += 4 + length + 16;
  }
  return out;
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof BackupArchiveError) return error.code;
    throw error;
  }
  return 'opened';
}

describe('archive names', () => {
  it('accepts only the folder’s own shape', () => {
    const name = archiveName('before-restore', new Date('2026-11-26T15:40:05.123Z'));
    expect(name).toBe('orepanel-20261126-154005-before-restore.opbk');
    expect(archiveName('manual', new Date('2026-11-26T15:40:05Z'), 2)).toBe('orepanel-20261126-154005-2-manual.opbk');
    expect(parseArchiveName(name)).toEqual({ kind: 'before-restore', createdAt: '2026-11-26T15:40:05.000Z' });
    for (const bad of [
      '../secret.key',
      'orepanel-20261126-154005-manual.opbk/..',
      '/etc/passwd',
      'orepanel-20261126-154005-root.opbk',
      'orepanel-2026112-154005-manual.opbk',
      'x.opbk',
      '',
    ]) {
      expect(isArchiveName(bad), bad).toBe(false);
      expect(() => checkArchiveName(bad)).toThrow(BackupArchiveError);
    }
  });
});

describe('the neutral form', () => {
  it('keeps integers exact, bytes, dates and flags, the same whatever driver read them', () => {
    expect(encodeCell(42n)).toBe(42);
    expect(encodeCell(9007199254740993n)).toEqual({ $int: '9007199254740993' });
    expect(encodeCell(-9007199254740993n)).toEqual({ $int: '-9007199254740993' });
    expect(encodeCell(Buffer.from([0, 255]))).toEqual({ $bytes: 'AP8=' });
    expect(encodeCell(new Date('2026-11-26T15:40:05.000Z'))).toBe('2026-11-26T15:40:05.000Z');
    expect(encodeCell(true)).toBe(1);
    expect(encodeCell(Number.NaN)).toEqual({ $num: 'NaN' });
    expect(encodeCell(undefined)).toBeNull();
    expect(decodeCell({ $int: '9007199254740993' }, 'bigint')).toBe(9007199254740993n);
    expect(decodeCell({ $int: '9007199254740993' }, 'text')).toBe('9007199254740993');
    expect(decodeCell({ $bytes: 'AP8=' }, 'text')).toEqual(Buffer.from([0, 255]));
    expect(() => decodeCell({ $evil: 1 }, 'text')).toThrow();
    // a row from SQLite (BigInt), PostgreSQL (number) or MariaDB reads as the same line
    expect(rowLine([1n, 'a', null])).toBe(rowLine([1, 'a', null]));
  });
});

describe('framed encryption', () => {
  it('opens what it sealed, at every size around a frame', async () => {
    for (const size of [0, 1, FRAME_BYTES - 1, FRAME_BYTES, FRAME_BYTES + 1, 3 * FRAME_BYTES + 17]) {
      const plain = randomBytes(size);
      const sealed = await seal(plain);
      expect((await openWhole(KEY, BOUND, DATA_STREAM, sealed)).equals(plain), String(size)).toBe(true);
      expect((await openWhole(KEY, BOUND, DATA_STREAM, sealWhole(KEY, BOUND, DATA_STREAM, plain))).equals(plain), `whole ${size}`).toBe(true);
    }
  });

  it('refuses a cut, a swap, a flipped final flag, appended bytes, another stream and another key', async () => {
    const plain = randomBytes(3 * FRAME_BYTES + 100);
    const sealed = await seal(plain);
    const parts = frames(sealed);
    expect(parts).toHaveLength(4);
    // cut at a frame boundary: every remaining frame is intact, only the final flag is missing
    expect(await refusal(openWhole(KEY, BOUND, DATA_STREAM, Buffer.concat(parts.slice(0, 3))))).toBe('BACKUP_DAMAGED');
    expect(await refusal(openWhole(KEY, BOUND, DATA_STREAM, Buffer.concat([parts[1], parts[0], parts[2], parts[3]])))).toBe('BACKUP_DAMAGED');
    const flagged = Buffer.from(parts[2]);
    flagged[0] |= 0x80;
    expect(await refusal(openWhole(KEY, BOUND, DATA_STREAM, Buffer.concat([parts[0], parts[1], flagged])))).toBe('BACKUP_DAMAGED');
    expect(await refusal(openWhole(KEY, BOUND, DATA_STREAM, Buffer.concat([sealed, Buffer.from([1, 2, 3])])))).toBe('BACKUP_DAMAGED');
    expect(await refusal(openWhole(KEY, BOUND, MANIFEST_STREAM, sealed))).toBe('BACKUP_DAMAGED');
    expect(await refusal(openWhole(randomBytes(32), BOUND, DATA_STREAM, sealed))).toBe('BACKUP_DAMAGED');
  });
});
