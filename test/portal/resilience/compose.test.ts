import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPortalClient } from '../../../src/portal/client.ts';
import { composePortal } from '../../../src/portal/resilience/compose.ts';
import { PortalCircuitOpenError } from '../../../src/portal/resilience/errors.ts';
import type { PortalEvent } from '../../../src/portal/resilience/intercept.ts';
import { json, startHttpStub } from '../../support/http-stub.ts';
import { envelope, manualClock, paging, query, sequence } from './fixtures.ts';

describe('composePortal', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let clock: ReturnType<typeof manualClock>;
  let events: PortalEvent[];
  let portal: ReturnType<typeof composePortal>;

  beforeEach(async () => {
    stub = await startHttpStub(json(200, envelope()));
    clock = manualClock();
    events = [];
    portal = composePortal({
      base: createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 300 }),
      logger: pino({ level: 'silent' }),
      onEvent: (e) => events.push(e),
      now: clock.now,
      retry: { baseDelayMs: 10 },
      breaker: { failureThreshold: 2, openMs: 1_000 },
    });
  });
  afterEach(() => {
    portal.close();
    return stub.close();
  });

  it('retries below the cache, then answers the same call from the cache', async () => {
    stub.respond(sequence(json(502, ''), json(200, envelope())));
    await portal.listOrders(query, paging);
    await portal.listOrders(query, paging);
    expect(events.map((e) => `${e.type}:${e.outcome ?? ''}`)).toEqual(['cacheMiss:', 'call:PORTAL_HTTP', 'retry:PORTAL_HTTP', 'call:ok', 'cacheHit:']);
    expect(stub.requests).toHaveLength(2);
    expect(portal.stats()).toEqual({ hits: 1, misses: 1, coalesced: 0 });
    expect(portal.lastSuccessAt()).toBe(clock.now());
  });

  it('counts one failure per call after its retry, and an open circuit sends nothing', async () => {
    stub.respond(json(503, ''));
    await portal.listOrders(query, paging).catch(() => undefined);
    expect(portal.state()).toBe('closed');
    await portal.listOrders(query, paging).catch(() => undefined);
    expect(portal.state()).toBe('open');
    expect(stub.requests).toHaveLength(4);
    await expect(portal.fresh.listOrders(query, paging)).rejects.toBeInstanceOf(PortalCircuitOpenError);
    expect(stub.requests).toHaveLength(4);
  });

  it("stops the cache's sweep of expired pages on close", () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const swept = composePortal({ base: createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 300 }), cache: { ttlMs: 1000 } });
      expect(vi.getTimerCount()).toBe(1);
      swept.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
