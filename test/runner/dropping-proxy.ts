import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Stands between the bot and the emulator and can cut a getUpdates connection without an answer,
// as a network failure would.

const forward = async (target: string, req: IncomingMessage, res: ServerResponse) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  try {
    const upstream = await fetch(`${target}${req.url ?? '/'}`, {
      method: req.method ?? 'POST',
      headers: { 'content-type': req.headers['content-type'] ?? 'application/json' },
      body: chunks.length === 0 ? null : Buffer.concat(chunks),
      signal: abort.signal,
    });
    const body = Buffer.from(await upstream.arrayBuffer());
    res.writeHead(upstream.status, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  } catch {
    // the bot hung up (its long poll aborted): nobody is left to answer
    res.destroy();
  }
};

export const startDroppingProxy = async (target: string) => {
  let drops = 0;
  const server = createServer((req, res) => {
    if (drops > 0 && /\/getUpdates$/i.test(req.url ?? '')) {
      drops--;
      req.socket.destroy();
      return;
    }
    void forward(target, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropNextPolls(count: number) {
      drops += count;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
