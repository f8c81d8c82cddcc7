import { createHash } from 'node:crypto';
import type { Query } from '../portal/query.ts';

// Queries too long (or not ASCII) for callback data are kept here under a short key. The key is
// derived from the query, so the same lookup always gets the same key and the store does not
// grow with repeated lookups.

export type QueryStore = {
  save(query: Query): string;
  load(key: string): Query | undefined;
};

export const queryKey = (query: Query): string =>
  createHash('sha256').update(JSON.stringify([query.resource, query.filter, query.value])).digest('base64url').slice(0, 16);

/** In memory, bounded: the least recently used entries go first. */
export const createMemoryQueryStore = (capacity = 10_000): QueryStore => {
  const entries = new Map<string, Query>();
  return {
    save(query) {
      const key = queryKey(query);
      entries.delete(key);
      entries.set(key, query);
      if (entries.size > capacity) entries.delete(entries.keys().next().value as string);
      return key;
    },
    load(key) {
      const query = entries.get(key);
      if (query) {
        entries.delete(key);
        entries.set(key, query);
      }
      return query;
    },
  };
};
