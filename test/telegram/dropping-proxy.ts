import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Stands between the bot and the emulator and misbehaves on request, as a network or a broken
// Bot API would: cuts a getUpdates connection without an answer, refuses connections, leaves a
// method's calls unanswered, or answers getUpdates itself with a body the emulator never would.

const readAll = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const forward = async (target: string, req: IncomingMessage, res: ServerResponse, body: Buffer) => {
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  try {
    const upstream = await fetch(`${target}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      body: body.length === 0 ? null : body,
      signal: abort.signal,
    });
    const answer = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': 'application/json', 'content-length': answer.length });
    res.end(answer);
  } catch {
    // the bot hung up (its long poll aborted): nobody is left to answer
    res.destroy();
  }
};

const methodOf = (url: string | undefined): string => /\/([^/?]+)(?:\?.*)?$/.exec(url ?? '')?.[1] ?? '';

export const startDroppingProxy = async (target: string) => {
  let drops = 0;
  let refusals = 0;
  const hanging = new Set<string>();
  const fakePolls: unknown[] = [];
  let forever: { body: unknown } | undefined;
  const held: ServerResponse[] = [];
  const requests: Array<{ method: string; body: Record<string, unknown>; at: number }> = [];
  const server = createServer((req, res) => {
    const method = methodOf(req.url);
    if (refusals > 0) {
      refusals--;
      req.socket.destroy();
      return;
    }
    if (drops > 0 && method === 'getUpdates') {
      drops--;
      req.socket.destroy();
      return;
    }
    const hung = hanging.has(method);
    void readAll(req).then((body) => {
      requests.push({ method, body: body.length === 0 ? {} : (JSON.parse(body.toString()) as Record<string, unknown>), at: Date.now() });
      if (hung) return void held.push(res);
      if (method === 'getUpdates' && (fakePolls.length > 0 || forever !== undefined)) {
        const answer = JSON.stringify(fakePolls.length > 0 ? fakePolls.shift() : forever?.body);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        return void res.end(answer);
      }
      return forward(target, req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Every request that reached the proxy (refused and dropped ones excepted), with its JSON body and arrival time. */
    requests,
    dropNextPolls(count: number) {
      drops += count;
    },
    /** The next `count` connections, whatever the method, are closed at once. */
    refuseNext(count: number) {
      refusals += count;
    },
    /** Calls of `method` get no answer until `release` or close. */
    hang(method: string) {
      hanging.add(method);
    },
    /** How many calls are held unanswered now. */
    held: () => held.filter((res) => !res.destroyed).length,
    release(method: string) {
      hanging.delete(method);
    },
    /** The next getUpdates calls are answered with these bodies (HTTP 200), one each, without the emulator. */
    answerNextPolls(...bodies: unknown[]) {
      fakePolls.push(...bodies);
    },
    /** Once the bodies of answerNextPolls run out, every getUpdates is answered with `body`, as by a server that ignores the offset. */
    answerPollsForever(body: unknown) {
      forever = { body };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};

export type DroppingProxy = Awaited<ReturnType<typeof startDroppingProxy>>;
