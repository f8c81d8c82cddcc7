import type { CellValue, ColumnKind } from './sheet.ts';

// How a column's values are written: rounded as the cards round them (Intl's rounding, as in
// format.ts: money 2 decimals, tonnes up to 3, metres up to 2), with an Excel number format.

/** A number rounded to at most `digits` decimals as the cards write it: the portal's float tails go. */
export const rounder = (digits: number) => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, useGrouping: false, signDisplay: 'negative' });
  return (value: number): number => Number(intl.format(value));
};

const DIGITS: Record<Exclude<ColumnKind, 'text' | 'date'>, number> = { money: 2, tonnes: 3, metres: 2, quantity: 3, integer: 0 };
const ROUND = Object.fromEntries(Object.entries(DIGITS).map(([kind, digits]) => [kind, rounder(digits)]));

/** Excel date formats: Russian as the cards write dates; English as the cards do too (3 Mar 2026), never day and month in an ambiguous order. */
export type DateFormats = { date: string; dateTime: string };
export const DATE_FORMATS: { ru: DateFormats; en: DateFormats } = {
  ru: { date: 'dd.mm.yyyy', dateTime: 'dd.mm.yyyy hh:mm' },
  en: { date: 'd mmm yyyy', dateTime: 'd mmm yyyy, hh:mm' },
};

const NUMBER_FORMATS: Record<Exclude<ColumnKind, 'text' | 'date' | 'quantity'>, string> = {
  money: '#,##0.00',
  tonnes: '#,##0.000',
  metres: '#,##0.00',
  integer: '0',
};

/** The value as written: numbers rounded for the column, a non-finite number empty, codes as text. */
export const cellValue = (kind: ColumnKind, value: CellValue): CellValue => {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    if (kind === 'text') return String(value);
    const round = ROUND[kind];
    return round === undefined ? value : round(value);
  }
  return value;
};

/**
 * The Excel number format of a written value, or undefined for text. A quantity's unit varies
 * by position (t, m, pcs): whole ones show no decimals, others up to three without trailing zeros.
 */
export const cellFormat = (kind: ColumnKind, value: CellValue, dates: DateFormats = DATE_FORMATS.ru): string | undefined => {
  if (value instanceof Date) {
    const midnight = value.getUTCHours() === 0 && value.getUTCMinutes() === 0 && value.getUTCSeconds() === 0;
    return midnight ? dates.date : dates.dateTime;
  }
  if (typeof value !== 'number' || kind === 'text' || kind === 'date') return undefined;
  if (kind === 'quantity') return Number.isInteger(value) ? '#,##0' : '#,##0.0##';
  return NUMBER_FORMATS[kind];
};
