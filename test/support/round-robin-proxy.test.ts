import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy.ts';

const servers: Server[] = [];
let proxy: RoundRobinProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** An upstream that answers with its name and what it received. */
const upstream = async (name: string, answer: 'echo' | 'drop' = 'echo') => {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (answer === 'drop') return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': name });
      res.end(JSON.stringify({ name, path: req.url, body: Buffer.concat(chunks).toString(), secret: req.headers['x-secret'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

const closedPort = async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
};

const post = async (body: string) => {
  const response = await fetch(`${proxy?.url}/hook?x=1`, { method: 'POST', headers: { 'x-secret': 's3' }, body });
  return { status: response.status, body: response.status === 200 ? ((await response.json()) as Record<string, unknown>) : await response.text() };
};

describe('the round-robin proxy', () => {
  it('sends each request to the next upstream in turn, path, headers and body as received', async () => {
    const [a, b] = [await upstream('a'), await upstream('b')];
    proxy = await startRoundRobinProxy([a, b]);
    const answers = [await post('1'), await post('2'), await post('3')];
    expect(answers.map((answer) => answer.body)).toEqual([
      { name: 'a', path: '/hook?x=1', body: '1', secret: 's3' },
      { name: 'b', path: '/hook?x=1', body: '2', secret: 's3' },
      { name: 'a', path: '/hook?x=1', body: '3', secret: 's3' },
    ]);
    expect(proxy.served()).toEqual({ [a]: 2, [b]: 1 });
  });

  it('skips an upstream that refuses the connection, and answers 502 when all do', async () => {
    const down = await closedPort();
    const b = await upstream('b');
    proxy = await startRoundRobinProxy([down, b]);
    expect((await post('1')).body).toMatchObject({ name: 'b' });
    expect((await post('2')).body).toMatchObject({ name: 'b' });
    expect(proxy.refused()).toEqual({ [down]: 2 });
    proxy.setUpstreams([down]);
    expect((await post('3')).status).toBe(502);
  });

  it('answers 502, without trying another, when an upstream fails after it got the request', async () => {
    const [dropping, b] = [await upstream('a', 'drop'), await upstream('b')];
    proxy = await startRoundRobinProxy([dropping, b]);
    expect((await post('1')).status).toBe(502);
    expect(proxy.served()).toEqual({});
    expect((await post('2')).body).toMatchObject({ name: 'b' });
  });
});
