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
  it('accepts the numeric forms of a real date only', () => {
    expect(parseDate('2026-03-15')).toBe('2026-03-15');
    expect(parseDate('15.03.2026')).toBe('2026-03-15');
    expect(parseDate('15.03.26')).toBe('2026-03-15');
    expect(parseDate('5.3.2026')).toBe('2026-03-05');
    expect(parseDate('29.02.2028')).toBe('2028-02-29');
    expect(parseDate('29.02.2026')).toBeUndefined();
    expect(parseDate('31.04.26')).toBeUndefined();
    expect(parseDate('2026-13-01')).toBeUndefined();
    expect(parseDate('15/03/2026')).toBeUndefined();
    expect(parseDate('2026-3-15')).toBeUndefined();
    expect(parseDate('15.03.202')).toBeUndefined();
  });

  it('reads words and month names against the day it is now (ISO, in TIME_ZONE)', () => {
    const today = '2026-03-01';
    expect(parseDate('сегодня', today)).toBe('2026-03-01');
    expect(parseDate('Today', today)).toBe('2026-03-01');
    expect(parseDate('вчера', today)).toBe('2026-02-28');
    expect(parseDate('yesterday', '2026-01-01')).toBe('2025-12-31');
    expect(parseDate('15 марта', today)).toBe('2026-03-15');
    expect(parseDate('15 Марта 2025', today)).toBe('2025-03-15');
    expect(parseDate('15 марта 2025 г.', today)).toBe('2025-03-15');
    expect(parseDate('1 мая', today)).toBe('2026-05-01');
    expect(parseDate('15 мар 2026', today)).toBe('2026-03-15');
    expect(parseDate('15 Mar 2026', today)).toBe('2026-03-15');
    expect(parseDate('3 september', today)).toBe('2026-09-03');
    expect(parseDate('30 февраля', today)).toBeUndefined();
    expect(parseDate('15 мартобря', today)).toBeUndefined();
    expect(parseDate('завтра', today)).toBeUndefined();
  });

  it('needs the day it is now for words and for a date without a year, so a button carries only ISO dates', () => {
    expect(parseDate('сегодня')).toBeUndefined();
    expect(parseDate('15 марта')).toBeUndefined();
    expect(parseDate('15 марта 2026')).toBe('2026-03-15');
  });
});

describe('identifiers as the portal writes them', () => {
  it('pads SAP numbers and material codes, writes CRM ids, contracts and status types in capitals, the rest as typed', () => {
    expect(parseLookupValue('SAP_ID', '7300100')).toEqual({ ok: true, value: '0007300100' });
    expect(parseLookupValue('SAP_ID', 'A-1')).toEqual({ ok: true, value: 'A-1' });
    expect(parseLookupValue('POSITION[MATERIAL_SAP_ID]', '10012345')).toEqual({ ok: true, value: '000000000010012345' });
    expect(parseLookupValue('CRM_ID', 'crm-2026-004512')).toEqual({ ok: true, value: 'CRM-2026-004512' });
    expect(parseLookupValue('CONTRACT_NUMBER', 'дп-77/2026')).toEqual({ ok: true, value: 'ДП-77/2026' });
    expect(parseLookupValue('STATUS_TYPE', 'zsd_dog')).toEqual({ ok: true, value: 'ZSD_DOG' });
    expect(parseLookupValue('STATUS', 'Production')).toEqual({ ok: true, value: 'Production' });
    expect(parseLookupValue('POSITION[MATERIAL_NAME]', 'Труба 530х8')).toEqual({ ok: true, value: 'Труба 530х8' });
    expect(parseLookupValue('SPECIFICATION_NUMBER', '3-а')).toEqual({ ok: true, value: '3-а' });
    expect(parseLookupValue('DATE_ORDER', 'вчера', '2026-11-23')).toEqual({ ok: true, value: '2026-11-22' });
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
    expect(isQueryValue('SAP_ID', '7300100')).toBe(false);
    expect(isQueryValue('CRM_ID', 'crm-1')).toBe(false);
    expect(isQueryValue('DATE_ORDER', 'today')).toBe(false);
  });
});
