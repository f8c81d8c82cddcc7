import { fetchResults, type PortalClient, type Results } from '../portal/client.ts';
import type { PageSize, Query } from '../portal/query.ts';
import { canInline, type QueryRef } from './callback-data.ts';
import { lastPageOffset } from './paging.ts';
import type { QueryStore } from './query-store.ts';

export type Lookups = ReturnType<typeof createLookups>;

/** What every feature that shows results needs: button references to queries, and pages. */
export const createLookups = ({ portal, queries }: { portal: PortalClient; queries: QueryStore }) => ({
  /** The query inside the button when it fits, else a short key to the store. */
  refFor: (query: Query): QueryRef => (canInline(query) ? { query } : { key: queries.save(query) }),

  resolve: (ref: QueryRef): Query | undefined => ('query' in ref ? ref.query : queries.load(ref.key)),

  /** A page of results; a page past the end (the data moved) falls back to the last one. */
  async fetchPage(query: Query, limit: PageSize, offset: number): Promise<Results> {
    const results = await fetchResults(portal, query, { limit, offset });
    const last = lastPageOffset(results.page.total, limit);
    if (results.page.items.length === 0 && offset > last) return fetchResults(portal, query, { limit, offset: last });
    return results;
  },
});
