// The QR encoder against an independent one: the fixture holds, for each text and each of the eight
// masks, the version and the SHA-256 of the module matrix ('1' dark / '0' light, rows joined by \n)
// that the Python `qrcode` 8.2 package produces (byte mode, level M, no border). Versions 1, 2, 6,
// 11 and 19 cover one and several error correction blocks, alignment patterns and version info.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { encodeQr, penalty, qrPath } from '../client/qr-code';

interface Reference {
  text: string;
  version: number;
  sha256ByMask: string[];
}

const references = JSON.parse(readFileSync(new URL('./fixtures/qr-reference.json', import.meta.url), 'utf8')) as Reference[];

const digest = (modules: boolean[][]) =>
  createHash('sha256')
    .update(modules.map((row) => row.map((dark) => (dark ? '1' : '0')).join('')).join('\n'))
    .digest('hex');

describe('QR code encoder', () => {
  it.each(references.map((r) => [r.text.slice(0, 40), r] as const))('matches the reference matrices for %s', (_name, reference) => {
    for (let mask = 0; mask < 8; mask++) {
      const code = encodeQr(reference.text, mask);
      expect(code.version).toBe(reference.version);
      expect(code.size).toBe(reference.version * 4 + 17);
      expect(digest(code.modules), `mask ${mask}`).toBe(reference.sha256ByMask[mask]);
    }
  });

  it('picks the mask with the lowest penalty', () => {
    const text = references[1].text;
    const chosen = encodeQr(text);
    const scores = Array.from({ length: 8 }, (_, mask) => penalty(encodeQr(text, mask).modules));
    expect(penalty(chosen.modules)).toBe(Math.min(...scores));
    expect(chosen.mask).toBe(scores.indexOf(Math.min(...scores)));
  });

  it('refuses a text longer than version 40 holds', () => {
    expect(() => encodeQr('x'.repeat(2400))).toThrow(RangeError);
  });

  it('draws one square per dark module, inside the quiet zone', () => {
    const code = encodeQr('HELLO', 0);
    const dark = code.modules.flat().filter(Boolean).length;
    const path = qrPath(code);
    expect(path.match(/M/g)).toHaveLength(dark);
    expect(path.startsWith('M4 4h1v1h-1z')).toBe(true); // the top-left finder's corner
  });
});
