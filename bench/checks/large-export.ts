import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { orderExportSheets } from '../../src/bot/views/order/export.ts';
import { writeWorkbook } from '../../src/export/write-workbook.ts';
import { largeOrders } from '../../test/export/large-orders.ts';

// The memory and time of an export of `count` orders with sixty positions each, in a process of
// its own (bench/checks.ts runs it with the start command's flags and --expose-gc).
// Run: node --expose-gc bench/checks/large-export.ts [count]  → one line of JSON.

export type ExportFigures = {
  orders: number;
  positions: number;
  ms: number;
  bytes: number;
  /** Before writing, the records built. */
  rssBeforeMb: number;
  /** The process's peak (getrusage), so at least rssBeforeMb. */
  peakRssMb: number;
  heapBeforeMb: number;
  /** Sampled every 5 ms while writing. */
  peakHeapMb: number;
  /** Buffers outside the heap (the zip's), sampled every 5 ms while writing. */
  peakBuffersMb: number;
};

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

export const measureLargeExport = async (count: number): Promise<ExportFigures> => {
  const orders = largeOrders(count);
  const path = join(tmpdir(), `large-export-${process.pid}.xlsx`);
  globalThis.gc?.(); // with --expose-gc: the garbage of building the records is not counted
  const before = process.memoryUsage();
  let peakHeap = before.heapUsed;
  let peakBuffers = before.external + before.arrayBuffers;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakBuffers = Math.max(peakBuffers, now.external + now.arrayBuffers);
  }, 5);
  const started = performance.now();
  try {
    const sheets = orderExportSheets(orders, createTranslator('ru'), createFormatter('ru'));
    const { bytes } = await writeWorkbook({ path, sheets });
    return {
      orders: count,
      positions: orders.reduce((total, order) => total + order.POSITION.length, 0),
      ms: Math.round(performance.now() - started),
      bytes,
      rssBeforeMb: mb(before.rss),
      peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
      heapBeforeMb: mb(before.heapUsed),
      peakHeapMb: mb(peakHeap),
      peakBuffersMb: mb(peakBuffers),
    };
  } finally {
    clearInterval(sampler);
    await rm(path, { force: true });
  }
};

if (import.meta.main) {
  console.log(JSON.stringify(await measureLargeExport(Number(process.argv[2] ?? 1000))));
}
