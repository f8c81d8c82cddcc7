import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoPortalHandler } from '../src/demo/portal-server.ts';

// The demo portal behind a configurable delay, counting the requests it gets.

export const PORTAL_TOKEN = 'bench-portal-token';

/** An HTTP server on loopback answering through `handle`, each request after `state.delayMs`, counted. */
export const startDelayedServer = async (handle: (req: IncomingMessage, res: ServerResponse) => void, delayMs = 0) => {
  const state = { delayMs, requests: 0 };
  const server = createServer((req, res) => {
    state.requests++;
    if (state.delayMs > 0) setTimeout(() => handle(req, res), state.delayMs);
    else handle(req, res);
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

export const startDelayedPortal = (delayMs: number) => startDelayedServer(createDemoPortalHandler({ token: PORTAL_TOKEN }), delayMs);
