import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPortalClient, type Page, type PortalClient } from '../../../src/portal/client.ts';
import { PortalHttpError } from '../../../src/portal/errors.ts';
import { estimateBytes, withCache } from '../../../src/portal/resilience/cache.ts';
import type { Order } from '../../../src/portal/schemas.ts';
import { json, startHttpStub } from '../../support/http-stub.ts';
import { delayed, envelope, manualClock, order, paging, query } from './fixtures.ts';

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
  afterEach(async () => {
    cache.close();
    await stub.close();
  });

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

describe('withCache bounded by bytes', () => {
  /** A portal whose page for query value "300" counts as 300 bytes (by `sizeOf` below). */
  const sized = () => {
    const calls: string[] = [];
    const page = (value: string): Page<Order> => ({ items: [], total: Number(value), limit: 5, offset: 0 });
    const client: PortalClient = {
      listOrders: async (q) => {
        calls.push(q.value);
        return page(q.value);
      },
      listSpecifications: async (q) => ({ ...page(q.value), items: [] }),
    };
    return { client, calls };
  };
  const sizeOf = (value: unknown) => (value as Page<Order>).total;
  const ask = (cache: ReturnType<typeof withCache>, value: string) => cache.listOrders({ ...query, value }, paging);
  let clock: ReturnType<typeof manualClock>;
  let closeCache: () => void = () => undefined;
  beforeEach(() => {
    clock = manualClock();
  });
  afterEach(() => {
    closeCache();
    vi.useRealTimers();
  });
  const create = (client: PortalClient, options: Parameters<typeof withCache>[1]) => {
    const cache = withCache(client, { now: clock.now, ...options });
    closeCache = cache.close;
    return cache;
  };

  it('drops the least recently used pages until the bytes fit', async () => {
    const { client, calls } = sized();
    const cache = create(client, { maxBytes: 1000, sizeOf });
    await ask(cache, '400');
    await ask(cache, '401');
    await ask(cache, '400');
    expect(cache.size()).toEqual({ entries: 2, bytes: 801 });
    await ask(cache, '402');
    expect(cache.size()).toEqual({ entries: 2, bytes: 802 });
    await ask(cache, '400');
    await ask(cache, '402');
    expect(calls).toEqual(['400', '401', '402']);
    await ask(cache, '401');
    expect(calls).toEqual(['400', '401', '402', '401']);
  });

  it('returns a page larger than the whole bound without keeping it or dropping others for it', async () => {
    const { client, calls } = sized();
    const cache = create(client, { maxBytes: 1000, sizeOf });
    await ask(cache, '600');
    expect(await ask(cache, '1001')).toMatchObject({ total: 1001 });
    expect(cache.size()).toEqual({ entries: 1, bytes: 600 });
    await ask(cache, '1001');
    await ask(cache, '600');
    expect(calls).toEqual(['600', '1001', '1001']);
  });

  it('sizes each kept page once: never on a hit, a joined call or a bulk read', async () => {
    const { client } = sized();
    const measure = vi.fn(sizeOf);
    const cache = create(client, { maxBytes: 1000, sizeOf: measure });
    await Promise.all([ask(cache, '10'), ask(cache, '10'), cache.bulk.listOrders({ ...query, value: '10' }, paging)]);
    for (let i = 0; i < 5; i++) await ask(cache, '10');
    await cache.bulk.listOrders({ ...query, value: '20' }, paging);
    expect(measure).toHaveBeenCalledTimes(1);
    await cache.fresh.listOrders({ ...query, value: '10' }, paging);
    expect(measure).toHaveBeenCalledTimes(2);
    expect(cache.size()).toEqual({ entries: 1, bytes: 10 });
  });

  it('counts a page from the portal client as the bytes of its answer', async () => {
    const body = envelope([{ ...order, STATUS_TEXT: 'Производство на заводе' }]);
    const stub = await startHttpStub(json(200, body));
    try {
      const cache = create(createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 300 }), {});
      await cache.listOrders(query, paging);
      const text = JSON.stringify(body);
      expect(cache.size()).toEqual({ entries: 1, bytes: Buffer.byteLength(text) });
      expect(Buffer.byteLength(text)).toBeGreaterThan(text.length);
    } finally {
      await stub.close();
    }
  });

  it('walks any other value: strings twice their length, keys once, 8 for other values and brackets', async () => {
    expect(estimateBytes({ ab: 'где', n: [1, null, true] })).toBe(8 + 2 + 6 + 1 + 8 + 3 * 8);
    const { client } = sized();
    const cache = create(client, {});
    const page = await ask(cache, '7');
    expect(cache.size().bytes).toBe(estimateBytes(page));
  });

  it('drops expired pages on a timer, with no call made', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { client } = sized();
    const cache = create(client, { ttlMs: 60_000, sizeOf });
    await ask(cache, '100');
    clock.advance(30_000);
    await ask(cache, '200');
    vi.advanceTimersByTime(30_000);
    expect(cache.size()).toEqual({ entries: 2, bytes: 300 });
    clock.advance(30_000);
    vi.advanceTimersByTime(30_000);
    expect(cache.size()).toEqual({ entries: 1, bytes: 200 });
    clock.advance(30_000);
    vi.advanceTimersByTime(30_000);
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
  });

  it('stops sweeping on close', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { client } = sized();
    const closed = create(client, { ttlMs: 1000, sizeOf });
    await ask(closed, '5');
    closed.close();
    clock.advance(1000);
    vi.advanceTimersByTime(5000);
    expect(closed.size()).toEqual({ entries: 1, bytes: 5 });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('keeps nothing and runs no timer when the TTL is 0, and still joins calls in flight', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { client, calls } = sized();
    const cache = create(client, { ttlMs: 0, sizeOf });
    await Promise.all([ask(cache, '5'), ask(cache, '5')]);
    await ask(cache, '5');
    expect(calls).toEqual(['5', '5']);
    expect(cache.size()).toEqual({ entries: 0, bytes: 0 });
    expect(vi.getTimerCount()).toBe(0);
  });
});
