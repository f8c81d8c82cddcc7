import { fetchResults, type PortalClient } from '../portal/client.ts';
import type { Query } from '../portal/query.ts';
import type { Order, Specification } from '../portal/schemas.ts';

/** The largest page the portal gives: the fewest calls for all of a query's records. */
const PAGE = 20;

export type AllRecords =
  | { resource: 'order'; items: Order[]; total: number }
  | { resource: 'specification'; items: Specification[]; total: number };

/**
 * Every record of a query, page after page (20 at a time), up to `maxRecords`: with more, only
 * the total is known (`items` holds the first ones) and the caller refuses or cuts. A record the
 * portal repeats across pages (its data moved while paging) is kept once.
 */
export const fetchAll = async (portal: PortalClient, query: Query, maxRecords: number): Promise<AllRecords> => {
  const first = await fetchResults(portal, query, { limit: PAGE, offset: 0 });
  const total = first.page.total;
  if (first.resource === 'order') {
    const items = [...first.page.items];
    for (let offset = PAGE; offset < Math.min(total, maxRecords); offset += PAGE) {
      items.push(...(await portal.listOrders(first.query, { limit: PAGE, offset })).items);
    }
    return { resource: 'order', items: distinct(items), total };
  }
  const items = [...first.page.items];
  for (let offset = PAGE; offset < Math.min(total, maxRecords); offset += PAGE) {
    items.push(...(await portal.listSpecifications(first.query, { limit: PAGE, offset })).items);
  }
  return { resource: 'specification', items: distinct(items), total };
};

const distinct = <R extends { SAP_ID: string }>(items: R[]): R[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.SAP_ID) && Boolean(seen.add(item.SAP_ID)));
};

/** The records of a watch: all of its query's, or for a watch of one record only that one. */
export const watchedRecords = (all: AllRecords, sapId: string | undefined): AllRecords => {
  if (sapId === undefined) return all;
  return all.resource === 'order'
    ? { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) }
    : { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) };
};
