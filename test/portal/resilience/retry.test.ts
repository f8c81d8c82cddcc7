import type { Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalClient } from '../../../src/portal/client.ts';
import { PortalHttpError, PortalNotJsonError, PortalRejectedError, PortalTimeoutError } from '../../../src/portal/errors.ts';
import type { PortalEvent } from '../../../src/portal/resilience/intercept.ts';
import { withRetry } from '../../../src/portal/resilience/retry.ts';
import { json, startHttpStub } from '../../support/http-stub.ts';
import { closeServer, envelope, listenOn, paging, query, sequence } from './fixtures.ts';

describe('withRetry', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let events: PortalEvent[];
  const retrying = (url: string) =>
    withRetry(createPortalClient({ baseUrl: url, token: 't', timeoutMs: 300 }), { baseDelayMs: 20, onEvent: (e) => events.push(e) });

  beforeEach(async () => {
    stub = await startHttpStub(json(200, envelope()));
    events = [];
  });
  afterEach(() => stub.close());

  it('retries a 502 once, then succeeds', async () => {
    stub.respond(sequence(json(502, 'bad gateway'), json(200, envelope())));
    const page = await retrying(stub.url).listOrders(query, paging);
    expect(page.items).toHaveLength(1);
    expect(stub.requests).toHaveLength(2);
    expect(events).toEqual([{ type: 'retry', endpoint: 'listOrders', outcome: 'PORTAL_HTTP', ms: expect.any(Number) }]);
    expect(events[0]?.ms).toBeGreaterThanOrEqual(10);
    expect(events[0]?.ms).toBeLessThanOrEqual(20);
  });

  it('retries once only: a second 5xx surfaces', async () => {
    stub.respond(json(503, ''));
    await expect(retrying(stub.url).listSpecifications({ resource: 'specification', filter: 'STATUS', value: '20' }, paging)).rejects.toMatchObject({
      constructor: PortalHttpError,
      status: 503,
    });
    expect(stub.requests).toHaveLength(2);
  });

  it('retries a refused connection, then succeeds', async () => {
    const { url } = stub;
    const port = Number(new URL(url).port);
    await stub.close();
    let started: Promise<Server> | undefined;
    const client = withRetry(createPortalClient({ baseUrl: url, token: 't', timeoutMs: 300 }), {
      baseDelayMs: 200,
      // The portal comes back during the backoff.
      onEvent: (event) => {
        events.push(event);
        started = listenOn(port, json(200, envelope()));
      },
    });
    try {
      const page = await client.listOrders(query, paging);
      expect(page.total).toBe(1);
      expect(events).toMatchObject([{ type: 'retry', outcome: 'PORTAL_NETWORK' }]);
    } finally {
      const server = await started;
      if (server) await closeServer(server);
      stub = await startHttpStub(json(200, {}));
    }
  });

  it.each([
    ['a 400', json(400, 'bad request'), PortalHttpError],
    ['a 401', json(401, ''), PortalHttpError],
    ['an answer that is not JSON', json(200, '<html>'), PortalNotJsonError],
    ['success:false', json(200, { success: false, error_code: 'LIMIT', data: null }), PortalRejectedError],
    ['a timeout', () => undefined, PortalTimeoutError],
  ])('does not retry %s', async (_, handler, type) => {
    stub.respond(handler);
    await expect(retrying(stub.url).listOrders(query, paging)).rejects.toBeInstanceOf(type);
    expect(stub.requests).toHaveLength(1);
    expect(events).toEqual([]);
  });
});
