import { describe, expect, test } from 'vitest';
import { parseTzString } from '../src/tz-string.ts';

// The rules of a TZif file's footer, for every moment after its last change (zone.test.ts checks
// whole files against Intl).

describe('TZ strings: the rules after a file’s last change', () => {
  const at = (iso: string) => Math.floor(Date.parse(iso) / 1000);

  test('European rules: the last Sunday of March at 01:00 UTC, of October at 01:00 UTC', () => {
    const berlin = parseTzString('CET-1CEST,M3.5.0,M10.5.0/3')!;
    expect(berlin(at('2080-03-31T00:59:59Z'))).toBe(3600);
    expect(berlin(at('2080-03-31T01:00:00Z'))).toBe(7200);
    expect(berlin(at('2080-10-27T00:59:59Z'))).toBe(7200);
    expect(berlin(at('2080-10-27T01:00:00Z'))).toBe(3600);
  });

  test('southern daylight time across the new year; a change at 24:00; quarter hours', () => {
    const santiago = parseTzString('<-04>4<-03>,M9.1.6/24,M4.1.6/24')!;
    expect(santiago(at('2081-01-15T12:00:00Z'))).toBe(-3 * 3600);
    expect(santiago(at('2081-06-15T12:00:00Z'))).toBe(-4 * 3600);
    const chatham = parseTzString('<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45')!;
    expect(chatham(at('2081-01-15T00:00:00Z'))).toBe(13 * 3600 + 45 * 60);
    expect(chatham(at('2081-07-15T00:00:00Z'))).toBe(12 * 3600 + 45 * 60);
  });

  test('Julian days with and without February 29, daylight all year, no daylight time', () => {
    // Jn never counts February 29: J60 is March 1 in any year; n counts from 0 with it.
    const julian = parseTzString('AAA0BBB,J60/0,J61/0')!;
    expect(julian(at('2028-03-01T12:00:00Z'))).toBe(3600);
    expect(julian(at('2028-02-29T12:00:00Z'))).toBe(0);
    const zeroBased = parseTzString('AAA0BBB,59/0,60/0')!;
    expect(zeroBased(at('2028-02-29T12:00:00Z'))).toBe(3600);
    expect(zeroBased(at('2027-03-01T12:00:00Z'))).toBe(3600);
    const always = parseTzString('EST5EDT,0/0,J365/25')!;
    expect(always(at('2030-01-01T12:00:00Z'))).toBe(-4 * 3600);
    expect(always(at('2030-07-01T12:00:00Z'))).toBe(-4 * 3600);
    expect(parseTzString('<+03>-3')!(at('2090-01-01T00:00:00Z'))).toBe(3 * 3600);
  });

  test('anything else is not read', () => {
    for (const text of ['', 'MSK', '3', 'CET-1CEST,M13.5.0,M10.5.0', 'CET-1CEST,M3.6.0,M10.5.0', 'CET-1CEST,J366,J1', 'CET-1CEST,M3.5.0/170,M10.5.0', 'CET-25']) {
      expect(parseTzString(text)).toBeNull();
    }
  });
});
