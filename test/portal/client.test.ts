import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createPortalClient, fetchResults } from '../../src/portal/client.ts';
import {
  PortalHttpError,
  PortalNetworkError,
  PortalRejectedError,
  PortalNotJsonError,
  PortalSchemaError,
  PortalTimeoutError,
} from '../../src/portal/errors.ts';
import { json, startHttpStub } from '../support/http-stub.ts';

const order = {
  SAP_ID: '0007300100',
  CRM_ID: 'CRM-1',
  DATE_ORDER: '2026-03-15 00:00:00',
  STATUS: 'production',
  STATUS_TEXT: 'Производство',
  PREPAYMENT: 0,
  POSITION_SUM: 1234567.8900000001,
  POSITION_METERS: 12,
  POSITION_PIECES: 3,
  POSITION_WEIGHT_TONN: 12.345000000000001,
  POSITION: null,
  SOMETHING_NEW: 'kept',
};
const envelope = (result: unknown[], total = result.length) => ({ success: true, error_code: null, data: { result, total, limit: 5, offset: 0 } });

describe('portal client', () => {
  let stub: Awaited<ReturnType<typeof startHttpStub>>;
  let portal: ReturnType<typeof createPortalClient>;
  beforeEach(async () => {
    stub = await startHttpStub(json(200, envelope([order], 23)));
    portal = createPortalClient({ baseUrl: `${stub.url}/base`, token: 'tok en', timeoutMs: 300 });
  });
  afterEach(() => stub.close());

  it('sends the documented request and parses the page', async () => {
    const page = await portal.listOrders({ resource: 'order', filter: 'POSITION[MATERIAL_NAME]', value: 'труба&limit=20' }, { limit: 5, offset: 10 });
    expect(stub.requests[0]?.url).toBe('/base/api/lk/order?POSITION%5BMATERIAL_NAME%5D=%D1%82%D1%80%D1%83%D0%B1%D0%B0%26limit%3D20&limit=5&offset=10');
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer tok en');
    expect(stub.requests[0]?.headers.accept).toBe('application/json');
    expect(page.total).toBe(23);
    expect(page.items[0]).toMatchObject({ SAP_ID: '0007300100', POSITION: [], SOMETHING_NEW: 'kept' });
  });

  it('tolerates what the spec allows in specifications', async () => {
    const spec = {
      SAP_ID: '1',
      SPECIFICATION_NUMBER: '12',
      CONTRACT_NUMBER: 'ДП-77/2026',
      CONTRACT_DATE: '2026-01-10 00:00:00',
      PLANNED_WEIGHT_TONN: 10,
      PREPAYMENT: 0,
      STATUS: '20',
      STATUS_TYPE: 'ZSDNEW',
      DATE_ACTIVE_FROM: '2026-01-10 00:00:00',
      DATE_ACTIVE_TO: '9999-12-31 00:00:00',
      DELIVERY: null,
      DOCUMENT: null,
      ORDER: null,
      POSITION: [],
    };
    stub.respond(json(200, envelope([spec])));
    const results = await fetchResults(portal, { resource: 'specification', filter: 'CONTRACT_NUMBER', value: 'ДП-77/2026' }, { limit: 5, offset: 0 });
    expect(stub.requests[0]?.url).toContain('/base/api/lk/specification?CONTRACT_NUMBER=%D0%94%D0%9F-77%2F2026&limit=5&offset=0');
    expect(results.page.items[0]).toMatchObject({ STATUS_TYPE: 'ZSDNEW', DELIVERY: [], DOCUMENT: [], DOCUMENT_LIST: [], ORDER: [] });
    expect(results.paging).toEqual({ limit: 5, offset: 0 });
  });

  const query = { resource: 'order', filter: 'SAP_ID', value: '1' } as const;
  const paging = { limit: 5, offset: 0 } as const;

  it('reports an HTTP error status, keeping the body for the log', async () => {
    stub.respond(json(500, { success: false, error_code: 'boom' }));
    const error = await portal.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalHttpError);
    expect(error).toMatchObject({ status: 500, body: '{"success":false,"error_code":"boom"}' });
  });

  it('reports success:false with its error code', async () => {
    stub.respond(json(200, { success: false, error_code: 'LIMIT', data: null }));
    await expect(portal.listOrders(query, paging)).rejects.toMatchObject({ constructor: PortalRejectedError, errorCode: 'LIMIT' });
  });

  it('reports an answer that is not JSON as such, without its content', async () => {
    stub.respond(json(200, '<html>502 Bad Gateway for order 0007300100</html>'));
    const error = await portal.listOrders(query, paging).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalNotJsonError);
    expect((error as Error).message).not.toContain('0007300100');
  });

  it.each([
    ['not an envelope', '[1,2,3]'],
    ['records of the wrong shape', JSON.stringify(envelope([{ SAP_ID: null }]))],
    ['no total', JSON.stringify({ success: true, error_code: null, data: { result: [] } })],
  ])('reports %s as a schema error', async (_, body) => {
    stub.respond(json(200, body));
    await expect(portal.listOrders(query, paging)).rejects.toBeInstanceOf(PortalSchemaError);
  });

  it('gives up after the timeout', async () => {
    stub.respond(() => undefined);
    const started = Date.now();
    await expect(portal.listOrders(query, paging)).rejects.toBeInstanceOf(PortalTimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('times out on a body that never ends', async () => {
    stub.respond((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"success":');
    });
    await expect(portal.listOrders(query, paging)).rejects.toBeInstanceOf(PortalTimeoutError);
  });

  it('reports a refused connection as a network error', async () => {
    await stub.close();
    await expect(portal.listOrders(query, paging)).rejects.toBeInstanceOf(PortalNetworkError);
    stub = await startHttpStub(json(200, {}));
  });
});
