// A picture's pixel size from its header, for each type the library takes; a header cut short or
// saying nonsense gives no size rather than an error (the size is a nicety, never a refusal).
import { describe, expect, it } from 'vitest';
import { imageDimensions } from '../server/dimensions';

const le16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const le24 = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, n >> 16]);
const riff = (chunk: string, body: Buffer) => Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBP'), Buffer.from(chunk, 'latin1'), Buffer.alloc(4), body]);

describe('imageDimensions', () => {
  it('reads PNG and GIF headers', () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.from('IHDR'), Buffer.from([0, 0, 2, 0, 0, 0, 1, 0])]);
    expect(imageDimensions('image/png', png)).toEqual({ width: 512, height: 256 });
    expect(imageDimensions('image/gif', Buffer.concat([Buffer.from('GIF89a'), le16(300), le16(200)]))).toEqual({ width: 300, height: 200 });
  });

  it('reads the three kinds of WebP', () => {
    // VP8X: canvas size minus one, 24 bits each, after 4 bytes of flags
    expect(imageDimensions('image/webp', riff('VP8X', Buffer.concat([Buffer.alloc(4), le24(799), le24(599)])))).toEqual({ width: 800, height: 600 });
    // VP8 (lossy): a frame tag and start code, then 14-bit sizes
    expect(imageDimensions('image/webp', riff('VP8 ', Buffer.concat([Buffer.from([0, 0, 0, 0x9d, 0x01, 0x2a]), le16(640), le16(480)])))).toEqual({ width: 640, height: 480 });
    // VP8L (lossless): signature 0x2f, then width-1 and height-1 in 14 bits each
    const bits = (100 - 1) | ((50 - 1) << 14);
    const vp8l = Buffer.alloc(5);
    vp8l[0] = 0x2f;
    vp8l.writeUInt32LE(bits, 1);
    expect(imageDimensions('image/webp', riff('VP8L', Buffer.concat([vp8l, Buffer.alloc(16)])))).toEqual({ width: 100, height: 50 });
  });

  it('finds a JPEG frame header after other segments', () => {
    const app0 = Buffer.concat([Buffer.from([0xff, 0xe0, 0x00, 0x10]), Buffer.alloc(14)]);
    const sof2 = Buffer.from([0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    expect(imageDimensions('image/jpeg', Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof2]))).toEqual({ width: 640, height: 480 });
  });

  it('gives no size for a header cut short, a zero size, or a type it does not read', () => {
    expect(imageDimensions('image/png', Buffer.from([0x89, 0x50]))).toBeNull();
    expect(imageDimensions('image/gif', Buffer.concat([Buffer.from('GIF89a'), le16(0), le16(5)]))).toBeNull();
    expect(imageDimensions('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff]))).toBeNull();
    expect(imageDimensions('image/svg+xml', Buffer.from('<svg width="5" height="5"/>'))).toBeNull();
  });
});
