import { createServer } from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import fetch from '../../src/http/lazy-node-fetch.ts';

// scripts/build.ts gives Telegraf's HTTP client this module in place of node-fetch.

describe("node-fetch for Telegraf's client, loaded by the first call", () => {
  it('fetches through node-fetch: the request and the response are those of a real exchange', async () => {
    const server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => response.setHeader('content-type', 'application/json').end(JSON.stringify({ ok: true, result: `${request.method} ${request.url} ${body}` })));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      for (const n of [1, 2]) {
        const response = (await fetch(`http://127.0.0.1:${port}/bot1:x/getMe`, { method: 'POST', body: `n=${n}` })) as { status: number; json: () => Promise<unknown> };
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({ ok: true, result: `POST /bot1:x/getMe n=${n}` });
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rejects as node-fetch does when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await expect(fetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({ name: 'FetchError', code: 'ECONNREFUSED' });
  });

  it('loads node-fetch again after a load that failed (a chunk missing for a moment is not missing for good)', async () => {
    vi.resetModules();
    let loads = 0;
    vi.doMock('node-fetch', () => {
      loads += 1;
      if (loads === 1) throw new Error('cannot load node-fetch');
      return { default: async (url: string) => `fetched ${url}` };
    });
    try {
      const { default: lazy } = await import('../../src/http/lazy-node-fetch.ts');
      await expect(lazy('http://127.0.0.1/1')).rejects.toThrow(); // vitest wraps the factory's error
      await expect(lazy('http://127.0.0.1/2')).resolves.toBe('fetched http://127.0.0.1/2');
      await expect(lazy('http://127.0.0.1/3')).resolves.toBe('fetched http://127.0.0.1/3');
      expect(loads).toBe(2);
    } finally {
      vi.doUnmock('node-fetch');
      vi.resetModules();
    }
  });
});
