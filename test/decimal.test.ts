import { describe, expect, test } from 'vitest';
import { numberFormat, roundDecimal, toDecimal } from '../src/decimal.ts';

// decimal.ts replaces Intl.NumberFormat: checked against Intl itself, value by value.

/** A seeded generator, so that a failure can be replayed. */
const random = (seed: number) => () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};

/** Values where rounding and writing are hard: halves, float tails, carries, exponents, signs. */
const hardValues = (): number[] => {
  const next = random(14);
  const values = [
    0, -0, 1, -1, 0.5, -0.5, 1.005, 2.675, 1.0005, 0.0005, -0.0005, 0.00049, 9.995, 99.995, 999.9995, 0.1 + 0.2, 1234.5, -1234.5, 999_999.999_5,
    1e21, 1.5e21, 123_456_789_012_345_680_000, 1e-7, 1.5e-7, -2.5e-10, 5e-324, Number.MAX_SAFE_INTEGER, 1e300, 12_345.678_9, 1000, 999, 100_000, 4_294_967_295.5,
  ];
  for (let k = 0; k < 3000; k += 1) {
    const magnitude = 10 ** Math.floor(next() * 12 - 4);
    const value = Math.round(next() * 1e6) / 1e3; // many ties at the third decimal
    values.push((next() < 0.3 ? -1 : 1) * value * magnitude, (next() < 0.5 ? -1 : 1) * next() * magnitude);
  }
  return values;
};

describe('numbers as Intl writes them', () => {
  const precisions = [
    [0, 0],
    [0, 2],
    [0, 3],
    [2, 2],
  ] as const;
  for (const locale of ['ru', 'en'] as const) {
    for (const [min, max] of precisions) {
      test(`${locale}, ${min}–${max} decimals: the same text as Intl.NumberFormat for ${hardValues().length} values`, () => {
        const intl = new Intl.NumberFormat(locale, { minimumFractionDigits: min, maximumFractionDigits: max, signDisplay: 'negative' });
        const format = numberFormat(locale, min, max);
        const differing = hardValues().filter((value) => format(value) !== intl.format(value));
        expect(differing.map((value) => [value, format(value), intl.format(value)])).toEqual([]);
      });
    }
  }

  test('Russian groups with no-break spaces and a decimal comma, English with commas and a point', () => {
    expect(numberFormat('ru', 0, 3)(-1234567.891)).toBe('-1\u00a0234\u00a0567,891');
    expect(numberFormat('en', 0, 3)(-1234567.891)).toBe('-1,234,567.891');
    expect(numberFormat('en', 2, 2)(5)).toBe('5.00');
    expect(numberFormat('ru', 0, 0)(999.5)).toBe('1\u00a0000');
  });

  test('rounds the decimal a number reads as, half away from zero, never to "-0"', () => {
    expect(numberFormat('en', 0, 2)(1.005)).toBe('1.01'); // toFixed(2) gives 1.00
    expect(numberFormat('en', 0, 2)(-1.005)).toBe('-1.01');
    expect(numberFormat('en', 0, 3)(-0.0004)).toBe('0');
    expect(toDecimal(-0.0004, 0, 3).negative).toBe(false);
    expect(numberFormat('en', 0, 3)(1e-7)).toBe('0');
    expect(numberFormat('en', 0, 0)(1e21)).toBe('1,000,000,000,000,000,000,000');
  });

  test('roundDecimal: the number the text reads as, for the workbook', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 3, useGrouping: false, signDisplay: 'negative' });
    for (const value of hardValues()) expect(roundDecimal(value, 3)).toBe(Number(intl.format(value)));
    expect(roundDecimal(0.1 + 0.2, 2)).toBe(0.3);
    expect(Object.is(roundDecimal(-0.0001, 2), 0)).toBe(true);
  });
});
