import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DEMO_EPOCH } from '../../src/demo/motion.ts';
import { startDemoPortal } from '../../src/demo/portal-server.ts';
import { sampleData } from '../../src/demo/sample-data.ts';
import { envelopeSchema, orderSchema, pageSchema, specificationSchema } from '../../src/portal/schemas.ts';

const TOKEN = 'demo-token-7f3a';
let portal: { url: string; close(): Promise<void> };
beforeAll(async () => {
  // Frozen at tick 0: these tests count statuses and amounts of the sample data as it is.
  portal = await startDemoPortal({ token: TOKEN, clock: () => DEMO_EPOCH });
});
afterAll(() => portal.close());

type Params = Record<string, string> | string;
const call = async (path: string, params: Params = {}, init: RequestInit = {}) => {
  const query = typeof params === 'string' ? params : new URLSearchParams(params).toString();
  const response = await fetch(`${portal.url}${path}${query ? `?${query}` : ''}`, {
    headers: { accept: 'application/json', authorization: `Bearer ${TOKEN}` },
    ...init,
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as unknown };
};

/** A successful page, checked against the client's own schemas. */
const page = async <T extends z.ZodType>(schema: T, path: string, params: Params) => {
  const { status, body } = await call(path, params);
  expect(status).toBe(200);
  const envelope = envelopeSchema.parse(body);
  expect(envelope).toMatchObject({ success: true, error_code: null });
  return pageSchema(schema).parse(envelope.data);
};
const orders = (params: Params) => page(orderSchema, '/api/lk/order', params);
const specifications = (params: Params) => page(specificationSchema, '/api/lk/specification', params);

const has = (names: (string | null | undefined)[], part: string) => names.some((name) => name?.includes(part));
const ordersWith = (part: string) => sampleData.orders.filter((order) => has((order.POSITION ?? []).map((p) => p.MATERIAL_NAME), part));

describe('GET /api/lk/order', () => {
  it('returns every order, newest first, ten by default', async () => {
    const { result, total, limit, offset } = await orders({});
    expect({ total, limit, offset, length: result.length }).toEqual({ total: 30, limit: 10, offset: 0, length: 10 });
    expect(result[0]).toMatchObject({ SAP_ID: '0007300593', DATE_ORDER: '2026-04-22 00:00:00', STATUS: 'production' });
    result.slice(1).forEach((order, k) => {
      const previous = result[k];
      const sameDay = order.DATE_ORDER === previous?.DATE_ORDER;
      expect(sameDay ? String(order.SAP_ID) > String(previous?.SAP_ID) : String(order.DATE_ORDER) < String(previous?.DATE_ORDER)).toBe(true);
    });
  });

  it('finds an order by SAP_ID, also without leading zeros', async () => {
    const exact = await orders({ SAP_ID: '0007300100' });
    expect(exact.total).toBe(1);
    expect(exact.result[0]).toMatchObject({ CRM_ID: 'CRM-2025-004290', DATE_ORDER: '2025-11-18 00:00:00' });
    expect((await orders({ SAP_ID: '7300100' })).result[0]?.SAP_ID).toBe('0007300100');
    expect(await orders({ SAP_ID: '0007300101' })).toEqual({ result: [], total: 0, limit: 10, offset: 0 });
  });

  it('finds an order by CRM_ID, exactly', async () => {
    const found = await orders({ CRM_ID: 'CRM-2026-004512' });
    expect(found.result.map((order) => order.SAP_ID)).toEqual(['0007300202']);
    expect((await orders({ CRM_ID: 'CRM-2026-0045' })).total).toBe(0);
  });

  it('filters by DATE_ORDER on the date part', async () => {
    const found = await orders({ DATE_ORDER: '2026-03-15', limit: '20' });
    expect(found.total).toBe(11);
    expect(new Set(found.result.map((order) => order.DATE_ORDER))).toEqual(new Set(['2026-03-15 00:00:00']));
    expect((await orders({ DATE_ORDER: '2026-03-15 00:00:00' })).total).toBe(11);
    expect((await orders({ DATE_ORDER: '15.03.2026' })).total).toBe(0);
  });

  it('filters by STATUS, including the unknown one with an empty text', async () => {
    expect((await orders({ STATUS: 'production' })).total).toBe(21);
    expect((await orders({ STATUS: 'production_evaluation' })).total).toBe(8);
    const unknown = await orders({ STATUS: 'shipment_ready' });
    expect(unknown.result).toHaveLength(1);
    expect(unknown.result[0]).toMatchObject({ SAP_ID: '0007300236', STATUS_TEXT: '' });
  });

  it('filters by material name: substring, any case, Latin and Cyrillic «х» alike', async () => {
    const cyrillic = await orders({ 'POSITION[MATERIAL_NAME]': '530х8', limit: '20' });
    expect(cyrillic.total).toBe(ordersWith('530х8').length);
    expect(cyrillic.total).toBeGreaterThan(20);
    expect((await orders({ 'POSITION[MATERIAL_NAME]': '530x8 k52' })).total).toBe(ordersWith('530х8 К52').length);
    const latinInData = await orders({ 'POSITION[MATERIAL_NAME]': 'труба 219х6' });
    expect(latinInData.total).toBe(ordersWith('219x6').length);
    expect(latinInData.total).toBeGreaterThan(0);
    expect((await orders({ 'POSITION[MATERIAL_NAME]': '133x4.5' })).total).toBe(ordersWith('133х4,5').length);
  });

  it('matches names with quotes, angle brackets and an ampersand', async () => {
    const quoted = await orders({ 'POSITION[MATERIAL_NAME]': '"К60" <ТУ 1381-012>' });
    expect(quoted.total).toBe(ordersWith('"К60" <ТУ 1381-012>').length);
    expect(quoted.result[0]?.POSITION.map((p) => p.MATERIAL_NAME)).toContain('Труба 1020х12 "К60" <ТУ 1381-012>');
    const ampersand = await orders({ 'POSITION[MATERIAL_NAME]': 'Ст20 & ОЦ' });
    expect(ampersand.total).toBe(ordersWith('& ОЦ').length);
    expect(ampersand.total).toBeGreaterThan(0);
  });

  it('reads the bracket keys both percent-encoded and raw', async () => {
    const expected = ordersWith('1020х12').length;
    expect((await orders(`POSITION%5BMATERIAL_NAME%5D=${encodeURIComponent('1020х12')}`)).total).toBe(expected);
    expect((await orders(`position%5bMATERIAL_NAME%5d=1020`)).total).toBe(30); // names are case-sensitive: ignored
    expect((await orders(`POSITION[MATERIAL_NAME]=${encodeURIComponent('1020х12')}`)).total).toBe(expected);
    expect((await orders('POSITION[MATERIAL_SAP_ID]=000000000010013001')).total).toBe(expected);
    expect((await orders('POSITION%5BMATERIAL_SAP_ID%5D=10013001')).total).toBe(expected);
  });

  it('combines filters with AND', async () => {
    const found = await orders({ DATE_ORDER: '2026-03-15', STATUS: 'production_evaluation' });
    expect(found.result.map((order) => order.SAP_ID)).toEqual(['0007300355', '0007300406']);
  });

  it('sends the sixty-position order and the mixed-currency order intact', async () => {
    const [big] = (await orders({ SAP_ID: '0007300321' })).result;
    expect(big?.POSITION).toHaveLength(60);
    expect(big?.POSITION.at(-1)?.ORDER_POSITION_SAP_ID).toBe('000600');
    const [mixed] = (await orders({ SAP_ID: '0007300338' })).result;
    expect(new Set(mixed?.POSITION.map((p) => p.CURRENCY))).toEqual(new Set(['RUB', 'USD']));
    expect((await orders({ SAP_ID: '0007300372' })).result[0]?.PREPAYMENT).toBe(1234567.8900000001);
  });
});

describe('GET /api/lk/specification', () => {
  it('finds a contract across pages, case-insensitively', async () => {
    const first = await specifications({ CONTRACT_NUMBER: 'ДП-77/2026', limit: '5' });
    expect({ total: first.total, limit: first.limit, offset: first.offset, length: first.result.length }).toEqual({
      total: 8,
      limit: 5,
      offset: 0,
      length: 5,
    });
    const second = await specifications({ CONTRACT_NUMBER: 'дп-77/2026', limit: '5', offset: '5' });
    expect(second).toMatchObject({ total: 8, offset: 5 });
    const numbers = [...first.result, ...second.result].map((s) => s.SPECIFICATION_NUMBER);
    expect(numbers).toEqual(['8', '7', '6', '5', '4', '3', '2', '1']);
    expect((await specifications({ CONTRACT_NUMBER: 'ДП-77' })).total).toBe(0);
  });

  it('filters by SPECIFICATION_NUMBER exactly, any case', async () => {
    const twelve = await specifications({ SPECIFICATION_NUMBER: '12' });
    expect(twelve.result.map((s) => [s.SAP_ID, s.CONTRACT_NUMBER])).toEqual([['0040012435', 'ДП-112/2025']]);
    expect((await specifications({ SPECIFICATION_NUMBER: '3-а' })).result[0]?.SPECIFICATION_NUMBER).toBe('3-А');
    expect((await specifications({ SPECIFICATION_NUMBER: '1', limit: '20' })).total).toBe(6);
  });

  it('filters by STATUS and STATUS_TYPE', async () => {
    const status = await specifications({ STATUS: '20', limit: '20' });
    expect(status.total).toBe(sampleData.specifications.filter((s) => s.STATUS === '20').length);
    expect(status.result.every((s) => s.STATUS === '20')).toBe(true);
    const type = await specifications({ STATUS_TYPE: 'ZSDZMP', limit: '20' });
    expect(type.total).toBe(8);
    expect(new Set(type.result.map((s) => s.STATUS_TYPE))).toEqual(new Set(['ZSDZMP']));
    expect((await specifications({ STATUS_TYPE: 'zsdzmp' })).total).toBe(0);
  });

  it('filters by ORDER[DATE_ORDER] through the related production requests', async () => {
    const expected = sampleData.specifications.filter((s) => s.ORDER?.some((o) => o.DATE_ORDER === '2026-03-15 00:00:00'));
    const encoded = await specifications('ORDER%5BDATE_ORDER%5D=2026-03-15&limit=20');
    expect(encoded.total).toBe(expected.length);
    expect(encoded.total).toBeGreaterThan(5);
    expect(encoded.result.every((s) => s.ORDER.some((o) => o.DATE_ORDER === '2026-03-15 00:00:00'))).toBe(true);
    expect((await specifications('ORDER[DATE_ORDER]=2026-03-15')).total).toBe(expected.length);
  });

  it('filters by material name and code', async () => {
    const byName = await specifications({ 'POSITION[MATERIAL_NAME]': 'отвод 90°' });
    const withBend = sampleData.specifications.filter((s) => has((s.POSITION ?? []).map((p) => p.MATERIAL_NAME), 'Отвод 90°'));
    expect(byName.total).toBe(withBend.length);
    expect(byName.total).toBeGreaterThan(0);
    const byCode = await specifications({ 'POSITION[MATERIAL_SAP_ID]': '10014410' });
    expect(byCode.result.map((s) => s.SAP_ID)).toEqual(byName.result.map((s) => s.SAP_ID));
  });

  it('keeps null lists, DOCUMENT_LIST and empty numbers as the wire sends them', async () => {
    const { body } = await call('/api/lk/specification', { CONTRACT_NUMBER: 'ДП-77/2026', limit: '10' });
    const raw = (body as { data: { result: Record<string, unknown>[] } }).data.result;
    expect(raw.some((s) => s.DELIVERY === null)).toBe(true);
    expect(raw.some((s) => 'DOCUMENT_LIST' in s)).toBe(true);
    expect(raw.some((s) => !('DOCUMENT_LIST' in s))).toBe(true);
    const seventh = raw.find((s) => s.SPECIFICATION_NUMBER === '7') as { ORDER: { NUMBER: string }[] };
    expect(seventh.ORDER[0]?.NUMBER).toBe('');
  });
});

describe('paging', () => {
  it('walks every page: echoes limit and offset, the last page is shorter', async () => {
    const seen: string[] = [];
    for (const offset of [0, 5, 10, 15, 20]) {
      const { result, total, limit, offset: echoed } = await orders({ STATUS: 'production', limit: '5', offset: String(offset) });
      expect({ total, limit, echoed }).toEqual({ total: 21, limit: 5, echoed: offset });
      expect(result).toHaveLength(offset === 20 ? 1 : 5);
      seen.push(...result.map((order) => String(order.SAP_ID)));
    }
    expect(new Set(seen).size).toBe(21);
  });

  it('answers an offset past the end with an empty page and the true total', async () => {
    expect(await orders({ STATUS: 'production', limit: '20', offset: '40' })).toEqual({ result: [], total: 21, limit: 20, offset: 40 });
  });
});

describe('errors', () => {
  const unauthorized = { success: false, error_code: 'UNAUTHORIZED', data: null };

  it('refuses a missing or wrong token with 401', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, 'Bearer', `Bearer ${TOKEN} extra`]) {
      const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
      const response = await fetch(`${portal.url}/api/lk/order`, { headers });
      expect(response.status, authorization).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      expect(await response.json()).toEqual(unauthorized);
    }
    const lowercase = await call('/api/lk/specification', {}, { headers: { authorization: `bearer ${TOKEN}` } });
    expect(lowercase.status).toBe(200);
  });

  it('refuses a bad limit or offset with 400', async () => {
    for (const limit of ['7', '0', '-5', 'abc', '10.5', '1e400', '20000000000000000000'])
      expect(await call('/api/lk/order', { limit })).toMatchObject({ status: 400, body: { success: false, error_code: 'INVALID_LIMIT', data: null } });
    for (const offset of ['-1', '1.5', 'x', '99999999999999999999'])
      expect(await call('/api/lk/specification', { offset })).toMatchObject({ status: 400, body: { error_code: 'INVALID_OFFSET' } });
  });

  it('answers an unknown path with 404 and another method with 405, both in the envelope', async () => {
    for (const path of ['/api/lk/orders', '/', '/__proto__', '/api/lk/order/x'])
      expect(await call(path)).toMatchObject({ status: 404, body: { success: false, error_code: 'NOT_FOUND', data: null } });
    const post = await call('/api/lk/order', {}, { method: 'POST', body: '{}' });
    expect(post).toMatchObject({ status: 405, body: { success: false, error_code: 'METHOD_NOT_ALLOWED' } });
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('always answers JSON in UTF-8, and tolerates a trailing slash', async () => {
    const { status, headers, body } = await call('/api/lk/order/', { SAP_ID: '0007300100' });
    expect(status).toBe(200);
    expect(body).toMatchObject({ data: { total: 1, result: [{ SAP_ID: '0007300100' }] } });
    expect(headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await call('/nowhere')).headers.get('content-type')).toBe('application/json; charset=utf-8');
  });
});

/** One raw HTTP/1.1 exchange, for request targets fetch would refuse or normalise. */
const raw = (request: string) =>
  new Promise<string>((resolve, reject) => {
    const { hostname, port } = new URL(portal.url);
    const socket = connect(Number(port), hostname, () => socket.end(request));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
const rawGet = (target: string) =>
  raw(`GET ${target} HTTP/1.1\r\nHost: demo\r\nAuthorization: Bearer ${TOKEN}\r\nConnection: close\r\n\r\n`);

describe('garbage input', () => {
  it('treats malformed percent-encoding as text', async () => {
    expect(await orders('SAP_ID=%E0%A4%A&POSITION[MATERIAL_NAME]=%%%')).toMatchObject({ total: 0, result: [] });
    expect(await orders('%ZZ=%&limit=5&=&&offset=%30')).toMatchObject({ total: 30, limit: 5, offset: 0 });
    expect(await call('/api/lk/order', 'limit=%FF')).toMatchObject({ status: 400, body: { error_code: 'INVALID_LIMIT' } });
  });

  it('survives huge and hostile values', async () => {
    expect((await orders({ 'POSITION[MATERIAL_NAME]': 'х'.repeat(1500), SAP_ID: '9'.repeat(3000) })).total).toBe(0);
    expect((await orders({ DATE_ORDER: '2026-03-15'.repeat(100) })).total).toBe(0);
    expect((await orders('__proto__=1&constructor=x&toString=y&hasOwnProperty=z')).total).toBe(30);
    expect((await orders({ STATUS: ' production ', 'POSITION[MATERIAL_NAME]': '  ' })).total).toBe(21);
  });

  it('answers raw request targets fetch would not send, and keeps serving', async () => {
    expect(await rawGet('/api/lk/order?SAP_ID=%%30%307300100&limit=%')).toMatch(/^HTTP\/1\.1 400 .*"INVALID_LIMIT"/s);
    expect(await rawGet('/api/lk/order?POSITION[MATERIAL_NAME]=1020x12%20"K60"%20<&SAP_ID=0007300134')).toMatch(/^HTTP\/1\.1 200 .*"total":1,/s);
    expect(await rawGet('/api/lk/order?POSITION[MATERIAL_NAME]=К60')).toMatch(/^HTTP\/1\.1 400 /); // Node refuses raw non-ASCII
    expect(await rawGet('//api/lk/order')).toMatch(/^HTTP\/1\.1 404 .*"NOT_FOUND"/s);
    expect(await rawGet('*')).toMatch(/^HTTP\/1\.1 404 /);
    expect(await rawGet('http://elsewhere/api/lk/specification?STATUS_TYPE=ZSDZNM')).toMatch(/^HTTP\/1\.1 200 .*"total":8,/s);
    expect(await raw('NONSENSE\r\n\r\n')).toMatch(/^HTTP\/1\.1 400 /);
    expect(await rawGet(`/api/lk/order?SAP_ID=${'%'.repeat(20_000)}`)).toMatch(/^HTTP\/1\.1 431 /);
    expect((await orders({ SAP_ID: '7300100' })).total).toBe(1);
  });
});

describe('own data and lifecycle', () => {
  it('serves the data it is given, tolerating nulls and numeric identifiers', async () => {
    const own = await startDemoPortal({
      token: 'other',
      data: {
        orders: [
          { SAP_ID: 7300999, DATE_ORDER: null, POSITION: null },
          { SAP_ID: '0007300998', DATE_ORDER: '2026-01-02 00:00:00', POSITION: [{ ID: 1, MATERIAL_NAME: null }] },
        ],
        specifications: [],
      },
    });
    try {
      const response = await fetch(`${own.url}/api/lk/order?SAP_ID=0007300999&limit=5`, { headers: { authorization: 'Bearer other' } });
      expect(await response.json()).toMatchObject({ success: true, data: { total: 1, limit: 5, result: [{ SAP_ID: 7300999 }] } });
      const all = await fetch(`${own.url}/api/lk/order?POSITION%5BMATERIAL_NAME%5D=x`, { headers: { authorization: 'Bearer other' } });
      expect(await all.json()).toMatchObject({ data: { total: 0 } });
      const spec = await fetch(`${own.url}/api/lk/specification`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(spec.status).toBe(401);
    } finally {
      await own.close();
    }
    await own.close();
  });

  it('refuses to start without a token', async () => {
    await expect(startDemoPortal({ token: '' })).rejects.toThrow(/token/);
  });
});
