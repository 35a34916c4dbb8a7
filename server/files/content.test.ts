// Type by bytes and metadata removal, on tiny images built here: the GPS position must be gone and
// the image still a well-formed file of its kind with its picture data untouched.
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MalformedImageError, sniffFileType, stripJpeg, stripPng, stripWebp, withoutMetadata } from './content';

const GPS = Buffer.from('GPSLatitude 44.4268N GPSLongitude 26.1025E');

// --- PNG -----------------------------------------------------------------------------------------
function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

const PIXELS = Buffer.from([0, 0xff, 0x00, 0x00]); // filter byte + one red RGB pixel

function png(extra: Buffer[]): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    ...extra,
    pngChunk('IDAT', deflateSync(PIXELS)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every chunk with its CRC checked; throws on a broken file. */
function pngChunks(bytes: Buffer): { type: string; data: Buffer }[] {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  const chunks: { type: string; data: Buffer }[] = [];
  for (let at = 8; at < bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length)).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    chunks.push({ type, data });
    at += 12 + length;
  }
  return chunks;
}

// --- JPEG ----------------------------------------------------------------------------------------
function segment(marker: number, data: Buffer): Buffer {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(data.length + 2, 2);
  return Buffer.concat([head, data]);
}

const JFIF = segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'latin1'));
const DQT = segment(0xdb, Buffer.concat([Buffer.from([0]), Buffer.alloc(64, 1)]));
const SOF0 = segment(0xc0, Buffer.from([8, 0, 1, 0, 1, 1, 1, 0x11, 0]));
const DHT = segment(0xc4, Buffer.concat([Buffer.from([0]), Buffer.from([0, 1]), Buffer.alloc(14), Buffer.from([0])]));
const SOS_AND_SCAN = Buffer.concat([segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])), Buffer.from([0x7f, 0xff, 0x00, 0xa0]), Buffer.from([0xff, 0xd9])]);

function jpeg(extra: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from([0xff, 0xd8]), JFIF, ...extra, DQT, SOF0, DHT, SOS_AND_SCAN]);
}

/** The marker of every segment up to the scan: the file must parse as a chain of segments. */
function jpegMarkers(bytes: Buffer): number[] {
  expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  const markers: number[] = [];
  for (let at = 2; ; ) {
    expect(bytes[at]).toBe(0xff);
    const marker = bytes[at + 1] as number;
    markers.push(marker);
    if (marker === 0xda) return markers;
    at += 2 + bytes.readUInt16BE(at + 2);
  }
}

// --- WebP ----------------------------------------------------------------------------------------
function riffChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

function webp(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(body.length + 4, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, body]);
}

const VP8L = riffChunk('VP8L', Buffer.from([0x2f, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xfe, 0x07, 0]));
const vp8x = (flags: number) => riffChunk('VP8X', Buffer.from([flags, 0, 0, 0, 0, 0, 0, 0, 0, 0]));

describe('sniffFileType', () => {
  it('decides the type by the bytes', () => {
    expect(sniffFileType(png([]))).toBe('image/png');
    expect(sniffFileType(jpeg([]))).toBe('image/jpeg');
    expect(sniffFileType(Buffer.from('GIF89a\x01\0\x01\0', 'latin1'))).toBe('image/gif');
    expect(sniffFileType(Buffer.from('GIF87a\x01\0\x01\0', 'latin1'))).toBe('image/gif');
    expect(sniffFileType(webp([VP8L]))).toBe('image/webp');
    expect(sniffFileType(Buffer.from('%PDF-1.7\n%âãÏÓ\n'))).toBe('application/pdf');
    expect(sniffFileType(Buffer.from('server log\nline 2 — ünïcode\n'))).toBe('text/plain');
  });

  it('refuses what it cannot name: binaries, NUL in text, invalid UTF-8, an empty file, a RIFF that is not WebP', () => {
    expect(sniffFileType(Buffer.from([0x4d, 0x5a, 0x90, 0x00]))).toBeNull(); // an .exe
    expect(sniffFileType(Buffer.from('text\0with NUL'))).toBeNull();
    expect(sniffFileType(Buffer.from([0x61, 0xc3, 0x28]))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
    expect(sniffFileType(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(sniffFileType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toBe('text/plain');
  });
});

describe('stripPng', () => {
  it('drops tEXt, zTXt, iTXt, eXIf and tIME and keeps a valid image with the same pixels', () => {
    const dirty = png([
      pngChunk('tEXt', Buffer.from('Comment\0secret')),
      pngChunk('zTXt', Buffer.concat([Buffer.from('Raw\0\0'), deflateSync(GPS)])),
      pngChunk('iTXt', Buffer.from('XML:com.adobe.xmp\0\0\0\0\0<x:xmpmeta/>')),
      pngChunk('eXIf', Buffer.concat([Buffer.from('MM\0*'), GPS])),
      pngChunk('tIME', Buffer.from([0x07, 0xea, 1, 2, 3, 4, 5])),
      pngChunk('pHYs', Buffer.from([0, 0, 0x0b, 0x13, 0, 0, 0x0b, 0x13, 1])),
    ]);
    const clean = stripPng(dirty);
    const chunks = pngChunks(clean);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'pHYs', 'IDAT', 'IEND']);
    expect(inflateSync(chunks[2]?.data ?? Buffer.alloc(0))).toEqual(PIXELS);
    expect(clean.includes(GPS)).toBe(false);
    expect(clean.includes(Buffer.from('secret'))).toBe(false);
  });

  it('refuses a truncated file', () => {
    const whole = png([]);
    expect(() => stripPng(whole.subarray(0, whole.length - 6))).toThrow(MalformedImageError);
  });
});

describe('stripJpeg', () => {
  it('drops APP1 (EXIF and XMP), APP13 and COM segments and keeps the rest byte for byte', () => {
    const exif = segment(0xe1, Buffer.concat([Buffer.from('Exif\0\0MM\0*'), GPS]));
    const xmp = segment(0xe1, Buffer.from('http://ns.adobe.com/xap/1.0/\0<x:xmpmeta>GPS</x:xmpmeta>'));
    const iptc = segment(0xed, Buffer.from('Photoshop 3.0\0 8BIM city'));
    const comment = segment(0xfe, Buffer.from('shot at home'));
    const clean = stripJpeg(jpeg([exif, xmp, iptc, comment]));
    expect(clean).toEqual(jpeg([]));
    expect(jpegMarkers(clean)).toEqual([0xe0, 0xdb, 0xc0, 0xc4, 0xda]);
    expect(clean.includes(GPS)).toBe(false);
    expect(clean.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
  });

  it('does not look for markers inside the scan data', () => {
    // 0xFF 0xE1 inside entropy-coded data after SOS is picture data, not a segment
    const withScanBytes = Buffer.concat([
      Buffer.from([0xff, 0xd8]),
      JFIF,
      DQT,
      SOF0,
      DHT,
      segment(0xda, Buffer.from([1, 1, 0, 0, 0x3f, 0])),
      Buffer.from([0xff, 0xe1, 0x12]),
      Buffer.from([0xff, 0xd9]),
    ]);
    expect(stripJpeg(withScanBytes)).toEqual(withScanBytes);
  });

  it('refuses a segment running past the end', () => {
    expect(() => stripJpeg(Buffer.concat([Buffer.from([0xff, 0xd8]), Buffer.from([0xff, 0xe1, 0x10, 0x00, 1, 2])]))).toThrow(MalformedImageError);
  });
});

describe('stripWebp', () => {
  it('drops EXIF and XMP chunks, clears their VP8X flags and rewrites the RIFF size', () => {
    const flags = 0x08 | 0x04 | 0x10; // EXIF, XMP, alpha
    const dirty = webp([vp8x(flags), VP8L, riffChunk('EXIF', Buffer.concat([Buffer.from('MM\0*'), GPS])), riffChunk('XMP ', Buffer.from('<x:xmpmeta>GPS</x:xmpmeta>'))]);
    const clean = stripWebp(dirty);
    expect(clean).toEqual(webp([vp8x(0x10), VP8L]));
    expect(clean.readUInt32LE(4)).toBe(clean.length - 8);
    expect(clean.includes(GPS)).toBe(false);
    expect(sniffFileType(clean)).toBe('image/webp');
  });
});

describe('withoutMetadata', () => {
  it('leaves GIF, PDF and text as they are', () => {
    const pdf = Buffer.from('%PDF-1.4\n/Author (me)\n');
    expect(withoutMetadata('application/pdf', pdf)).toBe(pdf);
    expect(withoutMetadata('text/plain', GPS)).toBe(GPS);
  });
});
