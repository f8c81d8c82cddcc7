import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { send, sendJson } from '../../src/http/respond.ts';

describe('respond', () => {
  it('answers with the length, no caching, and JSON typed as such', async () => {
    const server = createServer((req, res) => (req.url === '/json' ? sendJson(res, 201, { ok: 'ж' }, { 'x-extra': '1' }) : send(res, 200, 'plain')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const json = await fetch(`${base}/json`);
      expect(json.status).toBe(201);
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(json.headers.get('cache-control')).toBe('no-store');
      expect(json.headers.get('x-extra')).toBe('1');
      expect(json.headers.get('content-length')).toBe(String(Buffer.byteLength('{"ok":"ж"}')));
      expect(await json.json()).toEqual({ ok: 'ж' });
      expect(await (await fetch(`${base}/plain`)).text()).toBe('plain');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
