import { afterEach, describe, expect, it } from 'vitest';
import { startHttpServer } from '../../src/app/http-server.ts';
import type { HttpServer, Readiness } from '../../src/app/http-server.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';
import { captureLogs } from '../support/logs.ts';

const SECRET = 'webhook-secret_0123456789';
const PATH = '/telegram/hook';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

let server: HttpServer | undefined;
afterEach(async () => {
  await server?.close(100);
  server = undefined;
});

const start = async (options: { readiness?: () => Readiness; handleUpdate?: (update: unknown) => Promise<void>; answerWithinMs?: number } = {}) => {
  const { logger, lines } = captureLogs();
  const metrics = createMetricsRegistry({ process: false });
  metrics.counter({ name: 'hits_total', help: 'Hits.' }).inc({}, 2);
  const handled: unknown[] = [];
  server = await startHttpServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    metrics,
    readiness: options.readiness ?? (() => ({ ready: true, detail: { portal: 'ok' } })),
    webhook: {
      path: PATH,
      secretToken: SECRET,
      handleUpdate: options.handleUpdate ?? (async (update) => void handled.push(update)),
      answerWithinMs: options.answerWithinMs ?? 5_000,
    },
  });
  const base = `http://127.0.0.1:${server.port}`;
  const post = (body: string, headers: Record<string, string> = { 'x-telegram-bot-api-secret-token': SECRET }) =>
    fetch(`${base}${PATH}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return { base, post, handled, lines, server };
};

describe('health, readiness and metrics', () => {
  it('answers /healthz', async () => {
    const { base } = await start();
    const response = await fetch(`${base}/healthz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.text()).toBe('{"status":"ok"}');
  });

  it('answers /readyz with 200 or 503 and the detail', async () => {
    let ready = true;
    const { base } = await start({ readiness: () => ({ ready, detail: { portal: ready ? 'ok' : 'unreachable' } }) });
    const first = await fetch(`${base}/readyz`);
    expect([first.status, await first.json()]).toEqual([200, { status: 'ready', detail: { portal: 'ok' } }]);
    ready = false;
    const second = await fetch(`${base}/readyz`);
    expect([second.status, await second.json()]).toEqual([503, { status: 'not ready', detail: { portal: 'unreachable' } }]);
  });

  it('answers 503 when the readiness check throws', async () => {
    const { base, lines } = await start({
      readiness: () => {
        throw new Error('boom');
      },
    });
    const response = await fetch(`${base}/readyz`);
    expect(response.status).toBe(503);
    expect(lines.some((line) => line.msg === 'the readiness check failed')).toBe(true);
  });

  it('exposes /metrics in the text format', async () => {
    const { base } = await start();
    const response = await fetch(`${base}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(await response.text()).toBe('# HELP hits_total Hits.\n# TYPE hits_total counter\nhits_total 2\n');
  });

  it('answers 404 for an unknown path and 405 for a wrong method', async () => {
    const { base } = await start();
    expect((await fetch(`${base}/nope`)).status).toBe(404);
    const wrong = await fetch(`${base}/metrics`, { method: 'POST', body: '' });
    expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    const get = await fetch(`${base}${PATH}`);
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

describe('webhook', () => {
  const update = { update_id: 7, message: { message_id: 1, date: 0, chat: { id: 1, type: 'private' }, text: 'hi' } };

  it('hands an update with the right secret to the bot', async () => {
    const { post, handled } = await start();
    const response = await post(JSON.stringify(update));
    expect([response.status, await response.text()]).toEqual([200, '']);
    await expect.poll(() => handled).toEqual([update]);
  });

  it('refuses a wrong or missing secret with 401 and does not handle the update', async () => {
    const { post, handled, lines } = await start();
    expect((await post(JSON.stringify(update), { 'x-telegram-bot-api-secret-token': `${SECRET}x` })).status).toBe(401);
    expect((await post(JSON.stringify(update), { 'x-telegram-bot-api-secret-token': SECRET.slice(0, -1) })).status).toBe(401);
    expect((await post(JSON.stringify(update), {})).status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handled).toEqual([]);
    expect(JSON.stringify(lines)).not.toContain(SECRET);
  });

  // Telegram posts a chat's next update only after the answer: answering once handled keeps a
  // chat in order even when its updates land on different replicas.
  it('answers only once the handler finished', async () => {
    const release = deferred();
    let finished = false;
    let answered = false;
    const { post } = await start({
      handleUpdate: async () => {
        await release.promise;
        finished = true;
      },
    });
    const response = post(JSON.stringify(update)).then((reply) => {
      answered = true;
      return reply;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(answered).toBe(false);
    release.resolve();
    expect((await response).status).toBe(200);
    expect(finished).toBe(true);
  });

  it('answers a handler slower than answerWithinMs at that time, with a warning', async () => {
    const release = deferred();
    const { post, lines } = await start({ handleUpdate: () => release.promise, answerWithinMs: 150 });
    const started = Date.now();
    expect((await post(JSON.stringify(update))).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(lines.find((line) => line.msg === 'answered a webhook update still being handled')).toMatchObject({ level: 40, updateId: 7, answerWithinMs: 150 });
    release.resolve();
  });

  it('logs a failing handler with the update id', async () => {
    const { post, lines } = await start({ handleUpdate: () => Promise.reject(new Error('handler broke')) });
    expect((await post(JSON.stringify(update))).status).toBe(200);
    await expect.poll(() => lines.find((line) => line.msg === 'handling a webhook update failed')).toMatchObject({
      level: 50,
      updateId: 7,
      err: { message: 'handler broke' },
    });
  });

  // Telegram retries any answer but 2xx and holds the updates after it back meanwhile: a body that
  // passed the secret but is no update is dropped with 200, logged without its content.
  it.each([
    ['not JSON', '{"update_id": 1'],
    ['an array', '[1]'],
    ['null', 'null'],
    ['no update_id', '{"message":{"text":"secret words"}}'],
    ['a string update_id', '{"update_id":"1"}'],
    ['a fractional update_id', '{"update_id":1.5}'],
  ])('drops %s with 200 and a warning, then handles the next update', async (_name, body) => {
    const { post, handled, lines } = await start();
    expect((await post(body)).status).toBe(200);
    expect(lines.filter((line) => line.msg === 'dropped a webhook body that is not an update')).toMatchObject([{ level: 40 }]);
    expect(JSON.stringify(lines)).not.toContain('secret words');
    expect((await post(JSON.stringify(update))).status).toBe(200);
    await expect.poll(() => handled).toEqual([update]);
  });

  it('accepts a body of exactly 1 MB and drops a larger one with 200 and a warning', async () => {
    const { post, handled, lines } = await start();
    const padded = (size: number) => {
      const prefix = '{"update_id":9,"pad":"';
      return `${prefix}${'x'.repeat(size - prefix.length - 2)}"}`;
    };
    expect((await post(padded(1024 * 1024))).status).toBe(200);
    await expect.poll(() => handled.length).toBe(1);
    expect((await post(padded(1024 * 1024 + 1))).status).toBe(200);
    expect(lines.find((line) => line.msg === 'dropped a webhook update over the size limit')).toMatchObject({ level: 40, limitBytes: 1024 * 1024 });
    expect((await post(JSON.stringify(update))).status).toBe(200);
    await expect.poll(() => handled.length).toBe(2);
  });

  it('drops a streamed body without a length once it passes 1 MB, with 200', async () => {
    const { base, handled, lines } = await start();
    const chunk = new TextEncoder().encode('x'.repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 1024 * 1024 + chunk.length) controller.close();
        else controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const response = await fetch(`${base}${PATH}`, {
      method: 'POST',
      headers: { 'x-telegram-bot-api-secret-token': SECRET },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(200);
    expect(handled).toEqual([]);
    expect(lines.some((line) => line.msg === 'dropped a webhook update over the size limit')).toBe(true);
  });
});

describe('close', () => {
  it('waits for running handlers, answers them, then stops accepting', async () => {
    const release = deferred();
    const started = deferred();
    let finished = false;
    const { base, post, server: running } = await start({
      handleUpdate: async () => {
        started.resolve();
        await release.promise;
        finished = true;
      },
    });
    const response = post(JSON.stringify({ update_id: 1 }));
    await started.promise;
    let closed = false;
    const closing = running.close(5_000).then(() => (closed = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(false);
    release.resolve();
    await closing;
    expect(finished).toBe(true);
    expect((await response).status).toBe(200);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it('gives up on handlers after the grace period: their posts go unanswered, and Telegram posts them again', async () => {
    const started = deferred();
    const { post, server: running, lines } = await start({
      handleUpdate: () => {
        started.resolve();
        return new Promise(() => {});
      },
    });
    const response = post(JSON.stringify({ update_id: 1 }));
    await started.promise;
    const closedAt = Date.now();
    await running.close(100);
    await expect(response).rejects.toThrow();
    expect(Date.now() - closedAt).toBeLessThan(2_000);
    expect(lines.find((line) => line.msg === 'closing with update handlers still running')).toMatchObject({ running: 1, graceMs: 100 });
  });
});
