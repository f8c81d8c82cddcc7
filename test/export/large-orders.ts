import { sampleData } from '../../src/demo/sample-data.ts';
import { orderSchema, type Order } from '../../src/portal/schemas.ts';

// `count` orders with sixty positions each: the demo's sixty-position order, each copy with its
// own numbers and prices (the large export's test, and its memory in bench/checks/large-export.ts).

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
