import type { CellValue, Column } from './sheet.ts';

// Column widths fitted to what the cells will show, measured before streaming (a streamed
// sheet's columns are written ahead of its rows). Widths are in characters of the default font.

export const MIN_WIDTH = 8;
export const MAX_WIDTH = 60;

/** Room for the padding and the autofilter's drop-down button beside the header. */
const HEADER_EXTRA = 4;
const PADDING = 2;

const DECIMALS: Record<Column['kind'], number> = { text: 0, money: 2, tonnes: 3, metres: 2, quantity: 3, integer: 0, date: 0 };

/**
 * The characters a value shows once written: digits with thousands separators and the column's
 * decimals (measured before rounding: at most one digit off), a date as dd.mm.yyyy.
 */
export const shownLength = (kind: Column['kind'], value: CellValue): number => {
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return 0;
  if (value instanceof Date) return value.getUTCHours() === 0 && value.getUTCMinutes() === 0 ? 10 : 16;
  if (typeof value === 'string') return Math.max(...value.split('\n').map((line) => line.length));
  const whole = Math.trunc(Math.abs(value)).toString().length;
  const decimals = DECIMALS[kind];
  return (value < 0 ? 1 : 0) + whole + Math.floor((whole - 1) / 3) + (decimals > 0 ? decimals + 1 : 0);
};

/** Each column's width: its fixed one, or the widest of the header (bold) and the values, within bounds. */
export const fitWidths = (columns: readonly Column[], rows: Iterable<readonly CellValue[]>): number[] => {
  const widest = columns.map((column) => Math.ceil(column.header.length * 1.1) + HEADER_EXTRA - PADDING);
  // One pass over the rows for every column: lazy rows are built once for the widths.
  for (const row of rows) columns.forEach((column, index) => (widest[index] = Math.max(widest[index]!, shownLength(column.kind, row[index] ?? null))));
  return columns.map((column, index) => column.width ?? Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, widest[index]! + PADDING)));
};
