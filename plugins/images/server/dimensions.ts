// A picture's width and height, read from its header (no decoding): PNG's IHDR, GIF's screen
// descriptor, WebP's VP8/VP8L/VP8X chunk, JPEG's first start-of-frame marker. null when the header
// says nothing readable — the size is a nicety for the grid, never a reason to refuse a file (the
// file service already decided by the bytes that it is one of these types).

export interface Dimensions {
  width: number;
  height: number;
}

const sane = (width: number, height: number): Dimensions | null => (width > 0 && height > 0 && width <= 100_000 && height <= 100_000 ? { width, height } : null);

function png(bytes: Buffer): Dimensions | null {
  if (bytes.length < 24 || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return sane(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
}

function gif(bytes: Buffer): Dimensions | null {
  return bytes.length < 10 ? null : sane(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
}

function webp(bytes: Buffer): Dimensions | null {
  if (bytes.length < 30) return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8X') return sane(1 + bytes.readUIntLE(24, 3), 1 + bytes.readUIntLE(27, 3));
  if (chunk === 'VP8 ') return sane(bytes.readUInt16LE(26) & 0x3fff, bytes.readUInt16LE(28) & 0x3fff);
  if (chunk === 'VP8L' && bytes[20] === 0x2f) {
    const bits = bytes.readUInt32LE(21);
    return sane((bits & 0x3fff) + 1, ((bits >> 14) & 0x3fff) + 1);
  }
  return null;
}

// start-of-frame markers (baseline, progressive, …), not DHT (C4), JPG (C8) or DAC (CC)
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function jpeg(bytes: Buffer): Dimensions | null {
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (SOF.has(marker)) return sane(bytes.readUInt16BE(at + 7), bytes.readUInt16BE(at + 5));
    at += 2 + bytes.readUInt16BE(at + 2);
  }
  return null;
}

const READERS: Readonly<Record<string, (bytes: Buffer) => Dimensions | null>> = { 'image/png': png, 'image/gif': gif, 'image/webp': webp, 'image/jpeg': jpeg };

export function imageDimensions(type: string, bytes: Buffer): Dimensions | null {
  try {
    return READERS[type]?.(bytes) ?? null;
  } catch {
    // a header cut short: no size, not an error
    return null;
  }
}
