import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROOT, startArgs } from '../support/start-command.ts';
import type { ExportFigures } from './large-export.ts';

// 1000 orders × 60 positions written in a process of its own, with the production memory flags,
// and compared with 250 orders: what the writer holds must not grow with the rows.

const run = promisify(execFile);
const NODE_FLAGS = [...startArgs().filter((arg) => arg.startsWith('--')), '--expose-gc'];

const measure = async (count: number, keepAt?: string): Promise<ExportFigures> => {
  const { stdout } = await run(process.execPath, [...NODE_FLAGS, join(ROOT, 'test/export/large-export.ts'), String(count), ...(keepAt ? [keepAt] : [])], {
    cwd: ROOT,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ExportFigures;
};

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

  test('1000 orders with 60 positions each: every row, with flat memory', { timeout: 120_000 }, async () => {
    const path = join(dir, 'orders.xlsx');
    const small = await measure(250);
    const large = await measure(1000, path);
    console.log(`export figures: ${JSON.stringify({ small, large })}`);

    expect(large.positions).toBe(60_000);
    expect(await countRows(path)).toEqual([1 + 1000, 1 + 60_000]);
    // The zip's buffers stay put (they grew with the rows, to 60 MB here, before the writer let
    // the zip drain as it went) and the peaks hardly move with four times the rows.
    expect(large.peakBuffersMb).toBeLessThan(40);
    expect(large.peakBuffersMb - small.peakBuffersMb).toBeLessThan(15);
    expect(large.peakHeapMb - large.heapBeforeMb).toBeLessThan(100);
    expect(large.peakRssMb - large.rssBeforeMb).toBeLessThan(150);
    expect(large.ms).toBeLessThan(60_000);
    expect(large.bytes).toBeLessThan(20 * 1024 * 1024);
  });
});
