import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDemoPortalHandler } from '../../src/demo/portal-server.ts';

// The demo portal behind a switch: by default it answers as the demo portal does; a test can
// make it fail in each way a real portal can. It counts the requests it receives.

export type PortalFault = 'http500' | 'garbage' | 'rejected' | 'wrongShape' | 'hang';

const FAULTS: Record<PortalFault, (res: ServerResponse) => void> = {
  http500: (res) => {
    res.writeHead(500, { 'content-type': 'text/html' });
    res.end('<h1>Internal Server Error</h1>');
  },
  garbage: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"success": tru');
  },
  rejected: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: false, error_code: 'INTERNAL', data: null }));
  },
  wrongShape: (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ success: true, error_code: null, data: { result: [{ SAP_ID: { nested: 1 } }], total: 1, limit: 5, offset: 0 } }));
  },
  hang: () => undefined,
};

export const startTestPortal = async (token = 'test-portal-token') => {
  const demo = createDemoPortalHandler({ token });
  let fault: PortalFault | undefined;
  const requests: string[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url ?? '');
    if (fault) FAULTS[fault](res);
    else demo(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    requests,
    fail(next: PortalFault | undefined) {
      fault = next;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
