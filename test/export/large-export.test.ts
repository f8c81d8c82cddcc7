import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { orderExportSheets } from '../../src/bot/views/order/export.ts';
import { writeWorkbook } from '../../src/export/write-workbook.ts';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { largeOrders } from './large-orders.ts';

// Its memory and time are the bench's (`npm run bench -- --checks`, docs/performance.md).

/** Rows per sheet, in sheet order, read with ExcelJS's streaming reader. */
const countRows = async (path: string): Promise<number[]> => {
  const counts: number[] = [];
  for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(path, { sharedStrings: 'cache', worksheets: 'emit' })) {
    let rows = 0;
    for await (const _row of sheet) rows += 1;
    counts.push(rows);
  }
  return counts;
};

describe('a large export', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'large-export-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('1000 orders with 60 positions each: every order and every position, each under its header', { timeout: 120_000 }, async () => {
    const path = join(dir, 'orders.xlsx');
    const orders = largeOrders(1000);
    await writeWorkbook({ path, sheets: orderExportSheets(orders, createTranslator('ru'), createFormatter('ru')) });
    expect(orders.reduce((total, order) => total + order.POSITION.length, 0)).toBe(60_000);
    expect(await countRows(path)).toEqual([1 + 1000, 1 + 60_000]);
  });
});
