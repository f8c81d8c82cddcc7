import type { PortalClient } from '../../portal/client.ts';
import type { Query } from '../../portal/query.ts';
import { fetchAll, type AllRecords } from '../../watch/fetch-all.ts';
import type { ResourceRecords } from '../views/resources.ts';

/** The records of an export, with the query's total (more than the records when it was cut). */
export type ExportRecords = ResourceRecords & { total: number };

/** The records paired with their query, the types matching (fetchAll reads the query's resource). */
const paired = (query: Query, all: AllRecords, maxRecords: number): ExportRecords => {
  if (query.resource === 'order' && all.resource === 'order') return { resource: 'order', query, items: all.items.slice(0, maxRecords), total: all.total };
  if (query.resource === 'specification' && all.resource === 'specification') {
    return { resource: 'specification', query, items: all.items.slice(0, maxRecords), total: all.total };
  }
  throw new TypeError(`records of ${all.resource} for a query of ${query.resource}`);
};

/**
 * Every record of a query up to `maxRecords`, read as a watch reads them (20 a page, one page at
 * a time, failing when the pages disagree), telling `progress` after each page how many of the
 * records wanted have come.
 */
export const fetchWithProgress = async (
  portal: PortalClient,
  query: Query,
  maxRecords: number,
  progress: (done: number, wanted: number) => Promise<void>,
): Promise<ExportRecords> => {
  let done = 0;
  const counted = async <P extends { items: unknown[]; total: number }>(page: P): Promise<P> => {
    done += page.items.length;
    const wanted = Math.min(page.total, maxRecords);
    await progress(Math.min(done, wanted), wanted);
    return page;
  };
  const counting: PortalClient = {
    listOrders: async (q, paging) => counted(await portal.listOrders(q, paging)),
    listSpecifications: async (q, paging) => counted(await portal.listSpecifications(q, paging)),
  };
  return paired(query, await fetchAll(counting, query, maxRecords), maxRecords);
};
