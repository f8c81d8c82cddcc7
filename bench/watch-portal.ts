import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../src/http/respond.ts';
import { PORTAL_TOKEN } from './portal.ts';

// The portal of the watch benchmark: one synthetic order per SAP number, whose status flips once
// every PERIOD_MS, each record at its own phase, so that 1 % of the records change per minute,
// spread evenly over the minute. It answers GET /api/lk/order?SAP_ID=… in the spec's envelope
// (any other query finds nothing), counts its requests per second and remembers when it served
// each record, so the benchmark can tell when a change was first seen.

/** 1 % of the records a minute: each one flips every 100 minutes. */
export const PERIOD_MS = 100 * 60_000;
const FIRST_SAP = 90_000_000;

export const sapNumber = (index: number): string => String(FIRST_SAP + index).padStart(10, '0');

const STATES = [
  { STATUS: 'production', STATUS_TEXT: 'Производство' },
  { STATUS: 'production_evaluation', STATUS_TEXT: 'Оценка производства' },
] as const;

const order = (index: number, state: (typeof STATES)[number]) => ({
  SAP_ID: sapNumber(index),
  CRM_ID: `CRM-2026-${String(index).padStart(6, '0')}`,
  DATE_ORDER: '2026-03-15 00:00:00',
  ...state,
  PREPAYMENT: 125_000.5,
  POSITION_SUM: 1_250_000.1 + 0.2, // with a floating-point tail, as the portal sends
  POSITION_METERS: 1200,
  POSITION_PIECES: 100,
  POSITION_WEIGHT_TONN: 120.456,
  POSITION: [1, 2].map((n) => ({
    ID: index * 10 + n,
    QUANTITY: 50,
    MEASURE: 'M',
    PRICE: 12_500.15,
    CURRENCY: 'RUB',
    MATERIAL_SAP_ID: `00000000001001234${n}`,
    MATERIAL_NAME: `Труба 530х8 ст.17Г1С-${n}`,
    ORDER_POSITION_SAP_ID: String(n * 10).padStart(6, '0'),
  })),
});

export const startWatchPortal = async (records: number) => {
  // A permutation of the indexes spaces the phases PERIOD_MS / records apart: one change every
  // 3 s with 2,000 records, and neighbouring SAP numbers do not change one after another.
  const phase = (index: number) => (((index * 7919) % records) * PERIOD_MS) / records;
  const flips = (index: number, at: number) => Math.floor((at - phase(index)) / PERIOD_MS);
  const bodies = Array.from({ length: records }, (_, index) => STATES.map((state) => order(index, state)));
  const perSecond = new Map<number, number>();
  /** Per record, when it was served (ms since the epoch), in order. */
  const served: number[][] = Array.from({ length: records }, () => []);
  const state = { requests: 0 };

  const server = createServer((req, res) => {
    const at = Date.now();
    state.requests++;
    const second = Math.floor(at / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    const url = new URL(req.url ?? '/', 'http://portal');
    if (req.headers.authorization !== `Bearer ${PORTAL_TOKEN}`) return sendJson(res, 401, { success: false, error_code: 'UNAUTHORIZED', data: null });
    if (url.pathname !== '/api/lk/order') return sendJson(res, 404, { success: false, error_code: 'NOT_FOUND', data: null });
    const limit = Number(url.searchParams.get('limit') ?? 10);
    const offset = Number(url.searchParams.get('offset') ?? 0);
    const index = Number(url.searchParams.get('SAP_ID') ?? NaN) - FIRST_SAP;
    const found = Number.isInteger(index) && index >= 0 && index < records;
    if (found) served[index]!.push(at);
    const result = found && offset === 0 ? [bodies[index]![flips(index, at) & 1]] : [];
    sendJson(res, 200, { success: true, error_code: null, data: { result, total: found ? 1 : 0, limit, offset } });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    /** The record's index from its SAP number as the bot writes it, if it is one of ours. */
    indexOf: (sap: string): number | undefined => {
      const index = Number(sap) - FIRST_SAP;
      return Number.isInteger(index) && index >= 0 && index < records ? index : undefined;
    },
    /** When the record last changed at or before `at`. */
    changedAt: (index: number, at: number): number => phase(index) + flips(index, at) * PERIOD_MS,
    /** Every change of any record within [from, to), as [index, at]. */
    changesWithin: (from: number, to: number): Array<[number, number]> =>
      Array.from({ length: records }, (_, index): [number, number] => [index, phase(index) + flips(index, to - 1) * PERIOD_MS]).filter(
        ([, at]) => at >= from && at < to,
      ),
    /** When the record was served, oldest first. */
    servedTimes: (index: number): readonly number[] => served[index] ?? [],
    /** Requests in each whole second of [from, to). */
    perSecond: (from: number, to: number): number[] =>
      Array.from({ length: Math.floor(to / 1000) - Math.ceil(from / 1000) }, (_, i) => perSecond.get(Math.ceil(from / 1000) + i) ?? 0),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type WatchPortal = Awaited<ReturnType<typeof startWatchPortal>>;
