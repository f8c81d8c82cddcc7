import { createHash } from 'node:crypto';
import type { Query } from '../portal/query.ts';

// Queries too long (or not ASCII) for callback data are kept in the store under a short key. The
// key is derived from the query, so the same lookup always gets the same key and the store does
// not grow with repeated lookups.

export type QueryStore = {
  save(query: Query): string;
  load(key: string): Query | undefined;
};

export const queryKey = (query: Query): string =>
  createHash('sha256').update(JSON.stringify([query.resource, query.filter, query.value])).digest('base64url').slice(0, 16);
