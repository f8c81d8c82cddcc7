import type { Results } from '../portal/client.ts';
import { isQueryValue } from '../query.ts';
import type { WatchTarget } from '../store/watch-store.ts';

/**
 * What watching one record of a page means: an order by its SAP number (the portal filters orders
 * by it); a specification within the page's query, by its SAP number (the portal cannot filter
 * specifications by it).
 */
export const recordTarget = (results: Results, index: number): WatchTarget | undefined => {
  if (results.resource === 'order') {
    const order = results.page.items[index];
    return order && { query: { resource: 'order', filter: 'SAP_ID', value: order.SAP_ID } };
  }
  const spec = results.page.items[index];
  if (spec === undefined) return undefined;
  // The portal cannot filter specifications by SAP number: the narrowest query that finds this
  // one is its number (a few records, whatever list it was opened from), else the list's query.
  const query = isQueryValue('SPECIFICATION_NUMBER', spec.SPECIFICATION_NUMBER)
    ? { resource: 'specification' as const, filter: 'SPECIFICATION_NUMBER' as const, value: spec.SPECIFICATION_NUMBER }
    : results.query;
  return { query, sapId: spec.SAP_ID };
};
