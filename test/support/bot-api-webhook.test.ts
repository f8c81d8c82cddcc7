import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Update } from 'telegraf/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBotApi } from './bot-api/index.ts';
import type { BotApi, StartBotApiOptions } from './bot-api/index.ts';
import { caller } from './bot-api-http.ts';

// The emulator posts updates to a webhook as telegram-bot-api does: one per chat in flight, a
// bounded number overall, retried until a 2xx, with the rate limit on setWebhook.

/** An update as posted: its one payload field read loosely. */
type Posted = { update_id: number } & Record<string, unknown>;
type Post = { update: Posted; secret: string | undefined; answer(status?: number, headers?: Record<string, string>): void };

/** A webhook receiver whose answers the test gives one post at a time (or at once with autoAnswer). */
const startReceiver = async () => {
  const posts: Post[] = [];
  const waiters = new Set<() => void>();
  let autoAnswer: number | undefined;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const secret = req.headers['x-telegram-bot-api-secret-token'];
      const post: Post = {
        update: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Posted,
        secret: typeof secret === 'string' ? secret : undefined,
        answer: (status = 200, headers = {}) => {
          res.writeHead(status, headers);
          res.end();
        },
      };
      posts.push(post);
      if (autoAnswer !== undefined) post.answer(autoAnswer);
      for (const waiter of [...waiters]) waiter();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    posts,
    autoAnswer(status: number | undefined) {
      autoAnswer = status;
    },
    /** Resolves once `count` posts arrived in all. */
    posted: (count: number, timeoutMs = 3000) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`${posts.length} posts, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
        const check = () => {
          if (posts.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

let api: BotApi;
let receiver: Receiver;
const { ok, call } = caller(() => api);
const HOOK = 'https://bot.example.com/hook';

const start = async (options: StartBotApiOptions = {}) => {
  api = await startBotApi({ webhookTarget: (url) => (url === HOOK ? receiver.url : undefined), webhookRetryUnitMs: 20, ...options });
};

beforeEach(async () => {
  receiver = await startReceiver();
});
afterEach(async () => {
  await api.close();
  await receiver.close();
});

const textOf = (post: Post | undefined) => (post?.update.message as { text?: string } | undefined)?.text;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('webhook delivery', () => {
  it('posts each update as JSON with the secret header, and forgets it after a 2xx', async () => {
    await start();
    const ann = api.createUser();
    await ok('setWebhook', { url: HOOK, secret_token: 'the-secret_1' });
    receiver.autoAnswer(200);
    const message = api.sendText({ from: ann, text: 'hello' });
    await api.waitForIdle();
    expect(receiver.posts).toHaveLength(1);
    expect(receiver.posts[0]?.secret).toBe('the-secret_1');
    expect(receiver.posts[0]?.update).toEqual({ update_id: expect.any(Number), message });
    expect(await ok('getWebhookInfo')).toMatchObject({ url: HOOK, pending_update_count: 0 });
    expect(api.webhookAttempts).toMatchObject([{ queue: `chat:${ann.id}`, outcome: 'ok' }]);
  });

  it('keeps one update of a chat in flight, the next only after a 2xx; other chats go meanwhile', async () => {
    await start();
    const [ann, bob] = [api.createUser(), api.createUser()];
    await ok('setWebhook', { url: HOOK });
    api.sendText({ from: ann, text: 'ann 1' });
    api.sendText({ from: ann, text: 'ann 2' });
    api.sendText({ from: bob, text: 'bob 1' });
    await receiver.posted(2);
    await sleep(50);
    expect(receiver.posts.map(textOf)).toEqual(['ann 1', 'bob 1']);
    receiver.posts[1]?.answer(200);
    await sleep(50);
    expect(receiver.posts).toHaveLength(2);
    receiver.posts[0]?.answer(200);
    await receiver.posted(3);
    expect(textOf(receiver.posts[2])).toBe('ann 2');
    receiver.posts[2]?.answer(200);
    await api.waitForIdle();
  });

  it('queues button presses by the user who pressed, apart from the chat’s messages, as Telegram does', async () => {
    await start();
    const ann = api.createUser();
    api.sendText({ from: ann, text: '/start' });
    const sent = await ok<{ message_id: number; chat: { id: number } }>('sendMessage', {
      chat_id: ann.id,
      text: 'results',
      reply_markup: { inline_keyboard: [[{ text: 'next', callback_data: 'n' }]] },
    });
    await ok('setWebhook', { url: HOOK, drop_pending_updates: true });
    api.pressButton({ from: ann, message: sent, data: 'n' });
    api.pressButton({ from: ann, message: sent, data: 'n' });
    api.sendText({ from: ann, text: 'typed' });
    await receiver.posted(2);
    await sleep(50);
    expect(receiver.posts.map((post) => Object.keys(post.update).find((key) => key !== 'update_id'))).toEqual(['callback_query', 'message']);
    receiver.posts[0]?.answer(200);
    await receiver.posted(3);
    expect(receiver.posts[2]?.update.callback_query).toBeDefined();
    receiver.autoAnswer(200);
    for (const post of receiver.posts.slice(1)) post.answer(200);
    await api.waitForIdle();
  });

  it('posts at most max_connections updates at once (40 when not set)', async () => {
    await start();
    await ok('setWebhook', { url: HOOK, max_connections: 2 });
    for (let k = 0; k < 5; k++) api.sendText({ from: api.createUser(), text: `chat ${k}` });
    await receiver.posted(2);
    await sleep(50);
    expect(receiver.posts).toHaveLength(2);
    receiver.autoAnswer(200);
    for (const post of receiver.posts) post.answer(200);
    await api.waitForIdle();
    expect(receiver.posts.map(textOf)).toEqual(['chat 0', 'chat 1', 'chat 2', 'chat 3', 'chat 4']);

    api.advanceTime(1);
    await ok('setWebhook', { url: HOOK });
    expect(await ok('getWebhookInfo')).toMatchObject({ max_connections: 40 });
  });

  it('retries an update answered with an error, holding its chat back, and reports it in getWebhookInfo', async () => {
    await start();
    const ann = api.createUser();
    await ok('setWebhook', { url: HOOK });
    api.sendText({ from: ann, text: 'first' });
    api.sendText({ from: ann, text: 'second' });
    await receiver.posted(1);
    receiver.posts[0]?.answer(503);
    await receiver.posted(2);
    // Retried at once, then after a pause: meanwhile the info shows the error and both updates.
    receiver.posts[1]?.answer(500);
    await api.waitFor(() => api.webhookAttempts.filter((attempt) => attempt.outcome !== undefined).length === 2);
    const info = await ok<Record<string, unknown>>('getWebhookInfo');
    expect(info).toMatchObject({
      pending_update_count: 2,
      last_error_date: expect.any(Number),
      last_error_message: 'Wrong response from the webhook: 500 Internal Server Error',
    });
    await receiver.posted(3);
    expect(receiver.posts.map(textOf)).toEqual(['first', 'first', 'first']);
    receiver.autoAnswer(200);
    receiver.posts[2]?.answer(200);
    await api.waitForIdle();
    expect(receiver.posts.map(textOf)).toEqual(['first', 'first', 'first', 'second']);
    expect((await ok<Record<string, unknown>>('getWebhookInfo')).pending_update_count).toBe(0);
  });

  it('retries after a refused connection and after a post nobody answers in time', async () => {
    await start({ webhookTimeoutMs: 200 });
    const ann = api.createUser();
    const closedPort = await (async () => {
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
      const { port } = probe.address() as AddressInfo;
      await new Promise<void>((resolve) => probe.close(() => resolve()));
      return port;
    })();
    api.setWebhookTarget(() => `http://127.0.0.1:${closedPort}/hook`);
    await ok('setWebhook', { url: HOOK });
    api.sendText({ from: ann, text: 'hello' });
    await api.waitFor(() => api.webhookAttempts.some((attempt) => attempt.outcome === 'Connection refused'));
    expect(await ok('getWebhookInfo')).toMatchObject({ pending_update_count: 1, last_error_message: 'Connection refused' });

    api.setWebhookTarget(() => receiver.url);
    await receiver.posted(1);
    await api.waitFor(() => api.webhookAttempts.some((attempt) => attempt.outcome === 'Read timeout expired'));
    receiver.autoAnswer(200);
    await api.waitForIdle();
    expect(receiver.posts.map(textOf)).toEqual(['hello', 'hello']);
  });

  it('posts nothing without a target for the URL, and stops posting after deleteWebhook', async () => {
    await start();
    const ann = api.createUser();
    await ok('setWebhook', { url: 'https://elsewhere.example.com/hook' });
    api.sendText({ from: ann, text: 'kept' });
    await sleep(50);
    expect(receiver.posts).toEqual([]);
    expect(api.webhookAttempts).toEqual([]);
    await ok('deleteWebhook');
    const polled = await ok<Update[]>('getUpdates');
    expect(polled.map((update) => ('message' in update && 'text' in update.message ? update.message.text : undefined))).toEqual(['kept']);
  });
});

describe('setWebhook and getWebhookInfo', () => {
  it('answers a second setWebhook within a second with 429 retry after 1, identical or not', async () => {
    await start();
    await ok('setWebhook', { url: HOOK, secret_token: 'one' });
    const refused = await call('setWebhook', { url: HOOK, secret_token: 'one' });
    expect(refused).toEqual({ status: 429, body: { ok: false, error_code: 429, description: 'Too Many Requests: retry after 1', parameters: { retry_after: 1 } } });
    await ok('deleteWebhook');
    await ok('deleteWebhook');
    api.advanceTime(1);
    await ok('setWebhook', { url: HOOK, secret_token: 'two' });
    expect(api.webhookSets()).toBe(2);
    expect(api.callsTo('setWebhook')).toHaveLength(3);
  });

  it('returns allowed_updates as set, and refuses a secret Telegram would refuse', async () => {
    await start();
    expect(await ok('getWebhookInfo')).toEqual({ url: '', has_custom_certificate: false, pending_update_count: 0 });
    await ok('setWebhook', { url: HOOK, allowed_updates: ['message', 'callback_query'] });
    expect(await ok('getWebhookInfo')).toEqual({
      url: HOOK,
      has_custom_certificate: false,
      pending_update_count: 0,
      max_connections: 40,
      allowed_updates: ['message', 'callback_query'],
    });
    api.advanceTime(1);
    expect((await call('setWebhook', { url: HOOK, secret_token: 'has space' })).body).toMatchObject({
      error_code: 400,
      description: 'Bad Request: secret token contains unallowed characters',
    });
    api.advanceTime(1);
    expect((await call('setWebhook', { url: HOOK, secret_token: 'x'.repeat(257) })).body).toMatchObject({ description: 'Bad Request: secret token is too long' });
  });

  it('applies allowed_updates set by setWebhook to the updates created after', async () => {
    await start();
    receiver.autoAnswer(200);
    const ann = api.createUser();
    await ok('setWebhook', { url: HOOK, allowed_updates: ['callback_query'] });
    api.sendText({ from: ann, text: 'not wanted' });
    await sleep(50);
    expect(receiver.posts).toEqual([]);
  });
});
