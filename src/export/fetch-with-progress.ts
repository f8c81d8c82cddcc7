import type { MemoryLease } from '../memory-budget.ts';
import { createExportPageCost } from '../portal/page-cost.ts';
import type { PortalClient, ResourceRecords } from '../portal/client.ts';
import type { Query } from '../query.ts';
import { fetchAll, PortalPagesMovedError, type AllRecords } from '../portal/fetch-all.ts';

/**
 * The records of an export, with the query's total (more than the records when it was cut), and
 * `cut` when the cut was the memory an export may take rather than EXPORT_MAX_RECORDS.
 */
export type ExportRecords = ResourceRecords & { total: number; cut?: true };

/** The records paired with their query, the types matching (fetchAll reads the query's resource). */
const paired = (query: Query, all: AllRecords, maxRecords: number): ExportRecords => {
  const cut = all.cut ? { cut: all.cut } : {};
  if (query.resource === 'order' && all.resource === 'order') return { resource: 'order', query, items: all.items.slice(0, maxRecords), total: all.total, ...cut };
  if (query.resource === 'specification' && all.resource === 'specification') {
    return { resource: 'specification', query, items: all.items.slice(0, maxRecords), total: all.total, ...cut };
  }
  throw new TypeError(`records of ${all.resource} for a query of ${query.resource}`);
};

/**
 * Every record of a query up to `maxRecords`, read as a watch reads them (20 a page, one page at
 * a time, failing when the pages disagree), telling `progress` after each page how many of the
 * records wanted have come. Pages that disagree may be a stale cached page beside a new one: they
 * are read once more past the cache (`portal.fresh`) before the export gives up. `signal` stops
 * the reading between pages. Each page is taken from `memory`: the reading stops at the first
 * that does not fit (`cut`), and fails with RecordsTooLargeError when even the first does not.
 */
export const fetchWithProgress = async (
  portal: PortalClient & { fresh?: PortalClient },
  query: Query,
  maxRecords: number,
  progress: (done: number, wanted: number) => void,
  signal?: AbortSignal,
  memory?: MemoryLease,
): Promise<ExportRecords> => {
  // A page the portal holds does not hold a stopping bot: the wait for it ends at the abort. A
  // stopping bot asks for no further page. The listener goes when its page settles: `signal`
  // lives as long as the bot, and whatever a listener left on it reaches (the wait, and through it
  // the page) would live as long.
  const unlessAborted = <P>(request: () => Promise<P>): Promise<P> => {
    if (signal === undefined) return request();
    signal.throwIfAborted();
    return new Promise<P>((resolve, reject) => {
      const stop = () => reject(signal.reason);
      const off = () => signal.removeEventListener('abort', stop);
      signal.addEventListener('abort', stop, { once: true });
      request().then(
        (page) => {
          off();
          resolve(page);
        },
        (error: unknown) => {
          off();
          reject(error);
        },
      );
    });
  };
  const counting = (client: PortalClient): PortalClient => {
    let done = 0;
    const counted = <P extends { items: unknown[]; total: number }>(page: P): P => {
      signal?.throwIfAborted();
      done += page.items.length;
      const wanted = Math.min(page.total, maxRecords);
      progress(Math.min(done, wanted), wanted);
      return page;
    };
    return {
      listOrders: async (q, paging) => counted(await unlessAborted(() => client.listOrders(q, paging))),
      listSpecifications: async (q, paging) => counted(await unlessAborted(() => client.listSpecifications(q, paging))),
    };
  };
  // Each reading counts its pages afresh: the records of a reading given up are no longer held.
  const held = () => {
    memory?.free();
    const cost = createExportPageCost();
    return memory ? { hold: (page: object) => memory.take(cost(page)), cut: true } : {};
  };
  try {
    return paired(query, await fetchAll(counting(portal), query, maxRecords, held()), maxRecords);
  } catch (error) {
    if (!(error instanceof PortalPagesMovedError) || portal.fresh === undefined) throw error;
    return paired(query, await fetchAll(counting(portal.fresh), query, maxRecords, held()), maxRecords);
  }
};
