import { rounder } from './cell-format.ts';
import { isOpenEnded, parsePortalTimestamp, unitKindOf } from '../format.ts';

// A worksheet as data: the views build these from records, the writer streams them to a file.
// A column's kind decides how its numbers are rounded and shown; codes stay text.

/**
 * text: codes and names, written as text (leading zeros stay); money: 2 decimals; tonnes: 3;
 * metres: 2; quantity: up to 3, in a position's own unit; integer: counts; date: a calendar day.
 */
export type ColumnKind = 'text' | 'money' | 'tonnes' | 'metres' | 'quantity' | 'integer' | 'date';

/** `width` fixes the width; without it the writer fits it to the values. */
export type Column = { header: string; kind: ColumnKind; width?: number };

/** null is an empty cell. A Date is a calendar day at UTC midnight (the time kept when not midnight). */
export type CellValue = string | number | Date | null;

/**
 * `rows` is read twice (the widths, then the cells), so it must start over on each reading: an
 * array, or `lazyRows`, which builds each row only as it is read and keeps none.
 */
export type Sheet = { name: string; columns: readonly Column[]; rows: Iterable<readonly CellValue[]> };

/** Rows built as they are read, each reading anew: a sheet of 60 000 rows holds none of them. */
export const lazyRows = (rows: () => Iterable<readonly CellValue[]>): Iterable<readonly CellValue[]> => ({
  [Symbol.iterator]: () => rows()[Symbol.iterator](),
});

/** A portal timestamp as an Excel date: its wall-clock day and time read as UTC, so no zone shifts it. */
export const excelDate = (timestamp: string | null): Date | string | null => {
  if (timestamp === null || timestamp.trim() === '') return null;
  const parsed = parsePortalTimestamp(timestamp);
  return parsed ?? timestamp.trim(); // unreadable: shown as sent, as the cards do
};

/** Text for a text column: trimmed, and empty text is an empty cell. */
export const textCell = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** The note beside a validity end far in the future, or an empty cell. */
export const openEndedCell = (timestamp: string | null, note: string): string | null => (isOpenEnded(timestamp) ? note : null);

/** The empty planned date's note (as the cards say «не запланировано»), or an empty cell. */
export const notPlannedCell = (timestamp: string | null, note: string): string | null => (timestamp === null || timestamp.trim() === '' ? note : null);

const toMetres = rounder(2);
const toThousandths = rounder(3);

/** A quantity rounded in its unit's precision, as the cards round it: metres 2 decimals, tonnes, kilograms, pieces and unknown units 3. */
export const quantityCell = (value: number | null, measureCode: string): number | null => {
  if (value === null || !Number.isFinite(value)) return null;
  return unitKindOf(measureCode) === 'metres' ? toMetres(value) : toThousandths(value);
};
