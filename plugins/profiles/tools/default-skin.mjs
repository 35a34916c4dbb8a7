// Draws the panel's own default Minecraft skin — a miner in the panel's colours with a mining helmet on
// the hat layer — and encodes it as a 64×64 RGBA PNG (the modern skin layout, classic 4-pixel arms).
// `node plugins/profiles/tools/default-skin.mjs` writes public/skins/default.png; the profiles tests
// decode that file and compare it with `defaultSkinPixels()`, so the two cannot drift apart.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

export const SKIN_SIZE = 64;

/** @typedef {[number, number, number, number]} Rgba */

/** @param {string} hex @returns {Rgba} */
const rgb = (hex) => [parseInt(hex.slice(1, 3), 16), parseInt(hex.slice(3, 5), 16), parseInt(hex.slice(5, 7), 16), 255];

const COLORS = {
  skin: rgb('#c98b65'),
  skinShade: rgb('#b07452'),
  hair: rgb('#3b2a1e'),
  eyeWhite: rgb('#f4f4f4'),
  iris: rgb('#3a5fcd'),
  mouth: rgb('#8a4b3a'),
  shirt: rgb('#6d7cff'),
  shirtShade: rgb('#5563d9'),
  belt: rgb('#4a3520'),
  buckle: rgb('#d8b24a'),
  pants: rgb('#2d3a5a'),
  pantsShade: rgb('#243049'),
  shoes: rgb('#222428'),
  helmet: rgb('#e8b923'),
  helmetShade: rgb('#c99a12'),
  lamp: rgb('#fff6a0'),
};

/**
 * The faces of a box part in the skin texture, from its top-left corner (u, v) and its size
 * (width w, height h, depth d), as Minecraft lays them out.
 * @param {number} u @param {number} v @param {number} w @param {number} h @param {number} d
 */
function boxFaces(u, v, w, h, d) {
  return {
    top: { x: u + d, y: v, w, h: d },
    bottom: { x: u + d + w, y: v, w, h: d },
    right: { x: u, y: v + d, w: d, h },
    front: { x: u + d, y: v + d, w, h },
    left: { x: u + d + w, y: v + d, w: d, h },
    back: { x: u + d + w + d, y: v + d, w, h },
  };
}

/** The base-layer parts (every one of their faces must be opaque) and the hat layer. */
export const SKIN_PARTS = {
  head: boxFaces(0, 0, 8, 8, 8),
  body: boxFaces(16, 16, 8, 12, 4),
  rightArm: boxFaces(40, 16, 4, 12, 4),
  leftArm: boxFaces(32, 48, 4, 12, 4),
  rightLeg: boxFaces(0, 16, 4, 12, 4),
  leftLeg: boxFaces(16, 48, 4, 12, 4),
};
export const HAT_LAYER = boxFaces(32, 0, 8, 8, 8);

/** The skin's pixels, RGBA row by row (transparent where the layout has nothing). */
export function defaultSkinPixels() {
  const pixels = new Uint8Array(SKIN_SIZE * SKIN_SIZE * 4);
  /** @param {number} x @param {number} y @param {Rgba} color */
  const set = (x, y, color) => pixels.set(color, (y * SKIN_SIZE + x) * 4);
  /** @param {{ x: number, y: number, w: number, h: number }} r @param {Rgba} color */
  const fill = (r, color) => {
    for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) set(x, y, color);
  };
  /** rows [from, to) of a face @param {{ x: number, y: number, w: number, h: number }} r @param {number} from @param {number} to */
  const rows = (r, from, to) => ({ x: r.x, y: r.y + from, w: r.w, h: to - from });

  // head: skin, hair on top, at the back and along the top of the sides and the face
  const head = SKIN_PARTS.head;
  for (const face of Object.values(head)) fill(face, COLORS.skin);
  fill(head.top, COLORS.hair);
  fill(head.back, COLORS.hair);
  fill(rows(head.back, 7, 8), COLORS.skinShade);
  fill(rows(head.front, 0, 2), COLORS.hair);
  fill(rows(head.right, 0, 3), COLORS.hair);
  fill(rows(head.left, 0, 3), COLORS.hair);
  fill(head.bottom, COLORS.skinShade);
  const face = head.front;
  set(face.x + 1, face.y + 4, COLORS.eyeWhite);
  set(face.x + 2, face.y + 4, COLORS.iris);
  set(face.x + 5, face.y + 4, COLORS.iris);
  set(face.x + 6, face.y + 4, COLORS.eyeWhite);
  set(face.x + 3, face.y + 5, COLORS.skinShade);
  set(face.x + 4, face.y + 5, COLORS.skinShade);
  set(face.x + 3, face.y + 6, COLORS.mouth);
  set(face.x + 4, face.y + 6, COLORS.mouth);

  // body: shirt with an open collar and a belt
  const body = SKIN_PARTS.body;
  for (const f of Object.values(body)) fill(f, COLORS.shirt);
  fill(rows(body.right, 0, body.right.h), COLORS.shirtShade);
  fill(rows(body.left, 0, body.left.h), COLORS.shirtShade);
  set(body.front.x + 3, body.front.y, COLORS.skin);
  set(body.front.x + 4, body.front.y, COLORS.skin);
  for (const f of [body.front, body.back, body.right, body.left]) fill(rows(f, f.h - 2, f.h - 1), COLORS.belt);
  set(body.front.x + 3, body.front.y + body.front.h - 2, COLORS.buckle);
  set(body.front.x + 4, body.front.y + body.front.h - 2, COLORS.buckle);
  fill(body.bottom, COLORS.pants);

  // arms: sleeves over the top third, hands below
  for (const arm of [SKIN_PARTS.rightArm, SKIN_PARTS.leftArm]) {
    for (const f of Object.values(arm)) fill(f, COLORS.skin);
    fill(arm.top, COLORS.shirt);
    for (const f of [arm.front, arm.back, arm.right, arm.left]) fill(rows(f, 0, 4), f === arm.front ? COLORS.shirt : COLORS.shirtShade);
    fill(arm.bottom, COLORS.skinShade);
  }

  // legs: trousers and shoes
  for (const leg of [SKIN_PARTS.rightLeg, SKIN_PARTS.leftLeg]) {
    for (const f of Object.values(leg)) fill(f, COLORS.pants);
    fill(rows(leg.right, 0, leg.right.h), COLORS.pantsShade);
    for (const f of [leg.front, leg.back, leg.right, leg.left]) fill(rows(f, f.h - 2, f.h), COLORS.shoes);
    fill(leg.bottom, COLORS.shoes);
  }

  // hat layer: a mining helmet (crown and the top three rows around the head) with a lamp in front
  fill(HAT_LAYER.top, COLORS.helmet);
  for (const f of [HAT_LAYER.front, HAT_LAYER.back, HAT_LAYER.right, HAT_LAYER.left]) {
    fill(rows(f, 0, 2), COLORS.helmet);
    fill(rows(f, 2, 3), COLORS.helmetShade);
  }
  set(HAT_LAYER.front.x + 3, HAT_LAYER.front.y, COLORS.lamp);
  set(HAT_LAYER.front.x + 4, HAT_LAYER.front.y, COLORS.lamp);
  set(HAT_LAYER.front.x + 3, HAT_LAYER.front.y + 1, COLORS.lamp);
  set(HAT_LAYER.front.x + 4, HAT_LAYER.front.y + 1, COLORS.lamp);
  return pixels;
}

// --- PNG ---------------------------------------------------------------------------------------

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 as PNG chunks use it (ISO 3309). @param {Uint8Array} bytes */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** @param {string} type @param {Uint8Array} data */
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  out.set(data, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** A PNG of RGBA pixels (8 bits per channel, no interlace, filter 0 on every row). @param {Uint8Array} pixels @param {number} width @param {number} height */
export function encodePng(pixels, width, height) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, colour type 6 (RGBA), deflate, filter set 0, no interlace
  const raw = Buffer.alloc(height * (1 + width * 4));
  for (let y = 0; y < height; y++) raw.set(pixels.subarray(y * width * 4, (y + 1) * width * 4), y * (1 + width * 4) + 1);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

export function defaultSkinPng() {
  return encodePng(defaultSkinPixels(), SKIN_SIZE, SKIN_SIZE);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const target = fileURLToPath(new URL('../../../public/skins/default.png', import.meta.url));
  writeFileSync(target, defaultSkinPng());
  console.log(`wrote ${target}`);
}
