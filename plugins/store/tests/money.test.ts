// Money is integer minor units end to end: parsing what a buyer types, writing amounts as PayPal
// wants them, and the coins an amount buys — exact where floating point would not be.
import { describe, expect, it } from 'vitest';
import { coinsForAmount, currencyExponent, formatMinor, parseMoney } from '../shared/money';

describe('money in minor units', () => {
  it('knows the currencies whose minor unit is not a hundredth', () => {
    expect([currencyExponent('EUR'), currencyExponent('usd'), currencyExponent('JPY'), currencyExponent('KWD')]).toEqual([2, 2, 0, 3]);
  });

  it('parses typed amounts exactly, with a dot or a comma, and refuses the rest', () => {
    expect(parseMoney('5', 2)).toBe(500);
    expect(parseMoney(' 5.5 ', 2)).toBe(550);
    expect(parseMoney('0,29', 2)).toBe(29);
    expect(parseMoney('1.29', 2)).toBe(129); // 1.29 * 100 is 128.99999999999997 in floating point
    expect(parseMoney('1000', 0)).toBe(1000);
    expect(parseMoney('1.234', 3)).toBe(1234);
    for (const bad of ['', '5.', '.5', '-5', '5.555', '1e3', '5 EUR', '0x10', '1,000.00', '99999999999999999999']) expect(parseMoney(bad, 2), bad).toBeNull();
    expect(parseMoney('5.5', 0)).toBeNull();
    expect(parseMoney('5,50', 2, { allowComma: false })).toBeNull();
  });

  it('writes minor units as decimal text', () => {
    expect([formatMinor(550, 2), formatMinor(5, 2), formatMinor(0, 2), formatMinor(1234, 0), formatMinor(1234, 3)]).toEqual(['5.50', '0.05', '0.00', '1234', '1.234']);
    expect(() => formatMinor(1.5, 2)).toThrow(RangeError);
    expect(() => formatMinor(-1, 2)).toThrow(RangeError);
  });

  it('counts whole coins, rounding down, without floating point', () => {
    expect(coinsForAmount(550, 100, 2)).toBe(550);
    expect(coinsForAmount(129, 100, 2)).toBe(129);
    expect(coinsForAmount(105, 10, 2)).toBe(10); // 1.05 € at 10 coins per euro: 10.5 → 10
    expect(coinsForAmount(1000, 3, 0)).toBe(3000);
    expect(coinsForAmount(10_000_000, 1_000_000, 2)).toBe(100_000_000_000);
  });
});
