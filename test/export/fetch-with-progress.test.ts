import { getEventListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchWithProgress } from '../../src/export/fetch-with-progress.ts';
import { parseConfig } from '../../src/config.ts';
import { sendJson } from '../../src/http/respond.ts';
import { createPortalClient, type PortalClient } from '../../src/portal/client.ts';
import { composePortal } from '../../src/portal/resilience/compose.ts';
import type { MemoryLease } from '../../src/memory-budget.ts';
import { PortalPagesMovedError, RecordsTooLargeError } from '../../src/portal/fetch-all.ts';

// The records of an export from a portal with a large synthetic set of orders (the test portal's
// demo data has a few dozen): the default cap, and pages that disagree because one was cached.

const TOKEN = 'fetch-test-token';
const order = (index: number) => ({
  SAP_ID: String(7_000_000 + index).padStart(10, '0'),
  CRM_ID: `CRM-${index}`,
  DATE_ORDER: '2026-03-15 00:00:00',
  STATUS: 'production',
  STATUS_TEXT: 'Производство',
  PREPAYMENT: null,
  POSITION_SUM: 100,
  POSITION_METERS: null,
  POSITION_PIECES: null,
  POSITION_WEIGHT_TONN: null,
  POSITION: [],
});

/** Every order query finds `state.orders`; `state.first` is the index of the first one (a new order moves the others down). */
const state = { orders: 1234, first: 0, requests: 0 };
let url = '';
const server = createServer((req, res) => {
  state.requests += 1;
  const params = new URL(req.url ?? '/', 'http://portal').searchParams;
  const limit = Number(params.get('limit'));
  const offset = Number(params.get('offset'));
  const result = Array.from({ length: Math.max(0, Math.min(limit, state.orders - offset)) }, (_, k) => order(state.first + offset + k));
  sendJson(res, 200, { success: true, error_code: null, data: { result, total: state.orders, limit, offset } });
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const query = { resource: 'order', filter: 'STATUS', value: 'production' } as const;
const portal = () => composePortal({ base: createPortalClient({ baseUrl: url, token: TOKEN, timeoutMs: 5_000 }), cache: { ttlMs: 60_000 } });

describe('fetchWithProgress', () => {
  it('reads at most the default EXPORT_MAX_RECORDS (1000) of 1234, 20 a page, telling the count after each page', async () => {
    Object.assign(state, { orders: 1234, first: 0, requests: 0 });
    const counts: Array<[number, number]> = [];
    const all = await fetchWithProgress(portal().bulk, query, parseConfig({}).export.maxRecords, (done, wanted) => counts.push([done, wanted]));
    expect(all.items).toHaveLength(1000);
    expect(all.total).toBe(1234);
    expect(state.requests).toBe(50);
    expect(counts.at(0)).toEqual([20, 1000]);
    expect(counts.at(-1)).toEqual([1000, 1000]);
  });

  it('reads the pages once more past the cache when a cached page disagrees with a new one', async () => {
    Object.assign(state, { orders: 30, first: 0, requests: 0 });
    const resilient = portal();
    // Someone's lookup cached the second page; then a new order came first.
    await resilient.listOrders(query, { limit: 20, offset: 20 });
    Object.assign(state, { orders: 31, first: -1 });
    await expect(fetchWithProgress({ ...resilient.bulk, fresh: undefined }, query, 1000, () => undefined)).rejects.toBeInstanceOf(PortalPagesMovedError);
    const all = await fetchWithProgress(resilient.bulk, query, 1000, () => undefined);
    expect(all.total).toBe(31);
    expect(all.items.map((item) => item.SAP_ID)).toEqual(Array.from({ length: 31 }, (_, k) => String(6_999_999 + k).padStart(10, '0')));
  });

  /** A lease that takes `pages` pages, counting what it is given, freed or not. */
  const pagesLease = (pages: number) => {
    const lease = { taken: [] as number[], frees: 0 };
    const memory: MemoryLease = {
      take: (bytes) => {
        if (lease.taken.length >= pages) return 'over';
        lease.taken.push(bytes);
        return 'ok';
      },
      free: () => {
        lease.frees += 1;
        lease.taken = [];
      },
    };
    return { lease, memory };
  };

  it('stops at the first page its memory does not take, keeping those before it, the cut told apart from EXPORT_MAX_RECORDS', async () => {
    Object.assign(state, { orders: 1234, first: 0, requests: 0 });
    const { lease, memory } = pagesLease(7);
    const all = await fetchWithProgress(portal().bulk, query, 1000, () => undefined, undefined, memory);
    expect(all).toMatchObject({ total: 1234, cut: true });
    expect(all.items).toHaveLength(140);
    expect(state.requests).toBe(8);
    // Each page counted by what its answer takes parsed and the strings it brought: more than its bytes.
    expect(lease.taken).toHaveLength(7);
    for (const bytes of lease.taken) expect(bytes).toBeGreaterThan(3 * 20 * JSON.stringify(order(0)).length);
    expect((await fetchWithProgress(portal().bulk, query, 100, () => undefined)).cut).toBeUndefined();
  });

  it('refuses when not even the first page fits', async () => {
    Object.assign(state, { orders: 1234, first: 0, requests: 0 });
    await expect(fetchWithProgress(portal().bulk, query, 1000, () => undefined, undefined, pagesLease(0).memory)).rejects.toBeInstanceOf(RecordsTooLargeError);
    expect(state.requests).toBe(1);
  });

  it('counts the pages afresh when it reads them again past the cache', async () => {
    Object.assign(state, { orders: 30, first: 0, requests: 0 });
    const resilient = portal();
    await resilient.listOrders(query, { limit: 20, offset: 20 });
    Object.assign(state, { orders: 31, first: -1 });
    // Two pages fit; the first reading's are given back before the second reading takes its own.
    const { lease, memory } = pagesLease(2);
    const all = await fetchWithProgress(resilient.bulk, query, 1000, () => undefined, undefined, memory);
    expect(all.items).toHaveLength(31);
    expect(all.cut).toBeUndefined();
    expect(lease.frees).toBe(2);
    expect(lease.taken).toHaveLength(2);
  });

  // The bot's stop signal lives as long as the bot: a listener left on it kept every page of every
  // export alive through the promise it settled (about 15 MB an export of 1000 × 60, until two
  // exports at once ran out of the 192 MB heap).
  it("leaves no listener on the bot's stop signal, whether the reading ends in records or in an error", async () => {
    const stopping = new AbortController();
    Object.assign(state, { orders: 45, first: 0, requests: 0 });
    const all = await fetchWithProgress(portal().bulk, query, 1000, () => undefined, stopping.signal);
    expect(all.items).toHaveLength(45);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);

    const resilient = portal();
    await resilient.listOrders(query, { limit: 20, offset: 20 });
    Object.assign(state, { orders: 46, first: -1 });
    await expect(fetchWithProgress({ ...resilient.bulk, fresh: undefined }, query, 1000, () => undefined, stopping.signal)).rejects.toBeInstanceOf(PortalPagesMovedError);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);

    // A page that fails: its listener goes too.
    const failure = new Error('the portal is down');
    const failing: PortalClient = { listOrders: () => Promise.reject(failure), listSpecifications: () => Promise.reject(failure) };
    await expect(fetchWithProgress(failing, query, 1000, () => undefined, stopping.signal)).rejects.toBe(failure);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
    expect(stopping.signal.aborted).toBe(false);
  });

  it('asks for no page once the bot stops', async () => {
    const stopping = new AbortController();
    const reason = new Error('the bot stops');
    stopping.abort(reason);
    let asked = 0;
    const counting: PortalClient = {
      listOrders: () => {
        asked += 1;
        return new Promise<never>(() => undefined);
      },
      listSpecifications: () => new Promise<never>(() => undefined),
    };
    await expect(fetchWithProgress(counting, query, 1000, () => undefined, stopping.signal)).rejects.toBe(reason);
    expect(asked).toBe(0);
  });

  it('ends the wait for a page the portal holds when the bot stops, with the stop as the reason', async () => {
    const stopping = new AbortController();
    const held = new Promise<never>(() => undefined);
    const holding: PortalClient = { listOrders: () => held, listSpecifications: () => held };
    const reading = fetchWithProgress(holding, query, 1000, () => undefined, stopping.signal);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(1);
    const reason = new Error('the bot stops');
    stopping.abort(reason);
    await expect(reading).rejects.toBe(reason);
    expect(getEventListeners(stopping.signal, 'abort')).toHaveLength(0);
  });
});
