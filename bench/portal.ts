import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoPortalHandler } from '../src/demo/portal-server.ts';

// The demo portal behind a configurable delay, counting the requests it gets.

export const PORTAL_TOKEN = 'bench-portal-token';

export const startDelayedPortal = async (delayMs: number) => {
  const handler = createDemoPortalHandler({ token: PORTAL_TOKEN });
  const state = { delayMs, requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    if (state.delayMs > 0) setTimeout(() => handler(req, res), state.delayMs);
    else handler(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    state,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
