import { z } from 'zod';
import { ORDER_FILTERS, SPECIFICATION_FILTERS, type Query } from '../query.ts';
import { contentKey } from '../short-hash.ts';

// Queries too long (or not ASCII) for callback data are kept in the store under a short key. The
// key is derived from the query, so the same lookup always gets the same key and the store does
// not grow with repeated lookups.

/** Awaited by every caller: a backend may answer later (see src/store/store.ts). */
export type QueryStore = {
  save(query: Query): string | Promise<string>;
  load(key: string): Query | undefined | Promise<Query | undefined>;
};

export const queryKey = (query: Query): string => contentKey(JSON.stringify([query.resource, query.filter, query.value]), 16);

/** A query as stored in a row (queries, watch_targets): one this version cannot read fails. */
export const storedQuery: z.ZodType<Query> = z.discriminatedUnion('resource', [
  z.object({ resource: z.literal('order'), filter: z.enum(ORDER_FILTERS), value: z.string() }),
  z.object({ resource: z.literal('specification'), filter: z.enum(SPECIFICATION_FILTERS), value: z.string() }),
]);
