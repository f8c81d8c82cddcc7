import { describe, expect, it } from 'vitest';
import type { PortalClient } from '../../src/portal/client.ts';
import type { OrderQuery, Paging } from '../../src/query.ts';
import type { Order } from '../../src/portal/schemas.ts';
import type { Admission } from '../../src/memory-budget.ts';
import { fetchAll, PortalPagesMovedError, RecordsTooLargeError } from '../../src/portal/fetch-all.ts';
import { watchedRecords } from '../../src/watch/snapshot.ts';
import { makeOrder } from '../fixtures/portal-records.ts';

// fetchAll against a portal of `count` orders whose pages the test may disturb.

const query: OrderQuery = { resource: 'order', filter: 'STATUS', value: 'production' };
const orders = (count: number) => Array.from({ length: count }, (_, i) => makeOrder({ SAP_ID: String(7_300_000 + i) }) as Order);

const portalOf = (all: Order[], disturb: (paging: Paging, items: Order[], total: number) => { items: Order[]; total: number } = (_, items, total) => ({ items, total })) => {
  const asked: Paging[] = [];
  const portal: PortalClient = {
    listOrders: async (_query, paging) => {
      asked.push(paging);
      const page = disturb(paging, all.slice(paging.offset, paging.offset + paging.limit), all.length);
      return { ...page, limit: paging.limit, offset: paging.offset };
    },
    listSpecifications: () => Promise.reject(new Error('not asked')),
  };
  return { portal, asked };
};

describe('fetchAll', () => {
  it('reads every page, 20 at a time', async () => {
    const { portal, asked } = portalOf(orders(45));
    const all = await fetchAll(portal, query, 100);
    expect(all.items.map((order) => order.SAP_ID)).toEqual(orders(45).map((order) => order.SAP_ID));
    expect(asked).toEqual([
      { limit: 20, offset: 0 },
      { limit: 20, offset: 20 },
      { limit: 20, offset: 40 },
    ]);
  });

  it('stops at maxRecords, keeping the true total', async () => {
    const { portal, asked } = portalOf(orders(300));
    const all = await fetchAll(portal, query, 101);
    expect(all.total).toBe(300);
    expect(all.items).toHaveLength(120);
    expect(asked).toHaveLength(6);
  });

  it('fails when the data moves between pages: a record twice (another skipped), or a new total', async () => {
    const shifted = portalOf(orders(30), (paging, items, total) => (paging.offset === 20 ? { items: [orders(30)[19]!, ...items.slice(0, 9)], total } : { items, total }));
    await expect(fetchAll(shifted.portal, query, 100)).rejects.toBeInstanceOf(PortalPagesMovedError);
    const grown = portalOf(orders(30), (paging, items, total) => ({ items, total: paging.offset === 20 ? total + 1 : total }));
    await expect(fetchAll(grown.portal, query, 100)).rejects.toThrow(/total went from 30 to 31/);
  });

  /** A memory that takes `pages` pages, then answers `past`. */
  const memory = (pages: number, past: Admission) => {
    let taken = 0;
    return (page: object) => {
      expect(page).toHaveProperty('items');
      return ++taken <= pages ? 'ok' : past;
    };
  };

  it('fails with RecordsTooLargeError at the first page past the memory, telling why and the total', async () => {
    const { portal, asked } = portalOf(orders(100));
    const error = await fetchAll(portal, query, 1000, { hold: memory(2, 'over') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RecordsTooLargeError);
    expect(error).toMatchObject({ reason: 'over', total: 100, code: 'RECORDS_TOO_LARGE' });
    expect(asked).toHaveLength(3);
    await expect(fetchAll(portal, query, 1000, { hold: memory(0, 'busy') })).rejects.toMatchObject({ reason: 'busy', total: 100 });
  });

  it('with cut, keeps the records of the pages that fitted and says it stopped', async () => {
    const { portal, asked } = portalOf(orders(100));
    const all = await fetchAll(portal, query, 1000, { hold: memory(3, 'over'), cut: true });
    expect(all).toMatchObject({ total: 100, cut: true });
    expect(all.items.map((order) => order.SAP_ID)).toEqual(orders(60).map((order) => order.SAP_ID));
    expect(asked).toHaveLength(4);
    // All of them fitted: no cut.
    expect(await fetchAll(portal, query, 1000, { hold: memory(5, 'over'), cut: true })).not.toHaveProperty('cut');
    // Not even the first page: nothing to keep.
    await expect(fetchAll(portal, query, 1000, { hold: memory(0, 'over'), cut: true })).rejects.toBeInstanceOf(RecordsTooLargeError);
  });

  it('narrows to one record for a watch of that record', async () => {
    const { portal } = portalOf(orders(5));
    const all = await fetchAll(portal, query, 100);
    expect(watchedRecords(all, '7300003').items.map((order) => order.SAP_ID)).toEqual(['7300003']);
    expect(watchedRecords(all, undefined)).toBe(all);
  });
});
