import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalClient } from '../../../src/portal/client.ts';
import { PortalHttpError } from '../../../src/portal/errors.ts';
import { withCache } from '../../../src/portal/resilience/cache.ts';
import { json, startHttpStub } from '../../support/http-stub.ts';
import { delayed, envelope, manualClock, paging, query } from './fixtures.ts';

describe('withCache', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let clock: ReturnType<typeof manualClock>;
  let cache: ReturnType<typeof withCache>;
  const other = (value: string) => ({ ...query, value });

  beforeEach(async () => {
    stub = await startHttpStub(json(200, envelope()));
    clock = manualClock();
    cache = withCache(createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 300 }), { ttlMs: 30_000, maxEntries: 2, now: clock.now });
  });
  afterEach(() => stub.close());

  it('answers an identical call from the cache within the TTL, and asks again after it', async () => {
    const first = await cache.listOrders(query, paging);
    clock.advance(29_999);
    expect(await cache.listOrders(query, paging)).toBe(first);
    expect(stub.requests).toHaveLength(1);
    clock.advance(1);
    await cache.listOrders(query, paging);
    expect(stub.requests).toHaveLength(2);
    expect(cache.stats()).toEqual({ hits: 1, misses: 2, coalesced: 0 });
  });

  it('keys by method, query and paging', async () => {
    await cache.listOrders(query, paging);
    await cache.listOrders(query, { limit: 5, offset: 5 });
    await cache.listOrders(other('2'), paging);
    await cache.listSpecifications({ resource: 'specification', filter: 'STATUS', value: '0007300100' }, paging).catch(() => undefined);
    expect(stub.requests).toHaveLength(4);
  });

  it('drops the least recently used entry beyond maxEntries', async () => {
    await cache.listOrders(other('a'), paging);
    await cache.listOrders(other('b'), paging);
    await cache.listOrders(other('a'), paging);
    await cache.listOrders(other('c'), paging);
    expect(stub.requests).toHaveLength(3);
    await cache.listOrders(other('a'), paging);
    await cache.listOrders(other('c'), paging);
    expect(stub.requests).toHaveLength(3);
    await cache.listOrders(other('b'), paging);
    expect(stub.requests).toHaveLength(4);
  });

  it('sends 10 concurrent identical calls once', async () => {
    stub.respond(delayed(50, json(200, envelope())));
    const pages = await Promise.all(Array.from({ length: 10 }, () => cache.listOrders(query, paging)));
    expect(stub.requests).toHaveLength(1);
    expect(new Set(pages).size).toBe(1);
    expect(cache.stats()).toEqual({ hits: 0, misses: 1, coalesced: 9 });
  });

  it('rejects every waiter of a failed call and does not keep the error', async () => {
    stub.respond(delayed(50, json(500, 'boom')));
    const results = await Promise.allSettled(Array.from({ length: 10 }, () => cache.listOrders(query, paging)));
    expect(stub.requests).toHaveLength(1);
    for (const result of results) expect(result).toMatchObject({ status: 'rejected', reason: { constructor: PortalHttpError, status: 500 } });

    stub.respond(json(200, envelope()));
    await expect(cache.listOrders(query, paging)).resolves.toMatchObject({ total: 1 });
    expect(stub.requests).toHaveLength(2);
  });

  it('skips cached pages through fresh, and keeps what it fetched', async () => {
    await cache.listOrders(query, paging);
    stub.respond(json(200, envelope([], 0)));
    expect(await cache.fresh.listOrders(query, paging)).toMatchObject({ total: 0 });
    expect(await cache.listOrders(query, paging)).toMatchObject({ total: 0 });
    expect(stub.requests).toHaveLength(2);
  });

  it('uses cached pages and calls in flight through bulk, but keeps none of its own', async () => {
    const kept = await cache.listOrders(query, paging);
    expect(await cache.bulk.listOrders(query, paging)).toBe(kept);
    await cache.bulk.listOrders(other('bulk'), paging);
    await cache.bulk.listOrders(other('bulk'), paging);
    expect(stub.requests).toHaveLength(3);
    // Nothing of bulk's was kept: the page kept before is still there (maxEntries is 2).
    await cache.listOrders(other('b'), paging);
    await cache.listOrders(query, paging);
    expect(stub.requests).toHaveLength(4);
    stub.respond(delayed(50, json(200, envelope())));
    await Promise.all([cache.listOrders(other('c'), paging), cache.bulk.listOrders(other('c'), paging)]);
    expect(stub.requests).toHaveLength(5);
  });
});
