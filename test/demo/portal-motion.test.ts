import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EPOCH, MOVING, TICK_MS } from '../../src/demo/motion.ts';
import { createDemoPortalHandler } from '../../src/demo/portal-server.ts';
import { startTestPortal, type TestPortal } from '../support/test-portal.ts';

// The demo portal over HTTP with a clock the test steps: what a watch polling it would see.

const TOKEN = 'motion-token';
let now = DEMO_EPOCH;
const server = createServer(createDemoPortalHandler({ token: TOKEN, clock: () => now }));
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

type Page = { data: { result: Array<Record<string, unknown>>; total: number } };
const get = async (base: string, token: string, path: string, params: Record<string, string>) => {
  const response = await fetch(`${base}${path}?${new URLSearchParams(params)}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return ((await response.json()) as Page).data;
};
const statusOf = async (base = url, token = TOKEN) => {
  const { result } = await get(base, token, '/api/lk/order', { SAP_ID: MOVING.statusOrder });
  return `${String(result[0]?.STATUS)} ${String(result[0]?.STATUS_TEXT)}`;
};

describe('the demo portal on a stepped clock', () => {
  it(`answers ${MOVING.statusOrder} with the status of the moment, the same all minute long`, async () => {
    now = DEMO_EPOCH;
    expect(await statusOf()).toBe('production Производство');
    now += TICK_MS;
    expect(await statusOf()).toBe('shipped Отгружен');
    now += TICK_MS - 1;
    expect(await statusOf()).toBe('shipped Отгружен');
    now += 1;
    expect(await statusOf()).toBe('production_evaluation Оценка производства');
    now += TICK_MS;
    expect(await statusOf()).toBe('production Производство');
  });

  it('moves the order in and out of a status query', async () => {
    const shipped = async () => (await get(url, TOKEN, '/api/lk/order', { STATUS: 'shipped' })).result.map((order) => order.SAP_ID);
    const inProduction = async () => (await get(url, TOKEN, '/api/lk/order', { STATUS: 'production' })).total;
    now = DEMO_EPOCH;
    expect(await shipped()).toEqual([]);
    expect(await inProduction()).toBe(21);
    now = DEMO_EPOCH + TICK_MS;
    expect(await shipped()).toEqual([MOVING.statusOrder]);
    expect(await inProduction()).toBe(20);
  });

  it('adds an act to specification 1 of ДП-77/2026 every second minute', async () => {
    const documents = async () => {
      const { result } = await get(url, TOKEN, '/api/lk/specification', { CONTRACT_NUMBER: 'ДП-77/2026', SPECIFICATION_NUMBER: '1' });
      return (result[0]?.DOCUMENT_LIST as Array<{ NUMBER: string }>).map((document) => document.NUMBER);
    };
    now = DEMO_EPOCH + TICK_MS;
    expect(await documents()).toEqual(['ДС-1 к ДП-77/2026', 'УПД-00311']);
    now += TICK_MS;
    expect(await documents()).toEqual(['ДС-1 к ДП-77/2026', 'УПД-00311', 'АКТ-2']);
  });
});

describe('the test portal', () => {
  let portal: TestPortal;
  beforeAll(async () => {
    portal = await startTestPortal();
  });
  afterAll(() => portal.close());

  it('stands still at the sample data until a test moves its clock, also after a token rotation', async () => {
    expect(portal.demoTime).toBe(DEMO_EPOCH);
    expect(await statusOf(portal.url, portal.token)).toBe('production Производство');
    portal.advanceDemoClock(TICK_MS);
    expect(await statusOf(portal.url, portal.token)).toBe('shipped Отгружен');
    portal.rotateToken('rotated-token');
    expect(await statusOf(portal.url, 'rotated-token')).toBe('shipped Отгружен');
    portal.setDemoTime(DEMO_EPOCH);
    expect(await statusOf(portal.url, 'rotated-token')).toBe('production Производство');
  });
});
