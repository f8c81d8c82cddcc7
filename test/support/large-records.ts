import type { TestPortal } from './test-portal.ts';

// Orders whose every position has a long Cyrillic name: pages far under PORTAL_MAX_BODY_BYTES
// whose records, all of a query's pages together, outgrow a small heap.

/**
 * An order in the portal's wire shape with `positions` positions (with 30 and 500-character names a
 * page of 20 is about 0.7 MB), each name `nameLength` Cyrillic characters and unique to it.
 */
export const largeOrder = (index: number, nameLength: number, positions = 30) => {
  const sapId = String(7_500_000 + index).padStart(10, '0');
  return {
    SAP_ID: sapId,
    CRM_ID: `CRM-2026-${String(index).padStart(6, '0')}`,
    DATE_ORDER: '2026-03-15 00:00:00',
    STATUS: 'production',
    STATUS_TEXT: 'Производство',
    PREPAYMENT: 500000,
    POSITION_SUM: 1234567.89,
    POSITION_METERS: 120.5,
    POSITION_PIECES: 10,
    POSITION_WEIGHT_TONN: 12.345,
    POSITION: Array.from({ length: positions }, (_, p) => ({
      ID: index * 10_000 + p,
      QUANTITY: 12.345,
      MEASURE: 'TO',
      PRICE: 1000,
      CURRENCY: 'RUB',
      MATERIAL_SAP_ID: `0000000000${String(index * 10_000 + p).padStart(8, '0')}`,
      MATERIAL_NAME: `${sapId}/${p} ${'Труба стальная электросварная '.repeat(Math.ceil(nameLength / 30))}`.slice(0, nameLength),
      ORDER_POSITION_SAP_ID: String((p + 1) * 10).padStart(6, '0'),
    })),
  };
};

/**
 * The test portal answers orders with `STATUS=<status>` with `count` large orders, 20 a page, each
 * page built when asked (the same bytes each time); other requests as before.
 */
export const serveLargeOrders = (portal: TestPortal, { status, count, nameLength, positions }: { status: string; count: number; nameLength: number; positions?: number }) => {
  const pages = new Map<string, Buffer>();
  return portal.answerWhere(
    (url) => url.startsWith('/api/lk/order?') && url.includes(`STATUS=${status}&`),
    (url) => {
      const limit = Number(url.searchParams.get('limit'));
      const offset = Number(url.searchParams.get('offset'));
      const key = `${limit}/${offset}`;
      let body = pages.get(key);
      if (body === undefined) {
        const result = Array.from({ length: Math.max(0, Math.min(limit, count - offset)) }, (_, k) => largeOrder(offset + k, nameLength, positions));
        body = Buffer.from(JSON.stringify({ success: true, error_code: null, data: { result, total: count, limit, offset } }));
        if (pages.size < 4) pages.set(key, body);
      }
      return { body };
    },
  );
};
