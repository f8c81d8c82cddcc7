import type { Admission } from '../memory-budget.ts';
import { fetchResults, type PortalClient } from './client.ts';
import { PortalError } from './errors.ts';
import type { Query } from '../query.ts';
import type { Order, Specification } from './schemas.ts';

/** The largest page the portal gives: the fewest calls for all of a query's records. */
const PAGE = 20;

/** `cut`: the reading stopped where the next page no longer fitted in memory; `items` are the first ones. */
export type AllRecords =
  | { resource: 'order'; items: Order[]; total: number; cut?: true }
  | { resource: 'specification'; items: Specification[]; total: number; cut?: true };

export type FetchAllOptions = {
  /** Counts each page against a memory budget as it comes (see memory-budget.ts). */
  hold?: (page: object) => Admission;
  /** A page past the budget ends the reading with the records before it (an export), rather than failing (a watch). */
  cut?: boolean;
};

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

/**
 * A query's records are more than the memory they may take allows (`over`), or the work under way
 * holds the rest of it (`busy`): refused, or for a poll skipped, before they can end the process.
 */
export class RecordsTooLargeError extends Error {
  readonly code = 'RECORDS_TOO_LARGE';
  readonly reason: Exclude<Admission, 'ok'>;
  /** The query's total, from its first page. */
  readonly total: number;
  constructor(reason: Exclude<Admission, 'ok'>, total: number) {
    super(reason === 'over' ? `the records of the query (${total}) are more than the memory they may take` : 'the memory for records is held by others under way');
    this.name = 'RecordsTooLargeError';
    this.reason = reason;
    this.total = total;
  }
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
  fits: (page: object) => boolean,
): Promise<{ items: R[]; cut?: true }> => {
  const items = [...first.items];
  let wanted = Math.min(first.total, maxRecords);
  let cut: true | undefined;
  for (let offset = PAGE; offset < wanted; offset += PAGE) {
    const next = await page(offset);
    if (next.total !== first.total) throw new PortalPagesMovedError(`the query's total went from ${first.total} to ${next.total} while reading it`);
    if (!fits(next)) {
      [wanted, cut] = [offset, true];
      break;
    }
    items.push(...next.items);
  }
  const unique = distinct(items);
  if (unique.length < wanted) throw new PortalPagesMovedError('fewer records than the total came while reading the pages: the data moved between them');
  return cut ? { items: unique, cut } : { items: unique };
};

/**
 * Every record of a query, page after page (20 at a time), up to `maxRecords`: with more, only
 * the total is known (`items` holds the first ones) and the caller refuses or cuts. Each page is
 * counted by `hold` as it comes: one that does not fit ends the reading (RecordsTooLargeError, or
 * with `cut` the records before it, unless it was the first).
 */
export const fetchAll = async (portal: PortalClient, query: Query, maxRecords: number, { hold, cut = false }: FetchAllOptions = {}): Promise<AllRecords> => {
  const first = await fetchResults(portal, query, { limit: PAGE, offset: 0 });
  const total = first.page.total;
  const fits = (page: object, isFirst = false): boolean => {
    const admission = hold?.(page) ?? 'ok';
    if (admission === 'ok') return true;
    if (cut && !isFirst) return false;
    throw new RecordsTooLargeError(admission, total);
  };
  fits(first.page, true);
  return first.resource === 'order'
    ? { resource: 'order', total, ...(await rest(first.page, maxRecords, (offset) => portal.listOrders(first.query, { limit: PAGE, offset }), fits)) }
    : { resource: 'specification', total, ...(await rest(first.page, maxRecords, (offset) => portal.listSpecifications(first.query, { limit: PAGE, offset }), fits)) };
};
