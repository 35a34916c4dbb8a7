// A QR code encoder (ISO/IEC 18004), small on purpose: byte mode, error correction level M, versions
// 1–40, the mask with the lowest penalty. Enough to show an otpauth:// address to a phone's camera
// without a dependency; tests/qr-code.test.ts checks its matrices against an independent encoder.

/** error correction codewords per block, level M, by version (index 0 unused) */
const ECC_PER_BLOCK = [
  -1, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];
/** error correction blocks, level M, by version */
const BLOCKS = [-1, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49];
/** the 2-bit code of level M in the format information */
const LEVEL_M_BITS = 0;

/** A QR code: `size`×`size` modules, `modules[y][x]` true for dark. */
export interface QrCode {
  version: number;
  size: number;
  mask: number;
  modules: boolean[][];
}

function bit(value: number, index: number): boolean {
  return ((value >>> index) & 1) !== 0;
}

/** Data modules (codeword bits) a version holds, without function patterns. */
function rawDataModules(version: number): number {
  let result = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    result -= (25 * align - 10) * align - 55;
    if (version >= 7) result -= 36;
  }
  return result;
}

function dataCodewords(version: number): number {
  return Math.floor(rawDataModules(version) / 8) - ECC_PER_BLOCK[version] * BLOCKS[version];
}

function alignmentPositions(version: number): number[] {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const result = [6];
  for (let pos = size - 7; result.length < count; pos -= step) result.splice(1, 0, pos);
  return result;
}

// Reed–Solomon over GF(256) with the polynomial x^8 + x^4 + x^3 + x^2 + 1 (0x11D)
function gfMultiply(x: number, y: number): number {
  let z = 0;
  for (let i = 7; i >= 0; i--) {
    z = (z << 1) ^ ((z >>> 7) * 0x11d);
    z ^= ((y >>> i) & 1) * x;
  }
  return z & 0xff;
}

function rsDivisor(degree: number): number[] {
  const result = new Array<number>(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data: readonly number[], divisor: readonly number[]): number[] {
  const result = new Array<number>(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ (result.shift() as number);
    result.push(0);
    divisor.forEach((coefficient, i) => (result[i] ^= gfMultiply(coefficient, factor)));
  }
  return result;
}

/** The data codewords: mode, length, bytes, terminator, padding. */
function encodeData(bytes: Uint8Array, version: number): number[] {
  const bits: number[] = [];
  const push = (value: number, length: number) => {
    for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1);
  };
  push(0b0100, 4); // byte mode
  push(bytes.length, version <= 9 ? 8 : 16);
  for (const b of bytes) push(b, 8);
  const capacity = dataCodewords(version) * 8;
  push(0, Math.min(4, capacity - bits.length));
  push(0, (8 - (bits.length % 8)) % 8);
  for (let pad = 0xec; bits.length < capacity; pad ^= 0xec ^ 0x11) push(pad, 8);
  const codewords: number[] = [];
  for (let i = 0; i < bits.length; i += 8) codewords.push(bits.slice(i, i + 8).reduce((acc, b) => (acc << 1) | b, 0));
  return codewords;
}

/** Splits into blocks, adds each block's error correction, interleaves. */
function withErrorCorrection(data: readonly number[], version: number): number[] {
  const blocks = BLOCKS[version];
  const eccLength = ECC_PER_BLOCK[version];
  const raw = Math.floor(rawDataModules(version) / 8);
  const shortBlocks = blocks - (raw % blocks);
  const shortLength = Math.floor(raw / blocks);
  const divisor = rsDivisor(eccLength);
  const all: number[][] = [];
  for (let i = 0, k = 0; i < blocks; i++) {
    const chunk = data.slice(k, k + shortLength - eccLength + (i < shortBlocks ? 0 : 1));
    k += chunk.length;
    const ecc = rsRemainder(chunk, divisor);
    if (i < shortBlocks) chunk.push(0); // a gap, skipped when interleaving
    all.push([...chunk, ...ecc]);
  }
  const result: number[] = [];
  for (let i = 0; i < all[0].length; i++) {
    all.forEach((block, j) => {
      if (i !== shortLength - eccLength || j >= shortBlocks) result.push(block[i]);
    });
  }
  return result;
}

const MASKS: readonly ((x: number, y: number) => boolean)[] = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

class Matrix {
  readonly modules: boolean[][];
  readonly reserved: boolean[][];
  constructor(readonly size: number) {
    this.modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
    this.reserved = Array.from({ length: size }, () => new Array<boolean>(size).fill(false));
  }
  fn(x: number, y: number, dark: boolean): void {
    this.modules[y][x] = dark;
    this.reserved[y][x] = true;
  }
}

function drawFunctionPatterns(m: Matrix, version: number): void {
  const { size } = m;
  for (let i = 0; i < size; i++) {
    m.fn(6, i, i % 2 === 0);
    m.fn(i, 6, i % 2 === 0);
  }
  for (const [cx, cy] of [
    [3, 3],
    [size - 4, 3],
    [3, size - 4],
  ]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx;
        const y = cy + dy;
        const distance = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) m.fn(x, y, distance !== 2 && distance !== 4);
      }
    }
  }
  const positions = alignmentPositions(version);
  const last = positions.length - 1;
  positions.forEach((cx, i) =>
    positions.forEach((cy, j) => {
      if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return; // the finders
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) m.fn(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }),
  );
  drawFormat(m, 0); // reserves the area; redrawn with the chosen mask
  if (version >= 7) {
    let rem = version;
    for (let i = 0; i < 12; i++) rem = (rem << 1) ^ ((rem >>> 11) * 0x1f25);
    const bits = (version << 12) | rem;
    for (let i = 0; i < 18; i++) {
      const a = size - 11 + (i % 3);
      const b = Math.floor(i / 3);
      m.fn(a, b, bit(bits, i));
      m.fn(b, a, bit(bits, i));
    }
  }
}

function drawFormat(m: Matrix, mask: number): void {
  const data = (LEVEL_M_BITS << 3) | mask;
  let rem = data;
  for (let i = 0; i < 10; i++) rem = (rem << 1) ^ ((rem >>> 9) * 0x537);
  const bits = ((data << 10) | rem) ^ 0x5412;
  const { size } = m;
  for (let i = 0; i <= 5; i++) m.fn(8, i, bit(bits, i));
  m.fn(8, 7, bit(bits, 6));
  m.fn(8, 8, bit(bits, 7));
  m.fn(7, 8, bit(bits, 8));
  for (let i = 9; i < 15; i++) m.fn(14 - i, 8, bit(bits, i));
  for (let i = 0; i < 8; i++) m.fn(size - 1 - i, 8, bit(bits, i));
  for (let i = 8; i < 15; i++) m.fn(8, size - 15 + i, bit(bits, i));
  m.fn(8, size - 8, true); // the dark module
}

function drawCodewords(m: Matrix, codewords: readonly number[]): void {
  const { size } = m;
  let i = 0;
  for (let right = size - 1; right >= 1; right -= 2) {
    if (right === 6) right = 5; // skip the vertical timing pattern
    for (let vertical = 0; vertical < size; vertical++) {
      for (let j = 0; j < 2; j++) {
        const x = right - j;
        const upward = ((right + 1) & 2) === 0;
        const y = upward ? size - 1 - vertical : vertical;
        if (!m.reserved[y][x] && i < codewords.length * 8) {
          m.modules[y][x] = bit(codewords[i >>> 3], 7 - (i & 7));
          i++;
        }
      }
    }
  }
}

function applyMask(m: Matrix, mask: number): void {
  for (let y = 0; y < m.size; y++) for (let x = 0; x < m.size; x++) if (!m.reserved[y][x] && MASKS[mask](x, y)) m.modules[y][x] = !m.modules[y][x];
}

/** The standard's penalty score (rules N1–N4); the lowest wins. */
export function penalty(modules: readonly (readonly boolean[])[]): number {
  const size = modules.length;
  const at = (x: number, y: number, vertical: boolean) => (vertical ? modules[x][y] : modules[y][x]);
  let score = 0;
  for (const vertical of [false, true]) {
    for (let y = 0; y < size; y++) {
      // N1: runs of five or more of one colour
      let run = 1;
      for (let x = 1; x <= size; x++) {
        if (x < size && at(x, y, vertical) === at(x - 1, y, vertical)) run++;
        else {
          if (run >= 5) score += run - 2;
          run = 1;
        }
      }
      // N3: dark-light-dark×3-light-dark with four light modules on one side (outside counts as light)
      const light = (x: number) => x < 0 || x >= size || !at(x, y, vertical);
      for (let x = -4; x < size; x++) {
        const core = [0, 2, 3, 4, 6].every((d) => !light(x + d)) && [1, 5].every((d) => light(x + d));
        if (!core) continue;
        const before = [-1, -2, -3, -4].every((d) => light(x + d));
        const after = [7, 8, 9, 10].every((d) => light(x + d));
        if (before || after) score += 40;
      }
    }
  }
  // N2: 2×2 blocks of one colour
  for (let y = 0; y < size - 1; y++) {
    for (let x = 0; x < size - 1; x++) {
      const c = modules[y][x];
      if (c === modules[y][x + 1] && c === modules[y + 1][x] && c === modules[y + 1][x + 1]) score += 3;
    }
  }
  // N4: balance of dark and light
  const dark = modules.reduce((sum, row) => sum + row.filter(Boolean).length, 0);
  const total = size * size;
  score += Math.floor(Math.abs(dark * 20 - total * 10) / total) * 10;
  return score;
}

/**
 * Encodes `text` (UTF-8) in the smallest version that holds it, at level M.
 * @param forcedMask a mask 0–7 instead of the lowest-penalty one (tests)
 * @throws RangeError when the text does not fit in version 40
 */
export function encodeQr(text: string, forcedMask?: number): QrCode {
  const bytes = new TextEncoder().encode(text);
  let version = 1;
  while (version <= 40 && 4 + (version <= 9 ? 8 : 16) + bytes.length * 8 > dataCodewords(version) * 8) version++;
  if (version > 40) throw new RangeError('The text is too long for a QR code.');
  const size = version * 4 + 17;
  const base = new Matrix(size);
  drawFunctionPatterns(base, version);
  drawCodewords(base, withErrorCorrection(encodeData(bytes, version), version));

  const candidates = forcedMask === undefined ? [0, 1, 2, 3, 4, 5, 6, 7] : [forcedMask];
  let best: { mask: number; modules: boolean[][]; score: number } | null = null;
  for (const mask of candidates) {
    const m = new Matrix(size);
    base.modules.forEach((row, y) => row.forEach((dark, x) => ((m.modules[y][x] = dark), (m.reserved[y][x] = base.reserved[y][x]))));
    applyMask(m, mask);
    drawFormat(m, mask);
    const score = penalty(m.modules);
    if (!best || score < best.score) best = { mask, modules: m.modules, score };
  }
  return { version, size, mask: best!.mask, modules: best!.modules };
}

/** The dark modules as one SVG path (1 unit per module, `quiet` units of margin). */
export function qrPath(code: QrCode, quiet = 4): string {
  const parts: string[] = [];
  code.modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + quiet} ${y + quiet}h1v1h-1z`);
    }),
  );
  return parts.join('');
}
