import { Readable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config.ts';
import { createPortalClient, DEFAULT_MAX_BODY_BYTES } from '../../src/portal/client.ts';
import { PortalBodyTooLargeError, PortalHttpError } from '../../src/portal/errors.ts';
import { createByteBudget, readCapped } from '../../src/portal/read-body.ts';
import { withRetry } from '../../src/portal/resilience/retry.ts';
import { makeOrder } from '../fixtures/portal-records.ts';
import { worstOrder } from '../fixtures/worst-case.ts';
import { json, startHttpStub, type StubHandler } from '../support/http-stub.ts';

// Whatever the portal sends, the client holds at most `maxBodyBytes` of it and stops reading there.

const CAP = 64 * 1024;
const query = { resource: 'order', filter: 'SAP_ID', value: '1' } as const;
const paging = { limit: 5, offset: 0 } as const;
const envelope = (result: unknown[], total = result.length) => ({ success: true, error_code: null, data: { result, total, limit: 5, offset: 0 } });

/** Sends `status` and then 16 KiB chunks without end; `closed` resolves when the client hangs up. */
const endless = (status: number) => {
  let resolveClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const handler: StubHandler = (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.write(`{"success":true,"data":{"result":[{"SAP_ID":"`);
    const chunk = 'Ж'.repeat(8 * 1024);
    const timer = setInterval(() => res.write(chunk), 1);
    res.on('close', () => {
      clearInterval(timer);
      resolveClosed();
    });
  };
  return { handler, closed };
};

describe('portal client: body size', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let portal: ReturnType<typeof createPortalClient>;
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  beforeEach(async () => {
    logs.length = 0;
    stub = await startHttpStub(json(200, envelope([])));
    portal = createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 2_000, maxBodyBytes: CAP, logger });
  });
  afterEach(() => stub.close());

  it('reports a body over the cap as unreadable data, naming the cap', async () => {
    stub.respond(json(200, envelope([makeOrder({ SAP_ID: '1', CRM_ID: 'Ж'.repeat(500_000) })])));
    const error = await portal.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalBodyTooLargeError);
    expect((error as Error).message).toContain(`${CAP} bytes`);
  });

  it('stops reading at the cap and drops the connection, without waiting for the end', async () => {
    const { handler, closed } = endless(200);
    stub.respond(handler);
    const started = Date.now();
    await expect(portal.listOrders(query, paging)).rejects.toBeInstanceOf(PortalBodyTooLargeError);
    await closed;
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('refuses a Content-Length over the cap before reading', async () => {
    stub.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(100 * 1024 * 1024) });
      res.write('{"success":');
    });
    const error = await portal.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalBodyTooLargeError);
    expect((error as Error).message).toContain('104857600');
  });

  it('reads at most 4 KiB of an error body, keeps 300 characters of it for the log, and drops the rest', async () => {
    const { handler, closed } = endless(502);
    stub.respond(handler);
    const error = await portal.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalHttpError);
    expect((error as PortalHttpError).status).toBe(502);
    expect((error as PortalHttpError).body).toHaveLength(300);
    await closed;
  });

  it('does not retry a body over the cap', async () => {
    stub.respond(json(200, envelope([makeOrder({ SAP_ID: '1', CRM_ID: 'Ж'.repeat(500_000) })])));
    await expect(withRetry(portal, { baseDelayMs: 1 }).listOrders(query, paging)).rejects.toBeInstanceOf(PortalBodyTooLargeError);
    expect(stub.requests).toHaveLength(1);
  });

  it('takes at most `limit` records from a page, and logs the excess', async () => {
    const records = Array.from({ length: 12 }, (_, index) => makeOrder({ SAP_ID: String(index + 1) }));
    stub.respond(json(200, envelope(records, 40)));
    const page = await portal.listOrders(query, paging);
    expect(page.items.map((order) => order.SAP_ID)).toEqual(['1', '2', '3', '4', '5']);
    expect(page.total).toBe(40);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, received: 12, limit: 5, msg: 'portal sent more records than asked; the rest are ignored' }));
  });

  it('lets a full real page through by default, far below the cap', async () => {
    const body = JSON.stringify(envelope(Array.from({ length: 20 }, (_, index) => worstOrder(index))));
    stub.respond(json(200, body));
    const client = createPortalClient({ baseUrl: stub.url, token: 't', timeoutMs: 2_000 });
    expect((await client.listOrders(query, { limit: 20, offset: 0 })).items).toHaveLength(20);
    expect(Buffer.byteLength(body) * 4).toBeLessThan(DEFAULT_MAX_BODY_BYTES);
    expect(parseConfig({}).portal.maxBodyBytes).toBe(DEFAULT_MAX_BODY_BYTES);
  });
});

describe('answers read at once', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  beforeEach(async () => {
    stub = await startHttpStub(json(200, envelope([])));
  });
  afterEach(() => stub.close());
  const chunks = (count: number, size: number) => Readable.from(Array.from({ length: count }, () => Buffer.alloc(size, 0x20)));

  it('stop being read when together they pass the budget, and give it back when done', async () => {
    const budget = createByteBudget(100_000);
    const first = Readable.from((async function* () {
      yield Buffer.alloc(60_000, 0x20);
      await new Promise((resolve) => setTimeout(resolve, 50));
      yield Buffer.alloc(1, 0x20);
    })());
    const reading = readCapped(first, 1_000_000, budget);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // The first answer holds 60,000 bytes: a second of 60,000 does not fit beside it.
    expect(await readCapped(chunks(2, 30_000), 1_000_000, budget)).toMatchObject({ overBudget: true, text: '' });
    expect(await reading).toMatchObject({ overBudget: false, truncated: false });
    // Everything read was given back: the same answer fits now.
    expect(await readCapped(chunks(2, 30_000), 1_000_000, budget)).toMatchObject({ overBudget: false, truncated: false });
  });

  it('fail the call as an unreadable answer, as one answer over the cap does', async () => {
    stub.respond(json(200, envelope([makeOrder({ SAP_ID: '1', CRM_ID: 'x'.repeat(40_000) })])));
    const tight = createPortalClient({ baseUrl: stub.url, token: 'token', timeoutMs: 2_000, maxBodyBytes: 65_536, bodyBudget: createByteBudget(10_000) });
    const error = await tight.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalBodyTooLargeError);
    expect((error as Error).message).toBe('portal answers being read at once exceed the bytes read together; reading stopped');
  });
});
