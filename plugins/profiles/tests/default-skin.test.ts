// The default Minecraft skin shipped in public/skins/ is a valid 64×64 RGBA PNG in the modern skin
// layout: every chunk's CRC holds, it decodes to exactly the pixels the generator draws (so the file
// and tools/default-skin.mjs cannot drift apart), every face of the base layer is opaque (Minecraft
// and skinview3d draw holes otherwise) and the arms are the classic 4-pixel ones.
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32, defaultSkinPixels, HAT_LAYER, SKIN_PARTS, SKIN_SIZE } from '../tools/default-skin.mjs';

const file = readFileSync(new URL('../../../public/skins/default.png', import.meta.url));

interface Chunk {
  type: string;
  data: Buffer;
}

function chunksOf(png: Buffer): Chunk[] {
  expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const out: Chunk[] = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('ascii', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    expect(png.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(png.subarray(at + 4, at + 8 + length)));
    out.push({ type, data });
    at += 12 + length;
  }
  return out;
}

function decode(png: Buffer): Uint8Array {
  const chunks = chunksOf(png);
  expect(chunks[0].type).toBe('IHDR');
  expect(chunks.at(-1)?.type).toBe('IEND');
  const header = chunks[0].data;
  // width, height, bit depth 8, colour type 6 (RGBA), deflate, filter set 0, no interlace
  expect([header.readUInt32BE(0), header.readUInt32BE(4), ...header.subarray(8, 13)]).toEqual([64, 64, 8, 6, 0, 0, 0]);
  const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data)));
  const stride = 1 + SKIN_SIZE * 4;
  expect(raw.length).toBe(SKIN_SIZE * stride);
  const pixels = new Uint8Array(SKIN_SIZE * SKIN_SIZE * 4);
  for (let y = 0; y < SKIN_SIZE; y++) {
    expect(raw[y * stride], `filter of row ${y}`).toBe(0);
    pixels.set(raw.subarray(y * stride + 1, (y + 1) * stride), y * SKIN_SIZE * 4);
  }
  return pixels;
}

const alphaAt = (pixels: Uint8Array, x: number, y: number) => pixels[(y * SKIN_SIZE + x) * 4 + 3];

describe('the default skin (public/skins/default.png)', () => {
  const pixels = decode(file);

  it('is the generator’s drawing, pixel for pixel', () => {
    expect(Buffer.from(pixels).equals(Buffer.from(defaultSkinPixels()))).toBe(true);
  });

  it('has every face of the base layer opaque', () => {
    for (const [part, faces] of Object.entries(SKIN_PARTS)) {
      for (const [face, r] of Object.entries(faces)) {
        for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) expect(alphaAt(pixels, x, y), `${part}.${face} at ${x},${y}`).toBe(255);
      }
    }
  });

  it('has classic (4-pixel) arms and a helmet on the hat layer, the rest of the overlay left clear', () => {
    // skinview3d's slim-arm detection looks at the last column of the right arm's back face
    expect(alphaAt(pixels, 55, 20)).toBe(255);
    expect(alphaAt(pixels, HAT_LAYER.top.x, HAT_LAYER.top.y)).toBe(255);
    expect(alphaAt(pixels, HAT_LAYER.front.x, HAT_LAYER.front.y + 7)).toBe(0);
    // the body overlay (the jacket layer) is empty
    expect(alphaAt(pixels, 20, 36)).toBe(0);
  });
});
