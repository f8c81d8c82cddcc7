import { createServer, type Server } from 'node:http';
import type { StubHandler } from '../../support/http-stub.ts';

export const order = {
  SAP_ID: '0007300100',
  CRM_ID: 'CRM-1',
  DATE_ORDER: '2026-03-15 00:00:00',
  STATUS: 'production',
  STATUS_TEXT: 'Производство',
  PREPAYMENT: 0,
  POSITION_SUM: 10,
  POSITION_METERS: 1,
  POSITION_PIECES: 1,
  POSITION_WEIGHT_TONN: 1,
  POSITION: [],
};

export const envelope = (result: unknown[] = [order], total = result.length) => ({
  success: true,
  error_code: null,
  data: { result, total, limit: 5, offset: 0 },
});

export const query = { resource: 'order', filter: 'SAP_ID', value: '0007300100' } as const;
export const paging = { limit: 5, offset: 0 } as const;

/** The n-th request gets the n-th handler; the last one answers every request after it. */
export const sequence = (...handlers: StubHandler[]): StubHandler => {
  let next = 0;
  return (req, res) => {
    const handler = handlers[Math.min(next++, handlers.length - 1)];
    handler?.(req, res);
  };
};

/** Answers after `ms`, so that concurrent calls overlap. */
export const delayed = (ms: number, handler: StubHandler): StubHandler => (req, res) => {
  setTimeout(() => handler(req, res), ms);
};

/** A server on a fixed port, for "refused, then up again" on the address a client already has. */
export const listenOn = async (port: number, handler: StubHandler): Promise<Server> => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
};

export const closeServer = async (server: Server): Promise<void> => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
};

export const manualClock = (start = 1_000_000) => {
  let time = start;
  return {
    now: () => time,
    advance(ms: number) {
      time += ms;
    },
  };
};
