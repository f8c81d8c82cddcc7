import { fetchResults, type PortalClient } from '../portal/client.ts';
import { PortalError } from '../portal/errors.ts';
import type { Query } from '../portal/query.ts';
import type { Order, Specification } from '../portal/schemas.ts';

/** The largest page the portal gives: the fewest calls for all of a query's records. */
const PAGE = 20;

export type AllRecords =
  | { resource: 'order'; items: Order[]; total: number }
  | { resource: 'specification'; items: Specification[]; total: number };

/**
 * The portal's data moved while its pages were read: the total changed, or a record came twice
 * and so another was skipped. Read again next time rather than tell of records that only seemed
 * to come or go.
 */
export class PortalPagesMovedError extends PortalError {
  readonly code = 'PORTAL_PAGES_MOVED';
  readonly transient = true;
  readonly failure = 'failed';
}

const distinct = <R extends { SAP_ID: string }>(items: readonly R[]): R[] => {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(item.SAP_ID) && Boolean(seen.add(item.SAP_ID)));
};

/** Reads the pages after the first, checking that they tell the same story as the first. */
const rest = async <R extends { SAP_ID: string }>(
  first: { items: R[]; total: number },
  maxRecords: number,
  page: (offset: number) => Promise<{ items: R[]; total: number }>,
): Promise<R[]> => {
  const items = [...first.items];
  const wanted = Math.min(first.total, maxRecords);
  for (let offset = PAGE; offset < wanted; offset += PAGE) {
    const next = await page(offset);
    if (next.total !== first.total) throw new PortalPagesMovedError(`the query's total went from ${first.total} to ${next.total} while reading it`);
    items.push(...next.items);
  }
  const unique = distinct(items);
  if (unique.length < wanted) throw new PortalPagesMovedError('fewer records than the total came while reading the pages: the data moved between them');
  return unique;
};

/**
 * Every record of a query, page after page (20 at a time), up to `maxRecords`: with more, only
 * the total is known (`items` holds the first ones) and the caller refuses or cuts.
 */
export const fetchAll = async (portal: PortalClient, query: Query, maxRecords: number): Promise<AllRecords> => {
  const first = await fetchResults(portal, query, { limit: PAGE, offset: 0 });
  const total = first.page.total;
  return first.resource === 'order'
    ? { resource: 'order', items: await rest(first.page, maxRecords, (offset) => portal.listOrders(first.query, { limit: PAGE, offset })), total }
    : { resource: 'specification', items: await rest(first.page, maxRecords, (offset) => portal.listSpecifications(first.query, { limit: PAGE, offset })), total };
};

/** The records of a watch: all of its query's, or for a watch of one record only that one. */
export const watchedRecords = (all: AllRecords, sapId: string | undefined): AllRecords => {
  if (sapId === undefined) return all;
  return all.resource === 'order'
    ? { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) }
    : { ...all, items: all.items.filter((item) => item.SAP_ID === sapId) };
};
