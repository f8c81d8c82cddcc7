import { describe, expect, it } from 'vitest';
import { isQueryValue, parseDate, parseLookupValue } from '../src/query.ts';

describe('parseLookupValue', () => {
  it('gives the value as the portal gets it: white space folded, dates as ISO dates', () => {
    expect(parseLookupValue('SAP_ID', '0007300100')).toEqual({ ok: true, value: '0007300100' });
    expect(parseLookupValue('POSITION[MATERIAL_NAME]', ' труба\t\u0000 530 ')).toEqual({ ok: true, value: 'труба 530' });
    expect(parseLookupValue('DATE_ORDER', '15.03.2026')).toEqual({ ok: true, value: '2026-03-15' });
    expect(parseLookupValue('ORDER[DATE_ORDER]', '2026-03-15')).toEqual({ ok: true, value: '2026-03-15' });
  });

  it('refuses what parseLookupArgs refuses for a value', () => {
    expect(parseLookupValue('STATUS', ' \u0007 ')).toEqual({ ok: false, reason: 'missingValue' });
    expect(parseLookupValue('STATUS', 'x'.repeat(101))).toEqual({ ok: false, reason: 'tooLong', max: 100 });
    expect(parseLookupValue('DATE_ORDER', 'notadate')).toEqual({ ok: false, reason: 'badDate', value: 'notadate' });
  });
});

describe('parseDate', () => {
  it('accepts both forms of a real date only', () => {
    expect(parseDate('2026-03-15')).toBe('2026-03-15');
    expect(parseDate('15.03.2026')).toBe('2026-03-15');
    expect(parseDate('29.02.2028')).toBe('2028-02-29');
    expect(parseDate('29.02.2026')).toBeUndefined();
    expect(parseDate('2026-13-01')).toBeUndefined();
    expect(parseDate('15/03/2026')).toBeUndefined();
    expect(parseDate('2026-3-15')).toBeUndefined();
  });
});

describe('isQueryValue', () => {
  it('holds only for a value exactly as a typed command gives it: what a button or the store may carry', () => {
    expect(isQueryValue('SAP_ID', '0007300100')).toBe(true);
    expect(isQueryValue('DATE_ORDER', '2026-03-15')).toBe(true);
    expect(isQueryValue('DATE_ORDER', '15.03.2026')).toBe(false);
    expect(isQueryValue('POSITION[MATERIAL_NAME]', 'труба  530')).toBe(false);
    expect(isQueryValue('STATUS', ' ')).toBe(false);
    expect(isQueryValue('STATUS', 'x'.repeat(101))).toBe(false);
  });
});
