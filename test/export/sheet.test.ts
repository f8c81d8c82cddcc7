import { describe, expect, test } from 'vitest';
import { excelDate, openEndedCell, textCell } from '../../src/export/sheet.ts';
import { cellFormat, cellValue } from '../../src/export/cell-format.ts';

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
