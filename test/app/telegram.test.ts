import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiving, type Receiving } from '../../src/app/telegram.ts';
import { createMetricsRegistry } from '../../src/metrics/registry.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { startRoundRobinProxy } from '../support/round-robin-proxy.ts';
import { useTempDirs } from '../store/support.ts';
import { startDroppingProxy } from '../telegram/dropping-proxy.ts';
import { createGate, createTestBot, sleep, startFixture, until, type Fixture, type TextUpdate } from '../telegram/fixture.ts';

// startReceiving against the emulator (directly or behind a misbehaving proxy), on a real sqlite
// store: in webhook mode, and polling with its lease.

const tempDir = useTempDirs();
let f: Fixture;
let store: ReturnType<typeof openSqliteStore>;
let receiving: Receiving | undefined;
const others: Receiving[] = [];
beforeEach(async () => {
  f = await startFixture();
  store = openSqliteStore({ dataDir: tempDir() });
});
afterEach(async () => {
  await Promise.all([receiving, ...others.splice(0)].map((running) => running?.stop(100)));
  receiving = undefined;
  await f.close();
  store.close();
});

const CONFIG = { port: 0, concurrency: 1, handlerDeadlineMs: 300 };

const startWebhook = async (onText: (update: TextUpdate) => Promise<void>, { apiRoot = f.api.apiRoot, onSecret = (_: string) => {} } = {}) => {
  const bot = createTestBot(f.api, onText, apiRoot);
  receiving = await startReceiving({
    bot,
    config: { ...CONFIG, webhook: { url: 'https://bot.example.com/hook', secret: undefined } },
    coordination: store.coordination,
    leaderLeaseMs: 3_000,
    logger: f.logger,
    metrics: createMetricsRegistry(),
    readiness: () => ({ ready: true, detail: {} }),
    backoff: { baseMs: 20, maxMs: 100 },
    onSecret,
  });
  const port = f.logged('receiving updates')[0]?.port as number;
  const secret = String(f.api.webhook?.params.secret_token);
  let nextId = 100;
  const post = (update: unknown) =>
    fetch(`http://127.0.0.1:${port}/hook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': secret },
      body: JSON.stringify(update),
    }).then((response) => response.status);
  const send = (from: ReturnType<typeof f.api.createUser>, text: string) => post({ update_id: (nextId += 1), message: f.api.sendText({ from, text }) });
  return { post, send, secret };
};

describe('webhook start-up', () => {
  it('retries getMe and setWebhook, reports the generated secret first, and never logs it', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    proxy.refuseNext(1);
    f.api.failNext('setWebhook', { error_code: 502 }, { times: 2 });
    const reported: string[] = [];
    const { send, secret } = await startWebhook((update) => update.reply(`echo ${update.text}`).then(() => undefined), {
      apiRoot: proxy.url,
      onSecret: (value) => reported.push(value),
    });
    expect(reported).toEqual([secret]);
    expect(f.logged('a Telegram call at start failed, retrying').map((line) => line.method)).toEqual(['getMe', 'setWebhook', 'setWebhook']);
    expect(f.logged('receiving updates')[0]).toMatchObject({ mode: 'webhook', setWebhook: true });
    const user = f.api.createUser();
    expect(await send(user, 'hi')).toBe(200);
    expect((await f.api.nextBotMessage(user.id)).text).toBe('echo hi');
    expect(JSON.stringify(f.logs)).not.toContain(secret);
  });
});

describe('webhook updates', () => {
  it('keeps a chat in order and CONCURRENCY=1 past a Telegram call that hangs, cancelled at the deadline', async () => {
    const proxy = await startDroppingProxy(f.api.apiRoot);
    f.onClose(proxy.close);
    const events: string[] = [];
    let active = 0;
    let maxActive = 0;
    const { send } = await startWebhook(
      async (update) => {
        active++;
        maxActive = Math.max(maxActive, active);
        events.push(`start ${update.text}`);
        await update.reply(`reply ${update.text}`).catch(() => events.push(`failed ${update.text}`));
        events.push(`end ${update.text}`);
        active--;
      },
      { apiRoot: proxy.url },
    );
    const alice = f.api.createUser();
    const bob = f.api.createUser();
    proxy.hang('sendMessage');
    const first = send(alice, 'one');
    await until(() => proxy.held() === 1);
    proxy.release('sendMessage');
    expect(await first).toBe(200);
    await send(alice, 'two');
    await send(bob, 'three');

    await until(() => events.includes('end three'));
    expect(maxActive).toBe(1);
    expect(events.slice(0, 3)).toEqual(['start one', 'failed one', 'end one']);
    expect(events.indexOf('start two')).toBeGreaterThan(events.indexOf('end one'));
    expect(f.logged('update passed its deadline: its Telegram calls are cancelled')[0]).toMatchObject({ methods: ['sendMessage'] });
  });

  it('handles an update posted twice once, and drops a malformed one with 200', async () => {
    const handled: number[] = [];
    const { post } = await startWebhook(async (update) => void handled.push(update.updateId));
    const user = f.api.createUser();
    const message = f.api.sendText({ from: user, text: 'hello' });
    expect(await post({ update_id: 7, message })).toBe(200);
    expect(await post({ update_id: 7, message })).toBe(200);
    // Not 400: Telegram would post it again and again, holding the updates after it back.
    expect(await post({ update_id: '8', message })).toBe(200);
    expect(await post({ update_id: -3, message })).toBe(200);
    expect(await post({ update_id: 9, message })).toBe(200);

    await until(() => handled.includes(9));
    expect(handled).toEqual([7, 9]);
    expect(f.logged('skipped an update already handled')).toMatchObject([{ updateId: 7 }]);
    expect(f.logged('dropped a webhook body that is not an update')).toHaveLength(2);
  });
});

describe('webhook answers', () => {
  it('answers a post only once its update was handled', async () => {
    const gate = createGate();
    const { send } = await startWebhook(async (update) => {
      await gate.opened;
      await update.reply(`done ${update.text}`);
    });
    const user = f.api.createUser();
    let answered = false;
    const posted = send(user, 'slow').then((status) => {
      answered = true;
      return status;
    });
    await sleep(100);
    expect(answered).toBe(false);
    gate.open();
    expect(await posted).toBe(200);
    expect(f.api.messagesIn(user.id).map((message) => message.text)).toEqual(['done slow']);
  });

  it('answers a second post of an update still being handled when it ends, handling it once', async () => {
    const gate = createGate();
    let handled = 0;
    const { post } = await startWebhook(async () => {
      handled++;
      await gate.opened;
    });
    const message = f.api.sendText({ from: f.api.createUser(), text: 'twice' });
    const posts = [post({ update_id: 50, message }), post({ update_id: 50, message })];
    await sleep(50);
    gate.open();
    expect(await Promise.all(posts)).toEqual([200, 200]);
    expect(handled).toBe(1);
  });
});

describe('two webhook replicas behind a round-robin proxy', () => {
  it('make one setWebhook call, and take turns without breaking a chat’s order', async () => {
    const proxy = await startRoundRobinProxy();
    f.onClose(proxy.close);
    f.api.setWebhookTarget((url) => (url === 'https://bot.example.com/hook' ? `${proxy.url}/hook` : undefined));
    const events: string[] = [];
    const replicaOf = (name: string) =>
      startReceiving({
        bot: createTestBot(f.api, async (update) => {
          events.push(`${name} start ${update.text}`);
          // Long enough that the chat's next update would overtake it if Telegram were answered first.
          await sleep(150);
          await update.reply(`${name}: ${update.text}`);
          events.push(`${name} end ${update.text}`);
        }),
        config: { ...CONFIG, handlerDeadlineMs: 5_000, webhook: { url: 'https://bot.example.com/hook', secret: undefined } },
        coordination: store.coordination,
        leaderLeaseMs: 3_000,
        logger: f.logger,
        metrics: createMetricsRegistry(),
        readiness: () => ({ ready: true, detail: {} }),
      });
    const replicas = await Promise.all([replicaOf('a'), replicaOf('b')]);
    others.push(...replicas);
    const ports = f.logged('receiving updates').map((line) => line.port as number);
    proxy.setUpstreams(ports.map((port) => `http://127.0.0.1:${port}`));
    expect(f.api.callsTo('setWebhook')).toHaveLength(1);

    const user = f.api.createUser();
    for (const text of ['1', '2', '3', '4']) f.api.sendText({ from: user, text });
    await f.api.waitForIdle();
    const texts = events.map((event) => event.split(' ').slice(1).join(' '));
    expect(texts).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3', 'start 4', 'end 4']);
    // Both replicas served: the proxy alternated.
    expect(new Set(events.map((event) => event.split(' ')[0]))).toEqual(new Set(['a', 'b']));
    expect(f.api.messagesIn(user.id).map((message) => message.text.split(': ')[1])).toEqual(['1', '2', '3', '4']);
  });
});

describe('polling with a lease', () => {
  const startPollingReplica = (name: string, metrics = createMetricsRegistry()) =>
    startReceiving({
      bot: createTestBot(f.api, (update) => update.reply(`${name}: ${update.text}`).then(() => undefined)),
      config: { ...CONFIG, port: undefined, webhook: undefined },
      coordination: store.coordination,
    leaderLeaseMs: 3_000,
      logger: f.logger.child({ replica: name }),
      metrics,
      readiness: () => ({ ready: true, detail: {} }),
      backoff: { baseMs: 20, maxMs: 100 },
    });

  it('polls in one replica, checks the token in both, and hands over when the leader stops', async () => {
    const metrics = [createMetricsRegistry(), createMetricsRegistry()];
    const one = await startPollingReplica('one', metrics[0]);
    const two = await startPollingReplica('two', metrics[1]);
    others.push(two);
    expect(f.logged('receiving updates').map((line) => [line.replica, line.leading])).toEqual([
      ['one', true],
      ['two', false],
    ]);
    expect(f.api.callsTo('getMe')).toHaveLength(2);
    expect(await Promise.all(metrics.map(async (registry) => /^orderbot_polling_leader (\d)$/m.exec(await registry.render())?.[1]))).toEqual(['1', '0']);
    const user = f.api.createUser();
    f.api.sendText({ from: user, text: 'first' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('one: first');

    await one.stop(100);
    f.api.sendText({ from: user, text: 'second' });
    expect((await f.api.nextBotMessage(user.id)).text).toBe('two: second');
    expect(await Promise.all(metrics.map(async (registry) => /^orderbot_polling_leader (\d)$/m.exec(await registry.render())?.[1]))).toEqual(['0', '1']);
  });
});
