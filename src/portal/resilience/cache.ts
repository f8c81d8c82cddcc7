import { answerBytesOf, type PortalClient } from '../client.ts';
import { intercept, type OnEvent, type PortalCall } from './intercept.ts';

export type CacheOptions = {
  ttlMs?: number;
  maxEntries?: number;
  /** The bytes the kept pages may take together, as `sizeOf` counts them; a larger page is not kept. */
  maxBytes?: number;
  /** What a page counts as; called once per page kept, never on a hit. */
  sizeOf?: (value: unknown) => number;
  /** How often expired pages are dropped; by default the TTL, within 1–30 s. */
  sweepEveryMs?: number;
  now?: () => number;
  onEvent?: OnEvent;
};

export type CacheStats = { hits: number; misses: number; coalesced: number };

export type CachingClient = PortalClient & {
  stats(): CacheStats;
  /** What is kept now: pages, and their bytes as `sizeOf` counts them. */
  size(): { entries: number; bytes: number };
  /** Stops the sweep timer (the cache still answers; expired pages then go when asked for or pushed out). */
  close(): void;
  /** The same client without cached answers (for Refresh): it still joins a call in flight and stores its result. */
  fresh: PortalClient;
  /**
   * For reading every page of a query (an export): cached answers and calls in flight are used,
   * its own answers are not kept, so fifty large pages neither push users' pages out nor stay on the heap.
   * Its `fresh` skips cached answers too, for reading the pages again when they disagreed.
   */
  bulk: PortalClient & { fresh: PortalClient };
};

export const DEFAULT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * About the JSON bytes a value would be sent as, for pages whose answer was not measured (a client
 * other than createPortalClient): each string's length twice (Cyrillic takes two bytes in UTF-8,
 * quotes and escapes are left out), each key's once, and 8 bytes for every other value and bracket pair.
 */
export const estimateBytes = (value: unknown): number => {
  if (typeof value === 'string') return 2 * value.length;
  if (value === null || typeof value !== 'object') return 8;
  let bytes = 8;
  if (Array.isArray(value)) for (const item of value) bytes += estimateBytes(item);
  else for (const [key, item] of Object.entries(value)) bytes += key.length + estimateBytes(item);
  return bytes;
};

/**
 * A page counts as the bytes of the portal answer it was parsed from (known for free once read);
 * parsed, it takes about 1.5 times that on the heap. Other values are walked by estimateBytes.
 */
export const pageBytes = (value: unknown): number =>
  (typeof value === 'object' && value !== null ? answerBytesOf(value) : undefined) ?? estimateBytes(value);

const keyOf = ({ endpoint, query, paging }: PortalCall): string =>
  JSON.stringify([endpoint, query.resource, query.filter, query.value, paging.limit, paging.offset]);

type Entry = { value: unknown; expiresAt: number; bytes: number };

/**
 * Identical calls in flight are sent once; successful pages are kept for ttlMs, the least
 * recently used dropped beyond maxEntries or maxBytes. Expired pages are dropped by a timer, off
 * the call path. Errors are never kept. Cached pages are shared objects: callers must not mutate them.
 */
export const withCache = (
  client: PortalClient,
  {
    ttlMs = 30_000,
    maxEntries = 500,
    maxBytes = DEFAULT_CACHE_MAX_BYTES,
    sizeOf = pageBytes,
    sweepEveryMs = Math.min(Math.max(ttlMs, 1000), 30_000),
    now = Date.now,
    onEvent,
  }: CacheOptions = {},
): CachingClient => {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const inFlight = new Map<string, Promise<unknown>>();
  const stats: CacheStats = { hits: 0, misses: 0, coalesced: 0 };

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  const remember = (key: string, value: unknown) => {
    drop(key);
    if (ttlMs <= 0) return;
    const size = sizeOf(value);
    if (size > maxBytes) return;
    entries.set(key, { value, expiresAt: now() + ttlMs, bytes: size });
    bytes += size;
    // A Map iterates in insertion order, so the first key is the least recently used; the page
    // just kept is the last, and fits on its own.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      drop(oldest);
    }
  };

  const cached = (key: string): { value: unknown } | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (now() >= entry.expiresAt) {
      drop(key);
      return undefined;
    }
    // Set again: last in the Map's order, the most recently used.
    entries.delete(key);
    entries.set(key, entry);
    return entry;
  };

  const sweep = () => {
    const time = now();
    for (const [key, entry] of entries) if (time >= entry.expiresAt) drop(key);
  };
  const timer = ttlMs > 0 ? setInterval(sweep, sweepEveryMs).unref() : undefined;
  const close = () => clearInterval(timer);

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

  return {
    ...view(true),
    fresh: view(false),
    bulk: { ...view(true, false), fresh: view(false, false) },
    stats: () => ({ ...stats }),
    size: () => ({ entries: entries.size, bytes }),
    close,
  };
};
