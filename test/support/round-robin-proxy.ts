import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A load balancer in front of bot replicas, as small as it gets: each request goes to the next
// upstream in turn; one that refuses the connection (a replica that is down) is skipped for the
// next, as a health-checking balancer would. A request that fails after it reached an upstream
// is answered 502: it may have been handled, so it is not sent to another.

export type RoundRobinProxy = {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Replaces the upstreams (base URLs, e.g. http://127.0.0.1:8081); the turn starts over. */
  setUpstreams(upstreams: readonly string[]): void;
  /** Requests each upstream answered, by base URL. */
  served(): Record<string, number>;
  /** Connections refused, by base URL. */
  refused(): Record<string, number>;
  /** Requests sent to an upstream and not yet answered, by base URL. */
  inFlight(): Record<string, number>;
  close(): Promise<void>;
};

type Outcome = { kind: 'answered' } | { kind: 'refused' } | { kind: 'failed'; error: Error };

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

const forwardHeaders = (headers: IncomingHttpHeaders): IncomingHttpHeaders =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** Sends the request to one upstream and pipes its answer back. */
const forward = (upstream: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<Outcome> =>
  new Promise((resolve) => {
    const target = new URL(req.url ?? '/', upstream);
    let connected = false;
    // A connection of its own each time: a pooled one to a killed replica would fail after sending.
    const outgoing = request(target, { method: req.method, headers: { ...forwardHeaders(req.headers), 'content-length': String(body.length) }, agent: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, forwardHeaders(answer.headers));
      answer.pipe(res);
      answer.on('end', () => resolve({ kind: 'answered' }));
      answer.on('error', (error) => {
        res.destroy();
        resolve({ kind: 'failed', error });
      });
    });
    outgoing.on('socket', (socket) => socket.once('connect', () => (connected = true)));
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (!connected && error.code === 'ECONNREFUSED') resolve({ kind: 'refused' });
      else resolve({ kind: 'failed', error });
    });
    outgoing.end(body);
  });

export const startRoundRobinProxy = async (initial: readonly string[] = []): Promise<RoundRobinProxy> => {
  let upstreams = [...initial];
  let next = 0;
  const served: Record<string, number> = {};
  const refused: Record<string, number> = {};
  const pending: Record<string, number> = {};

  const server = createServer((req, res) => {
    void (async () => {
      const body = await readAll(req);
      for (let tried = 0; tried < upstreams.length; tried++) {
        const upstream = upstreams[next % upstreams.length]!;
        next = (next + 1) % upstreams.length;
        pending[upstream] = (pending[upstream] ?? 0) + 1;
        const outcome = await forward(upstream, req, body, res).finally(() => (pending[upstream] = (pending[upstream] ?? 1) - 1));
        if (outcome.kind === 'answered') {
          served[upstream] = (served[upstream] ?? 0) + 1;
          return;
        }
        if (outcome.kind === 'failed') {
          if (!res.headersSent) res.writeHead(502).end();
          return;
        }
        refused[upstream] = (refused[upstream] ?? 0) + 1;
      }
      res.writeHead(502).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    setUpstreams(list) {
      upstreams = [...list];
      next = 0;
    },
    served: () => ({ ...served }),
    refused: () => ({ ...refused }),
    inFlight: () => Object.fromEntries(Object.entries(pending).filter(([, count]) => count > 0)),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
