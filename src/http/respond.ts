import type { ServerResponse } from 'node:http';

// How every server of the bot answers (health and webhook, the demo portal, the console's Bot API).

export type Headers = Record<string, string>;

/** A complete answer with its length; never cached, answers hold live data. */
export const send = (res: ServerResponse, status: number, body: string, headers: Headers = {}): void => {
  res.writeHead(status, { 'content-length': String(Buffer.byteLength(body)), 'cache-control': 'no-store', ...headers });
  res.end(body);
};

export const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Headers = {}): void =>
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json; charset=utf-8', ...headers });
