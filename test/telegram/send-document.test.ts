import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { Telegram, TelegramError } from '../../src/telegram/telegraf/core.ts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createBotApiClient } from '../../src/telegram/bot-api-client.ts';
import { TelegramHttpError } from '../../src/telegram/errors.ts';
import { retryingRateLimits } from '../../src/telegram/retry-after.ts';
import {
  DocumentSizeError,
  DocumentTooLargeForServerError,
  DocumentUploadTimeoutError,
  MAX_DOCUMENT_BYTES,
  sendDocument,
  uploadDeadlineMs,
} from '../../src/telegram/send-document.ts';
import { HandlerDeadlineError, runInUpdateScope } from '../../src/telegram/update-scope.ts';
import { startBotApi } from '../support/bot-api/index.ts';
import type { BotApi } from '../support/bot-api/index.ts';

let api: BotApi;
let dir: string;
const cleanups: Array<() => unknown> = [];

beforeEach(async () => {
  api = await startBotApi();
  dir = mkdtempSync(join(tmpdir(), 'send-document-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A Telegram whose calls go through the bot's own client, as installBotApiClient sets it up. */
const telegramAt = (apiRoot: string, wrap: (callApi: Telegram['callApi']) => Telegram['callApi'] = (callApi) => callApi) => {
  const client = createBotApiClient({ apiRoot, token: api.token });
  cleanups.push(() => client.close());
  const telegram = new Telegram(api.token, { apiRoot });
  telegram.callApi = wrap(client.callApi);
  return telegram;
};

const file = (name: string, content: string | Buffer) => {
  const path = join(dir, name);
  writeFileSync(path, content);
  return { filename: name, path };
};

/** A Bot API stand-in that reads the upload as it arrives and answers with `result` (never, when hang). */
const startSink = async (result: unknown, { hang = false } = {}) => {
  let received = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.on('data', (chunk: Buffer) => (received += chunk.length));
    req.on('end', () => {
      if (hang) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: true, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { root: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
};

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describe('sendDocument', () => {
  it('uploads a file from disk as multipart/form-data and returns the document message', async () => {
    const user = api.createUser();
    const asked = api.sendText({ from: user, text: '/export order status production' });
    const sheet = { ...file('orders-status-production-2026-11-23.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x00, 0x01])), type: XLSX };
    const sent = await sendDocument(telegramAt(api.apiRoot), {
      chat_id: user.id,
      reply_parameters: { message_id: asked.message_id, allow_sending_without_reply: true },
      caption: 'Orders: <b>status production</b>, 37',
      parse_mode: 'HTML',
      disable_notification: true,
      document: sheet,
    });
    expect(sent).toEqual({
      message_id: expect.any(Number),
      chat: { id: user.id, type: 'private' },
      document: {
        file_id: expect.any(String),
        file_unique_id: expect.any(String),
        file_name: 'orders-status-production-2026-11-23.xlsx',
        mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        file_size: 8,
      },
      caption: 'Orders: status production, 37',
    });
    const [document] = api.documentsIn(user.id);
    expect(document?.bytes).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x00, 0x01]));
    // The upload says what the file is, not application/octet-stream.
    expect(document?.upload_type).toBe(XLSX);
    expect(document).toMatchObject({ reply_to_message_id: asked.message_id, caption_entities: [{ type: 'bold', offset: 8, length: 17 }] });
    expect(api.failedCalls()).toEqual([]);
  });

  it('sends into the forum topic it is given', async () => {
    const user = api.createUser();
    const forum = api.createGroup({ forum: true });
    api.sendText({ from: user, chat: forum, text: '/export spec', threadId: 12 });
    const sent = await sendDocument(telegramAt(api.apiRoot), { chat_id: forum.id, message_thread_id: 12, document: file('specifications.xlsx', 'x') });
    expect(sent).toMatchObject({ message_thread_id: 12, chat: { id: forum.id, type: 'supergroup' } });
    expect(sent.caption).toBeUndefined();
    expect(api.documentsIn(forum.id)[0]?.message_thread_id).toBe(12);
  });

  it('refuses an empty file and one over 50 MB before uploading', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    const telegram = telegramAt(api.apiRoot);
    const empty = file('empty.xlsx', '');
    await expect(sendDocument(telegram, { chat_id: user.id, document: empty })).rejects.toThrow(new DocumentSizeError(0));
    const huge = file('huge.xlsx', '');
    truncateSync(huge.path, MAX_DOCUMENT_BYTES + 1); // sparse: no 50 MB written to disk
    const error = await sendDocument(telegram, { chat_id: user.id, document: huge }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocumentSizeError);
    expect(error).toMatchObject({ size: MAX_DOCUMENT_BYTES + 1, message: "the document has 52428801 bytes, over Telegram's limit of 52428800" });
    truncateSync(huge.path, MAX_DOCUMENT_BYTES);
    await expect(sendDocument(telegram, { chat_id: user.id, document: huge })).resolves.toMatchObject({ document: { file_size: MAX_DOCUMENT_BYTES } });
    expect(api.callsTo('sendDocument')).toHaveLength(1);
  });

  it("turns Telegram's refusal into a TelegramError that names the method only", async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    const caption = `Заказ 0007300100 ${'x'.repeat(1024)}`;
    const error = await sendDocument(telegramAt(api.apiRoot), { chat_id: user.id, caption, document: file('a.xlsx', 'x') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramError);
    expect(error).toMatchObject({ code: 400, description: 'Bad Request: message caption is too long', on: { method: 'sendDocument' } });
    expect(`${String(error)} ${JSON.stringify(error)}`).not.toContain('0007300100');
  });

  it('turns a failed exchange into a TelegramHttpError', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    api.failNext('sendDocument', { error_code: 502 });
    const error = await sendDocument(telegramAt(api.apiRoot), { chat_id: user.id, document: file('a.xlsx', 'x') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'sendDocument', status: 502 });
  });

  it('rejects a result that is not a document message with a TelegramHttpError', async () => {
    const sink = await startSink({ message_id: 5, chat: { id: 1, type: 'private' }, text: 'not a document' });
    const error = await sendDocument(telegramAt(sink.root), { chat_id: 1, document: file('a.xlsx', 'x') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'sendDocument', message: 'the Bot API answered sendDocument with a result that is not a document message' });
  });

  it('waits out a 429 and uploads the file again through the retrying Telegram', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    api.failNext('sendDocument', { error_code: 429, retry_after: 1 });
    const waits: number[] = [];
    const telegram = telegramAt(api.apiRoot, (callApi) => retryingRateLimits(callApi, { sleep: async (ms) => void waits.push(ms) }));
    await sendDocument(telegram, { chat_id: user.id, document: file('a.csv', 'a;b\n1;2\n') });
    expect(waits).toEqual([1000]);
    expect(api.callsTo('sendDocument').map((call) => call.response.ok)).toEqual([false, true]);
    expect(api.documentsIn(user.id)[0]?.bytes.toString()).toBe('a;b\n1;2\n');
  });

  it("is cancelled at the update's deadline: refused after it, cut off in flight", async () => {
    const logger = pino({ level: 'silent' });
    const sink = await startSink({}, { hang: true });
    const telegram = telegramAt(sink.root);
    const document = file('a.xlsx', 'x');
    const inFlight = runInUpdateScope({ updateId: 7, deadlineMs: 100, logger }, () => sendDocument(telegram, { chat_id: 1, document }));
    await expect(inFlight).rejects.toBeInstanceOf(HandlerDeadlineError);
    expect(sink.received()).toBeGreaterThan(0);
    const late = runInUpdateScope({ updateId: 8, deadlineMs: 1, logger }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      return sendDocument(telegram, { chat_id: 1, document });
    });
    await expect(late).rejects.toThrow('the deadline of update 8 passed: sendDocument was cancelled');
  });

  it('gives up an upload not answered within its own deadline, scaled by the file size', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    const held = api.holdNext('sendDocument');
    const document = file('a.xlsx', 'x'.repeat(100));
    const error = await sendDocument(telegramAt(api.apiRoot), { chat_id: user.id, document }, { deadlineMs: (bytes) => 200 + bytes }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DocumentUploadTimeoutError);
    expect(error).toBeInstanceOf(TelegramHttpError);
    expect(error).toMatchObject({ method: 'sendDocument', size: 100, timeoutMs: 300, message: 'the Bot API did not answer the upload of 100 bytes within 300 ms' });
    expect(held.count()).toBe(1);
    await api.waitFor(() => api.callsTo('sendDocument').length === 1);
    expect(api.callsTo('sendDocument')[0]?.aborted).toBe(true);
    held.release();
    expect(api.documentsIn(user.id)).toEqual([]);
  });

  it('the default deadline: 30 s, and a second more for every 256 KB', () => {
    expect(uploadDeadlineMs(1)).toBe(30_001);
    expect(uploadDeadlineMs(256 * 1024)).toBe(31_000);
    expect(uploadDeadlineMs(MAX_DOCUMENT_BYTES)).toBe(230_000);
  });

  it("is given up when its caller's signal aborts (the bot stopping), with the signal's reason", async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    const held = api.holdNext('sendDocument');
    const stopping = new AbortController();
    const sending = sendDocument(telegramAt(api.apiRoot), { chat_id: user.id, document: file('a.xlsx', 'x') }, { signal: stopping.signal });
    await api.waitFor(() => held.count() === 1);
    const reason = new Error('stopping');
    stopping.abort(reason);
    await expect(sending).rejects.toBe(reason);
    await api.waitFor(() => api.callsTo('sendDocument').length === 1);
    expect(api.callsTo('sendDocument')[0]?.aborted).toBe(true);
    held.release();
  });

  it('413, from a proxy with a small body limit or from the Bot API itself, is a DocumentTooLargeForServerError', async () => {
    const user = api.createUser();
    api.sendText({ from: user, text: 'hi' });
    const telegram = telegramAt(api.apiRoot);
    const document = file('a.xlsx', Buffer.alloc(4096, 1));
    api.limitBodies(1024);
    const byProxy = await sendDocument(telegram, { chat_id: user.id, document }).catch((caught: unknown) => caught);
    expect(byProxy).toBeInstanceOf(DocumentTooLargeForServerError);
    expect(byProxy).toMatchObject({ size: 4096, message: 'the Bot API server refused the document of 4096 bytes as too large (HTTP 413)' });
    expect((byProxy as Error).cause).toMatchObject({ status: 413 });
    api.limitBodies(undefined);
    api.failNext('sendDocument', { error_code: 413 });
    const byApi = await sendDocument(telegram, { chat_id: user.id, document }).catch((caught: unknown) => caught);
    expect(byApi).toBeInstanceOf(DocumentTooLargeForServerError);
    expect((byApi as Error).cause).toMatchObject({ code: 413, description: 'Request Entity Too Large' });
    expect(api.documentsIn(user.id)).toEqual([]);
  });
});
