import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TelegramError } from '../../src/telegram/telegraf/core.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBotApiClient, toJsonBody } from '../../src/telegram/bot-api-client.ts';
import { TelegramHttpError } from '../../src/telegram/errors.ts';

const TOKEN = '123456:secret-token';
type Seen = { url: string; contentType: string | undefined; body: unknown };
const seen: Seen[] = [];
let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    seen.push({ url: req.url ?? '', contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString() || 'null') });
    answer(req, res);
  });
});
const json = (status: number, body: unknown) => (_req: IncomingMessage, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
let root = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const call = (client: ReturnType<typeof createBotApiClient>, method: string, payload: object, signal?: AbortSignal) =>
  (client.callApi as unknown as (m: string, p: object, o?: { signal?: AbortSignal }) => Promise<unknown>)(method, payload, signal && { signal });

describe('the Bot API client', () => {
  it('posts the payload as JSON to /bot<token>/<method>, without null or undefined fields, and returns the result', async () => {
    answer = json(200, { ok: true, result: { message_id: 7 } });
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const result = await call(client, 'sendMessage', { chat_id: 1, text: 'Заказ <b>№1</b>', reply_markup: undefined, message_thread_id: null, parse_mode: 'HTML' });
    expect(result).toEqual({ message_id: 7 });
    expect(seen.at(-1)).toEqual({
      url: `/bot${TOKEN}/sendMessage`,
      contentType: 'application/json',
      body: { chat_id: 1, text: 'Заказ <b>№1</b>', parse_mode: 'HTML' },
    });
    await client.close();
  });

  it('for a result nobody reads, tells success and refusal as always, whatever the answer looks like', async () => {
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const unused = (method: string, payload: object) =>
      (client.callApi as unknown as (m: string, p: object, o: { resultUnused: boolean }) => Promise<unknown>)(method, payload, { resultUnused: true });
    answer = json(200, { ok: true, result: { message_id: 7, text: 'Заказ №1 '.repeat(200) } });
    expect(await unused('sendMessage', { chat_id: 1, text: 'x' })).toBe(true);
    // Spaced JSON, or ok:false with a 200 (as no server sends, but a proxy might): read in full.
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{ "ok": true, "result": { "message_id": 8 } }');
    };
    expect(await unused('sendMessage', { chat_id: 1, text: 'x' })).toEqual({ message_id: 8 });
    answer = json(200, { ok: false, error_code: 400, description: 'Bad Request: message is not modified' });
    await expect(unused('editMessageText', { chat_id: 1, text: 'x' })).rejects.toMatchObject({ code: 400, description: 'Bad Request: message is not modified' });
    answer = json(403, { ok: false, error_code: 403, description: 'Forbidden: bot was blocked by the user' });
    await expect(unused('sendMessage', { chat_id: 1, text: 'x' })).rejects.toBeInstanceOf(TelegramError);
    answer = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('{"ok":tr');
    };
    await expect(unused('sendMessage', { chat_id: 1, text: 'x' })).rejects.toBeInstanceOf(TelegramHttpError);
    await client.close();
  });

  it('keeps the path of an API root that has one, as Telegraf does', async () => {
    answer = json(200, { ok: true, result: true });
    const client = createBotApiClient({ apiRoot: `${root}/telegram/`, token: TOKEN });
    await call(client, 'getMe', {});
    expect(seen.at(-1)?.url).toBe(`/telegram/bot${TOKEN}/getMe`);
    await client.close();
  });

  it("turns Telegram's refusal into a TelegramError with its code, description and retry_after", async () => {
    answer = json(429, { ok: false, error_code: 429, description: 'Too Many Requests: retry after 7', parameters: { retry_after: 7 } });
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const error = await call(client, 'sendMessage', { chat_id: 1, text: 'x' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramError);
    expect((error as TelegramError).code).toBe(429);
    expect((error as TelegramError).parameters?.retry_after).toBe(7);
    expect((error as TelegramError).description).toBe('Too Many Requests: retry after 7');
    expect((error as TelegramError).on).toMatchObject({ method: 'sendMessage' });
    await client.close();
  });

  it('keeps the payload out of the TelegramError: the method only, never the text', async () => {
    answer = json(400, { ok: false, error_code: 400, description: 'Bad Request: chat not found' });
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const error = (await call(client, 'sendMessage', { chat_id: 1, text: 'Заказ 0007300100: 530х8' }).catch((caught: unknown) => caught)) as TelegramError;
    expect(error.on).toEqual({ method: 'sendMessage' });
    expect(`${error.message} ${JSON.stringify(error)}`).not.toContain('0007300100');
    answer = (_req, res) => {
      res.writeHead(502);
      res.end();
    };
    const failed = (await call(client, 'setWebhook', { url: 'https://x.example', secret_token: 'generated-secret' }).catch((caught: unknown) => caught)) as TelegramHttpError;
    expect(failed).toBeInstanceOf(TelegramHttpError);
    expect(failed.method).toBe('setWebhook');
    expect(`${failed.message} ${JSON.stringify(failed)}`).not.toContain('generated-secret');
    await client.close();
  });

  it('turns a 5xx into a TelegramHttpError with the HTTP status, whatever the body', async () => {
    answer = (_req, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<html>bad gateway</html>');
    };
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const error = await call(client, 'getUpdates', {}).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'getUpdates', status: 502, message: 'the Bot API answered getUpdates with HTTP 502 Bad Gateway' });
    await client.close();
  });

  it('rejects a body that is not JSON with a TelegramHttpError that does not show the token', async () => {
    answer = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>not found</html>');
    };
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const error = (await call(client, 'getMe', {}).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'getMe', status: 404 });
    expect(error.message).toBe('the Bot API answered getMe with HTTP 404 and a body that is not JSON');
    await client.close();
  });

  it('rejects when Telegram cannot be reached, without the token in the error', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = createBotApiClient({ apiRoot: `http://127.0.0.1:${port}`, token: TOKEN });
    const error = (await call(client, 'getMe', {}).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'getMe', status: undefined });
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain('secret-token');
    await client.close();
  });

  it('stops waiting when its signal aborts, as polling does on shutdown', async () => {
    answer = () => undefined; // never answers, like a long poll
    const client = createBotApiClient({ apiRoot: root, token: TOKEN });
    const aborter = new AbortController();
    const pending = call(client, 'getUpdates', { timeout: 30 }, aborter.signal).catch((caught: unknown) => caught);
    await new Promise((resolve) => setTimeout(resolve, 50));
    aborter.abort();
    const error = (await pending) as Error;
    expect(error.name).toBe('AbortError');
    await client.close();
  });
});

describe('toJsonBody', () => {
  it('leaves out null and undefined fields at every depth, and nothing else', () => {
    const payload = {
      chat_id: 1,
      text: 'a :null in the text, and "q":null',
      reply_parameters: undefined,
      reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'o:1', url: null, pay: undefined }]] },
      list: [null, undefined, 0, ''],
      ok: false,
    };
    expect(JSON.parse(toJsonBody(payload))).toEqual({
      chat_id: 1,
      text: 'a :null in the text, and "q":null',
      reply_markup: { inline_keyboard: [[{ text: 'x', callback_data: 'o:1' }]] },
      list: [null, null, 0, ''],
      ok: false,
    });
    expect(toJsonBody({ chat_id: 1, text: 'no nulls', entities: [], reply_markup: { remove_keyboard: true } })).toBe(
      '{"chat_id":1,"text":"no nulls","entities":[],"reply_markup":{"remove_keyboard":true}}',
    );
  });
});
