import { createWriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { cellFormat, cellValue, DATE_FORMATS, type DateFormats } from './cell-format.ts';
import { fitWidths } from './column-width.ts';
import type { Sheet } from './sheet.ts';

// The workbook streamed to a file: each row is committed as it is added and the event loop turns
// every few hundred rows, so the zip drains as rows come and ExcelJS holds little more than the
// shared strings, whatever the number of rows.

export type WorkbookFile = {
  path: string;
  sheets: readonly Sheet[];
  /** A line written on the first sheet below its data, after an empty row (outside the autofilter). */
  note?: string;
  /** Excel's formats for dates: the reader's language (default Russian). */
  dates?: DateFormats;
  /** Stops the writing between rows (the file is then removed). */
  signal?: AbortSignal;
};

/** What Excel allows in a cell, in a sheet name. */
const MAX_CELL_TEXT = 32_767;
const MAX_SHEET_NAME = 31;

/** What XML 1.0 forbids in a document: C0 controls but tab and line ends, U+FFFE, U+FFFF, lone surrogates. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text as a workbook's XML may hold it: portal text may carry characters XML forbids, and one of
 * them makes a file Excel refuses to open (ExcelJS leaves out C0 controls only).
 */
const xmlText = (text: string): string => text.replace(NOT_XML, '');

/** A name Excel accepts: none of : \ / ? * [ ], at most 31 characters, unique in the workbook. */
const sheetNames = (sheets: readonly Sheet[]): string[] => {
  const taken = new Set<string>();
  return sheets.map((sheet, index) => {
    const base = xmlText(sheet.name).replace(/[:\\/?*[\]]/g, ' ').trim().slice(0, MAX_SHEET_NAME) || `Sheet${index + 1}`;
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n += 1) name = `${base.slice(0, MAX_SHEET_NAME - String(n).length - 1)} ${n}`;
    taken.add(name.toLowerCase());
    return name;
  });
};

/** Rows written between turns of the event loop: the zip stream drains, and the bot keeps answering. */
const ROWS_PER_TURN = 50;

type Writer = InstanceType<typeof ExcelJS.stream.xlsx.WorkbookWriter>;

const addSheet = async (workbook: Writer, sheet: Sheet, name: string, note: string | undefined, dates: DateFormats, signal: AbortSignal | undefined): Promise<void> => {
  const worksheet = workbook.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
  // A streamed sheet writes its columns before its first row: the widths are measured first.
  worksheet.columns = fitWidths(sheet.columns, sheet.rows).map((width) => ({ width }));
  const header = worksheet.addRow(sheet.columns.map((column) => xmlText(column.header)));
  header.font = { bold: true };
  header.commit();
  let written = 0;
  for (const values of sheet.rows) {
    written += 1;
    if (written % ROWS_PER_TURN === 0) {
      await setImmediate();
      signal?.throwIfAborted();
    }
    const row = worksheet.addRow([]);
    sheet.columns.forEach((column, index) => {
      const value = cellValue(column.kind, values[index] ?? null);
      if (value === null) return;
      const cell = row.getCell(index + 1);
      // Cut first: a cut through a surrogate pair leaves half of it, which the cleaning then drops.
      cell.value = typeof value === 'string' ? xmlText(value.slice(0, MAX_CELL_TEXT)) : value;
      const numFmt = cellFormat(column.kind, value, dates);
      if (numFmt !== undefined) cell.numFmt = numFmt;
    });
    row.commit();
  }
  worksheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: 1 + written, column: Math.max(1, sheet.columns.length) },
  };
  if (note !== undefined) {
    const row = worksheet.getRow(written + 3);
    row.getCell(1).value = xmlText(note);
    row.getCell(1).font = { italic: true };
    row.commit();
  }
  worksheet.commit();
};

/** Writes the sheets as an .xlsx file at `path`; on any failure no file is left there. */
export const writeWorkbook = async ({ path, sheets, note, dates = DATE_FORMATS.ru, signal }: WorkbookFile): Promise<{ bytes: number }> => {
  if (sheets.length === 0) throw new RangeError('a workbook needs at least one sheet');
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: true });
  const saved = pipeline(output, createWriteStream(path));
  const names = sheetNames(sheets);
  const written = (async () => {
    for (const [index, sheet] of sheets.entries()) await addSheet(workbook, sheet, names[index] ?? sheet.name, index === 0 ? note : undefined, dates, signal);
    await workbook.commit();
  })();
  try {
    await Promise.all([written, saved]);
  } catch (error) {
    output.destroy();
    // The file is removed only once its stream is closed, so nothing recreates it afterwards.
    await Promise.allSettled([saved]);
    await rm(path, { force: true });
    throw error;
  }
  return { bytes: (await stat(path)).size };
};
