import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFormatter } from '../../src/format.ts';
import { createTranslator } from '../../src/i18n.ts';
import { orderSchema } from '../../src/portal/schemas.ts';
import type { Order } from '../../src/portal/schemas.ts';
import { sampleData } from '../../src/demo/sample-data.ts';
import { orderExportSheets } from '../../src/bot/views/order/export.ts';
import { writeWorkbook } from '../../src/export/write-workbook.ts';

// The export of `count` orders with sixty positions each (the demo's sixty-position order, each
// copy with its own numbers and prices), measured in a process of its own.
// Run: node --expose-gc test/export/large-export.ts [count] [path to keep the file at]  → one line of JSON.

const template = sampleData.orders.find((order) => (order.POSITION ?? []).length === 60);
if (template === undefined) throw new Error('the demo data has no order with sixty positions');

export const largeOrders = (count: number): Order[] =>
  Array.from({ length: count }, (_, k) =>
    orderSchema.parse({
      ...template,
      SAP_ID: String(7_400_000 + k).padStart(10, '0'),
      CRM_ID: `CRM-2026-${String(k).padStart(6, '0')}`,
      POSITION: (template.POSITION ?? []).map((position, p) => ({ ...position, ID: k * 100 + p, PRICE: (position.PRICE ?? 0) + k / 100 })),
    }),
  );

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

export const measureLargeExport = async (count: number, keepAt?: string): Promise<ExportFigures> => {
  const orders = largeOrders(count);
  const path = keepAt ?? join(tmpdir(), `large-export-${process.pid}.xlsx`);
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
    if (keepAt === undefined) await rm(path, { force: true });
  }
};

if (import.meta.main) {
  const [count = '1000', keepAt] = process.argv.slice(2);
  console.log(JSON.stringify(await measureLargeExport(Number(count), keepAt)));
}
