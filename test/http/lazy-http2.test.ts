import http2 from 'node:http2';
import { describe, expect, it } from 'vitest';
import { connect, constants } from '../../src/http/lazy-http2.ts';

// scripts/build.ts gives undici's HTTP/2 client this module in place of node:http2.

describe('node:http2 for undici, loaded by the first session', () => {
  it("has node:http2's own values for the constants undici takes", () => {
    for (const [name, value] of Object.entries(constants)) expect([name, value]).toEqual([name, http2.constants[name as keyof typeof http2.constants]]);
  });

  it('connects through node:http2: a session to a local HTTP/2 server answers', async () => {
    const server = http2.createServer((request, response) => response.end(`h2 ${request.url}`));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const session = connect(`http://127.0.0.1:${port}`);
    try {
      const stream = session.request({ [constants.HTTP2_HEADER_PATH]: '/x' });
      let body = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => (body += chunk));
      await new Promise((resolve) => stream.on('end', resolve));
      expect(body).toBe('h2 /x');
    } finally {
      session.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
