import type { PortalClient } from '../client.ts';
import { intercept, type OnEvent, type PortalCall } from './intercept.ts';

export type CacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  now?: () => number;
  onEvent?: OnEvent;
};

export type CacheStats = { hits: number; misses: number; coalesced: number };

export type CachingClient = PortalClient & {
  stats(): CacheStats;
  /** The same client without cached answers (for Refresh): it still joins a call in flight and stores its result. */
  fresh: PortalClient;
  /**
   * For reading every page of a query (an export): cached answers and calls in flight are used,
   * its own answers are not kept, so fifty large pages neither push users' pages out nor stay on the heap.
   * Its `fresh` skips cached answers too, for reading the pages again when they disagreed.
   */
  bulk: PortalClient & { fresh: PortalClient };
};

const keyOf = ({ endpoint, query, paging }: PortalCall): string =>
  JSON.stringify([endpoint, query.resource, query.filter, query.value, paging.limit, paging.offset]);

/**
 * Identical calls in flight are sent once; successful pages are kept for ttlMs, the least
 * recently used dropped beyond maxEntries. Errors are never kept. Cached pages are shared
 * objects: callers must not mutate them.
 */
export const withCache = (
  client: PortalClient,
  { ttlMs = 30_000, maxEntries = 500, now = Date.now, onEvent }: CacheOptions = {},
): CachingClient => {
  const entries = new Map<string, { value: unknown; expiresAt: number }>();
  const inFlight = new Map<string, Promise<unknown>>();
  const stats: CacheStats = { hits: 0, misses: 0, coalesced: 0 };

  const remember = (key: string, value: unknown) => {
    entries.delete(key);
    entries.set(key, { value, expiresAt: now() + ttlMs });
    // A Map iterates in insertion order, so the first key is the least recently used.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
  };

  const cached = (key: string): { value: unknown } | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    entries.delete(key);
    if (now() >= entry.expiresAt) return undefined;
    entries.set(key, entry);
    return entry;
  };

  const view = (useCached: boolean, keep = true) =>
    intercept(async <T>(call: PortalCall, send: (target: PortalClient) => Promise<T>): Promise<T> => {
      const key = keyOf(call);
      const hit = useCached ? cached(key) : undefined;
      if (hit) {
        stats.hits++;
        onEvent?.({ type: 'cacheHit', endpoint: call.endpoint });
        return hit.value as T;
      }
      const joined = inFlight.get(key);
      if (joined) {
        stats.coalesced++;
        onEvent?.({ type: 'coalesced', endpoint: call.endpoint });
        return joined as Promise<T>;
      }
      stats.misses++;
      onEvent?.({ type: 'cacheMiss', endpoint: call.endpoint });
      const pending = send(client).then((value) => {
        if (keep) remember(key, value);
        return value;
      });
      inFlight.set(key, pending);
      const settle = () => {
        if (inFlight.get(key) === pending) inFlight.delete(key);
      };
      // Both branches handled here, so a rejection is not reported as unhandled; callers still get it.
      pending.then(settle, settle);
      return pending;
    });

  return { ...view(true), fresh: view(false), bulk: { ...view(true, false), fresh: view(false, false) }, stats: () => ({ ...stats }) };
};
