import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEMO_EPOCH } from '../../src/demo/motion.ts';
import { createDemoPortalHandler } from '../../src/demo/portal-server.ts';

// The demo portal behind a switch: by default it answers as the demo portal does; a test can
// make it fail in each way a real portal can. It counts the requests it receives. Its demo clock
// stands still at DEMO_EPOCH (the sample data as it is) until a test moves it.

export type PortalFault = 'http500' | 'garbage' | 'rejected' | 'wrongShape' | 'hang' | 'reset';

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
  /** The connection drops before any answer: a network error for the client. */
  reset: (res) => void res.socket?.destroy(),
};

/** One request the portal received: its target and the bearer token it carried. */
export type PortalRequest = { url: string; token: string | undefined };

type Held = { predicate: (url: string) => boolean; parked: Array<() => void>; seen: number };

/** An answer of the test's own in place of the demo's: a status (200) and a body, JSON unless a string or bytes. */
export type PortalAnswer = { status?: number; body: unknown };

type Override = { predicate: (url: string) => boolean; answer: (url: URL) => PortalAnswer; seen: number };

const sendAnswer = (res: ServerResponse, { status = 200, body }: PortalAnswer) => {
  const bytes = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(bytes.length) });
  // The client may stop reading and close the connection: that is not the portal's problem.
  res.on('error', () => undefined);
  res.end(bytes);
};

export const startTestPortal = async (token = 'test-portal-token') => {
  let demoTime = DEMO_EPOCH;
  const clock = () => demoTime;
  let demo = createDemoPortalHandler({ token, clock });
  let acceptedToken = token;
  let fault: PortalFault | undefined;
  /** Faults for the next requests only, first first (they win over `fault`). */
  const nextFaults: PortalFault[] = [];
  const holds = new Set<Held>();
  const overrides = new Set<Override>();
  const requests: string[] = [];
  const received: PortalRequest[] = [];

  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const once = nextFaults.shift();
    if (once) FAULTS[once](res);
    else if (fault) FAULTS[fault](res);
    else {
      const url = req.url ?? '';
      const override = [...overrides].find((candidate) => candidate.predicate(url));
      if (!override) return demo(req, res);
      override.seen += 1;
      sendAnswer(res, override.answer(new URL(url, 'http://portal')));
    }
  };

  const release = (held: Held) => {
    holds.delete(held);
    for (const go of held.parked.splice(0)) go();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    requests.push(url);
    received.push({ url, token: /^bearer +(\S+)/i.exec(req.headers.authorization ?? '')?.[1] });
    const held = [...holds].find((candidate) => candidate.predicate(url));
    if (held) {
      held.seen += 1;
      held.parked.push(() => answer(req, res));
    }
    else answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The token the portal was started with. */
    token,
    /** The target (path and query) of every request, in arrival order. */
    requests,
    /** Every request with the token it carried, in arrival order. */
    received,
    /** The token the portal accepts now. */
    get acceptedToken() {
      return acceptedToken;
    },
    fail(next: PortalFault | undefined) {
      fault = next;
    },
    /** The next `times` requests fail this way, then the portal answers as before. */
    failNext(next: PortalFault, times = 1) {
      for (let i = 0; i < times; i += 1) nextFaults.push(next);
    },
    /** From now on only `next` is accepted: the old token gets 401, as after a rotation. */
    rotateToken(next: string) {
      acceptedToken = next;
      demo = createDemoPortalHandler({ token: next, clock });
    },
    /** The time the demo data stands at (ms since the epoch); DEMO_EPOCH until a test moves it. */
    get demoTime() {
      return demoTime;
    },
    setDemoTime(ms: number) {
      demoTime = ms;
    },
    /** Moves the demo data on: a minute is one tick of motion (src/demo/motion.ts). */
    advanceDemoClock(ms: number) {
      demoTime += ms;
    },
    /**
     * Requests whose target matches are held unanswered until the returned function is called
     * (or the portal closes); they are then answered as any other. Others are answered at once.
     */
    hangWhere(predicate: (url: string) => boolean) {
      const held: Held = { predicate, parked: [], seen: 0 };
      holds.add(held);
      return {
        /** Requests held so far (answered or not). */
        count: () => held.seen,
        release: () => release(held),
      };
    },
    /**
     * Requests whose target matches get `answer` (or what it returns for the request's URL) instead
     * of the demo's, until `stop` is called; faults still win. Others are answered as before.
     */
    answerWhere(predicate: (url: string) => boolean, answer: PortalAnswer | ((url: URL) => PortalAnswer)) {
      const override: Override = { predicate, answer: typeof answer === 'function' ? answer : () => answer, seen: 0 };
      overrides.add(override);
      return {
        /** Requests answered this way so far. */
        count: () => override.seen,
        stop: () => void overrides.delete(override),
      };
    },
    async close() {
      for (const held of [...holds]) release(held);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

export type TestPortal = Awaited<ReturnType<typeof startTestPortal>>;
