// What a stored file is, decided by its bytes (never by its name or the browser's claim), and the
// metadata removed from images before they are kept: EXIF (GPS positions, camera serials), XMP and
// comments travel inside the file and would leak to whoever may download it.
import type { StoredFileType } from '../../sdk/server/files';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function startsWith(bytes: Buffer, prefix: readonly number[] | Buffer, offset = 0): boolean {
  if (bytes.length < offset + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[offset + i] !== prefix[i]) return false;
  return true;
}

function isUtf8Text(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The type of a whole file by its magic numbers; text is valid UTF-8 without NUL; null: refused. */
export function sniffFileType(bytes: Buffer): StoredFileType | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, Buffer.from('GIF87a')) || startsWith(bytes, Buffer.from('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, Buffer.from('RIFF')) && startsWith(bytes, Buffer.from('WEBP'), 8)) return 'image/webp';
  if (startsWith(bytes, Buffer.from('%PDF-'))) return 'application/pdf';
  if (bytes.length > 0 && isUtf8Text(bytes)) return 'text/plain';
  return null;
}

export class MalformedImageError extends Error {
  constructor(type: string) {
    super(`the ${type} file is damaged`);
    this.name = 'MalformedImageError';
  }
}

// JPEG markers without a length field: TEM, RSTn (SOI/EOI are handled around the loop).
function isStandaloneMarker(marker: number): boolean {
  return marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7);
}

/** Drops APP1 (EXIF, XMP), APP13 (Photoshop IPTC) and COM segments; the scan data is copied as is. */
export function stripJpeg(bytes: Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 2)];
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) throw new MalformedImageError('JPEG');
    const marker = bytes[at + 1];
    if (marker === undefined) throw new MalformedImageError('JPEG');
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === 0xd9 || isStandaloneMarker(marker)) {
      parts.push(bytes.subarray(at, at + 2));
      at += 2;
      if (marker === 0xd9) break;
      continue;
    }
    if (at + 4 > bytes.length) throw new MalformedImageError('JPEG');
    const length = bytes.readUInt16BE(at + 2);
    const end = at + 2 + length;
    if (length < 2 || end > bytes.length) throw new MalformedImageError('JPEG');
    if (marker === 0xda) {
      // start of scan: everything after it (entropy-coded data, later markers) is image data
      parts.push(bytes.subarray(at));
      at = bytes.length;
      break;
    }
    if (marker !== 0xe1 && marker !== 0xed && marker !== 0xfe) parts.push(bytes.subarray(at, end));
    at = end;
  }
  return Buffer.concat(parts);
}

const PNG_METADATA_CHUNKS = new Set(['tEXt', 'zTXt', 'iTXt', 'eXIf', 'tIME']);

/** Drops the textual, EXIF and time chunks; every other chunk (and its CRC) is kept byte for byte. */
export function stripPng(bytes: Buffer): Buffer {
  const parts: Buffer[] = [bytes.subarray(0, 8)];
  let at = 8;
  while (at < bytes.length) {
    if (at + 12 > bytes.length) throw new MalformedImageError('PNG');
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const end = at + 12 + length;
    if (end > bytes.length) throw new MalformedImageError('PNG');
    if (!PNG_METADATA_CHUNKS.has(type)) parts.push(bytes.subarray(at, end));
    at = end;
    if (type === 'IEND') break;
  }
  return Buffer.concat(parts);
}

// VP8X flag bits (WebP container spec): 0x08 EXIF present, 0x04 XMP present.
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

/** Drops the EXIF and XMP chunks and clears their VP8X flags; the RIFF size is rewritten. */
export function stripWebp(bytes: Buffer): Buffer {
  const chunks: Buffer[] = [];
  let at = 12;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) throw new MalformedImageError('WebP');
    const type = bytes.toString('latin1', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const end = at + 8 + size + (size % 2); // chunks are padded to an even size
    if (at + 8 + size > bytes.length) throw new MalformedImageError('WebP');
    const chunk = Buffer.from(bytes.subarray(at, Math.min(end, bytes.length)));
    if (type === 'VP8X' && size >= 1) chunk[8] = (chunk[8] ?? 0) & ~(VP8X_EXIF | VP8X_XMP);
    if (type !== 'EXIF' && type !== 'XMP ') chunks.push(chunk);
    at = end;
  }
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

/** The file as it is kept: images without their metadata, anything else unchanged. */
export function withoutMetadata(type: StoredFileType, bytes: Buffer): Buffer {
  switch (type) {
    case 'image/jpeg':
      return stripJpeg(bytes);
    case 'image/png':
      return stripPng(bytes);
    case 'image/webp':
      return stripWebp(bytes);
    default:
      return bytes;
  }
}
