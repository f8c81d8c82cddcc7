import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalClient } from '../../../src/portal/client.ts';
import { PortalHttpError, PortalNetworkError } from '../../../src/portal/errors.ts';
import { withCircuitBreaker } from '../../../src/portal/resilience/circuit-breaker.ts';
import { PortalCircuitOpenError } from '../../../src/portal/resilience/errors.ts';
import type { PortalEvent } from '../../../src/portal/resilience/intercept.ts';
import { json, startHttpStub } from '../../support/http-stub.ts';
import { delayed, envelope, manualClock, paging, query } from './fixtures.ts';

describe('withCircuitBreaker', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let clock: ReturnType<typeof manualClock>;
  let events: PortalEvent[];
  let breaker: ReturnType<typeof withCircuitBreaker>;
  const call = () => breaker.listOrders(query, paging);
  const failTimes = async (n: number) => {
    for (let i = 0; i < n; i++) await call().catch(() => undefined);
  };

  beforeEach(async () => {
    stub = await startHttpStub(json(503, 'down'));
    clock = manualClock();
    events = [];
    breaker = withCircuitBreaker(createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 300 }), {
      failureThreshold: 3,
      openMs: 10_000,
      now: clock.now,
      onEvent: (e) => events.push(e),
    });
  });
  afterEach(() => stub.close());

  it('opens after N consecutive failures and then fails fast without HTTP', async () => {
    await failTimes(2);
    expect(breaker.state()).toBe('closed');
    await expect(call()).rejects.toBeInstanceOf(PortalHttpError);
    expect(breaker.state()).toBe('open');
    clock.advance(4_000);
    await expect(call()).rejects.toMatchObject({ constructor: PortalCircuitOpenError, code: 'PORTAL_CIRCUIT_OPEN', retryAfterMs: 6_000 });
    expect(stub.requests).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(['circuitOpen', 'circuitReject']);
    expect(events[0]?.outcome).toBe('PORTAL_HTTP');
  });

  it('lets one trial through after openMs and closes when it succeeds', async () => {
    await failTimes(3);
    clock.advance(10_000);
    expect(breaker.state()).toBe('half-open');
    stub.respond(json(200, envelope()));
    const page = await call();
    expect(page.total).toBe(1);
    expect(breaker.state()).toBe('closed');
    expect(breaker.lastSuccessAt()).toBe(clock.now());
    expect(stub.requests).toHaveLength(4);
    expect(events.map((e) => e.type)).toEqual(['circuitOpen', 'circuitHalfOpen', 'circuitClose']);
  });

  it('opens again when the trial fails, for another openMs', async () => {
    await failTimes(3);
    clock.advance(10_000);
    await expect(call()).rejects.toBeInstanceOf(PortalHttpError);
    expect(breaker.state()).toBe('open');
    await expect(call()).rejects.toBeInstanceOf(PortalCircuitOpenError);
    expect(stub.requests).toHaveLength(4);
  });

  it('sends one trial at a time while half-open', async () => {
    await failTimes(3);
    clock.advance(10_000);
    stub.respond(delayed(100, json(200, envelope())));
    const trial = call();
    await expect(call()).rejects.toBeInstanceOf(PortalCircuitOpenError);
    expect(breaker.state()).toBe('half-open');
    await trial;
    expect(breaker.state()).toBe('closed');
    expect(stub.requests).toHaveLength(4);
  });

  it('counts refused connections; answers that are not "down" reset the count', async () => {
    await failTimes(2);
    stub.respond(json(400, 'bad request'));
    await expect(call()).rejects.toMatchObject({ status: 400 });
    stub.respond(json(503, 'down'));
    await failTimes(2);
    expect(breaker.state()).toBe('closed');
    expect(breaker.lastSuccessAt()).toBeUndefined();

    await stub.close();
    await expect(call()).rejects.toBeInstanceOf(PortalNetworkError);
    expect(breaker.state()).toBe('open');
    stub = await startHttpStub(json(200, {}));
  });
});
