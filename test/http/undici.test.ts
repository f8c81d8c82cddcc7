import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undiciIndex from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, loadFormData, Pool, request } from '../../src/http/undici.ts';

// src/http/undici.ts loads undici's files one by one instead of its index: they must still be the
// classes the index exports, and behave as its `dispatcher.request` does.

const received: Array<{ method: string; url: string; type: string; body: string }> = [];
const server = createServer((req: IncomingMessage, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    received.push({ method: req.method!, url: req.url!, type: req.headers['content-type'] ?? '', body });
    res.writeHead(201, { 'content-type': 'text/plain' }).end(`answer to ${req.url}`);
  });
});
let origin = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("undici's client without its index", () => {
  it('is the Agent, Pool and FormData the index exports', async () => {
    expect(Agent).toBe(undiciIndex.Agent);
    expect(Pool).toBe(undiciIndex.Pool);
    expect(await loadFormData()).toBe(undiciIndex.FormData);
  });

  it('requests through a Pool and an Agent: status, headers, body', async () => {
    const pool = new Pool(origin);
    const agent = new Agent();
    try {
      const viaPool = await request(pool, { path: '/a?x=1', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"k":1}' });
      expect([viaPool.statusCode, viaPool.headers['content-type'], await viaPool.body.text()]).toEqual([201, 'text/plain', 'answer to /a?x=1']);
      const viaAgent = await request(agent, { origin, path: '/b', method: 'GET' });
      expect([viaAgent.statusCode, await viaAgent.body.text()]).toEqual([201, 'answer to /b']);
      expect(received.slice(-2).map(({ method, url, body }) => ({ method, url, body }))).toEqual([
        { method: 'POST', url: '/a?x=1', body: '{"k":1}' },
        { method: 'GET', url: '/b', body: '' },
      ]);
    } finally {
      await Promise.all([pool.close(), agent.close()]);
    }
  });

  it("sends undici's FormData as multipart", async () => {
    const form = new (await loadFormData())();
    form.append('chat_id', '42');
    const pool = new Pool(origin);
    try {
      const answer = await request(pool, { path: '/upload', method: 'POST', body: form });
      await answer.body.dump();
      expect(received.at(-1)!.type).toMatch(/^multipart\/form-data; boundary=/);
      expect(received.at(-1)!.body).toContain('name="chat_id"\r\n\r\n42');
    } finally {
      await pool.close();
    }
  });
});
