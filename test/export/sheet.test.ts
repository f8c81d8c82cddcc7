import { describe, expect, test } from 'vitest';
import { excelDate, lazyRows, notPlannedCell, openEndedCell, quantityCell, textCell } from '../../src/export/sheet.ts';
import { cellFormat, cellValue, DATE_FORMATS } from '../../src/export/cell-format.ts';

describe('cells from portal values', () => {
  test('a portal timestamp is its calendar day at UTC midnight, whatever the server’s zone', () => {
    expect(excelDate('2026-03-15 00:00:00')).toEqual(new Date('2026-03-15T00:00:00Z'));
    expect(excelDate('2026-03-15')).toEqual(new Date('2026-03-15T00:00:00Z'));
    expect(excelDate('9999-12-31 00:00:00')).toEqual(new Date('9999-12-31T00:00:00Z'));
    expect(excelDate('2026-03-15 14:30:00')).toEqual(new Date('2026-03-15T14:30:00Z'));
  });

  test('an unreadable timestamp stays text; a missing one is an empty cell', () => {
    expect(excelDate('2026-02-30 00:00:00')).toBe('2026-02-30 00:00:00');
    expect(excelDate(' soon ')).toBe('soon');
    expect(excelDate(null)).toBeNull();
    expect(excelDate('')).toBeNull();
  });

  test('text is trimmed, empty text is an empty cell; the open-ended note only for a far-future end', () => {
    expect(textCell(' 000010 ')).toBe('000010');
    expect(textCell('  ')).toBeNull();
    expect(openEndedCell('9999-12-31 00:00:00', 'бессрочно')).toBe('бессрочно');
    expect(openEndedCell('2026-12-31 00:00:00', 'бессрочно')).toBeNull();
    expect(openEndedCell(null, 'бессрочно')).toBeNull();
  });
});

describe('written values and formats', () => {
  test('rounded as the cards round: money 2, tonnes 3, metres 2, whole counts; half away from zero', () => {
    expect(cellValue('money', 1234567.8900000001)).toBe(1234567.89);
    expect(cellValue('money', 1.005)).toBe(1.01);
    expect(cellValue('money', -1.005)).toBe(-1.01);
    expect(cellValue('money', -0.001)).toBe(0);
    expect(cellValue('tonnes', 12.345000000000001)).toBe(12.345);
    expect(cellValue('metres', 120.504)).toBe(120.5);
    expect(cellValue('integer', 9.6)).toBe(10);
    expect(cellValue('money', Number.NaN)).toBeNull();
    expect(cellValue('text', 42)).toBe('42');
  });

  test('a date with a time of day shows it; a quantity shows only the decimals it has', () => {
    expect(cellFormat('date', new Date('2026-03-15T00:00:00Z'))).toBe('dd.mm.yyyy');
    expect(cellFormat('date', new Date('2026-03-15T14:30:00Z'))).toBe('dd.mm.yyyy hh:mm');
    expect(cellFormat('date', 'soon')).toBeUndefined();
    expect(cellFormat('quantity', 40)).toBe('#,##0');
    expect(cellFormat('quantity', 12.5)).toBe('#,##0.0##');
    expect(cellFormat('integer', 3)).toBe('0');
    expect(cellFormat('text', 'x')).toBeUndefined();
  });
});

describe('spec positions, quantities and lazy rows', () => {
  test('an empty planned production date gets the cards\' «не запланировано» note', () => {
    expect(notPlannedCell(null, 'не запланировано')).toBe('не запланировано');
    expect(notPlannedCell(' ', 'not planned')).toBe('not planned');
    expect(notPlannedCell('2026-04-15 00:00:00', 'не запланировано')).toBeNull();
  });

  test('a quantity is rounded in its unit as the cards round it: metres 2 decimals, tonnes and others 3', () => {
    expect(quantityCell(120.505, 'M')).toBe(120.51);
    expect(quantityCell(12.3456, 'MTR')).toBe(12.35);
    expect(quantityCell(12.3456, 'TO')).toBe(12.346);
    expect(quantityCell(12.3456, 'ST')).toBe(12.346);
    expect(quantityCell(12.3456, 'XYZ')).toBe(12.346);
    expect(quantityCell(-0.001, 'M')).toBe(0);
    expect(quantityCell(null, 'M')).toBeNull();
  });

  test('dates in English as the cards write them (3 Mar 2026), never an ambiguous day/month order', () => {
    expect(cellFormat('date', new Date('2026-03-15T00:00:00Z'), DATE_FORMATS.en)).toBe('d mmm yyyy');
    expect(cellFormat('date', new Date('2026-03-15T14:30:00Z'), DATE_FORMATS.en)).toBe('d mmm yyyy, hh:mm');
  });

  test('lazy rows are built as they are read, anew on each reading, and none are kept', () => {
    let built = 0;
    const rows = lazyRows(function* () {
      for (let k = 0; k < 3; k++) {
        built += 1;
        yield [k];
      }
    });
    expect(built).toBe(0);
    expect([...rows]).toEqual([[0], [1], [2]]);
    expect([...rows]).toEqual([[0], [1], [2]]);
    expect(built).toBe(6);
  });
});

