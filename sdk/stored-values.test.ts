// storedCount: what a row may hand back for a count (numbers, PostgreSQL's text and bigint counts)
// is taken; whatever no request could have written is null, never NaN, Infinity or a negative.
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT } from './schema';
import { storedCount } from './stored-values';

describe('storedCount', () => {
  it('takes whole numbers in range, as numbers, digit strings and bigints', () => {
    expect(storedCount(0)).toBe(0);
    expect(storedCount(42)).toBe(42);
    expect(storedCount('42')).toBe(42);
    expect(storedCount(42n)).toBe(42);
    expect(storedCount(MAX_AMOUNT)).toBe(MAX_AMOUNT);
    expect(storedCount(7, 7, 7)).toBe(7);
  });

  it.each([
    ['-Infinity', -Infinity],
    ['Infinity', Infinity],
    ['NaN', NaN],
    ['a negative', -1],
    ['a fraction', 1.5],
    ['above the maximum', MAX_AMOUNT + 1],
    ['beyond 2^53', 2 ** 53 + 2],
    ['null', null],
    ['undefined', undefined],
    ['text', 'lots'],
    ['an empty string', ''],
    ['a padded string', ' 5'],
    ['a decimal string', '5.0'],
    ['an exponent string', '1e3'],
    ['a negative string', '-5'],
    ['a boolean', true],
  ])('refuses %s', (_label, value) => {
    expect(storedCount(value)).toBeNull();
  });

  it('holds the bounds it is given', () => {
    expect(storedCount(101, 100)).toBeNull();
    expect(storedCount(0, 100, 1)).toBeNull();
  });
});
